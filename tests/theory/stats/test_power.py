"""The resolution of a t-test (``theory.stats.power``): the deviation detected with
probability POWER, on the plain t and on the skewness rule's threshold, and the
quadrature fallback of the noncentral-t tail."""
import pytest
from scipy import stats as st

from theory.stats.power import POWER, detectable_deviation
from theory.stats.skewness import hall_inverse


def test_detectable_deviation_has_the_stated_power():
    se, df, alpha = 1.0, 20, 0.01
    d = detectable_deviation(se, df, alpha)
    crit = st.t.isf(alpha / 2, df)
    assert st.nct.sf(crit, df, d / se) == pytest.approx(0.9, abs=1e-6)


def test_detectable_deviation_with_one_degree_of_freedom_at_a_tiny_alpha():
    """scipy's noncentral-t series fails there; the quadrature over chi-square quantiles
    gives the power."""
    import warnings

    from theory.stats.power import _nct_sf

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = detectable_deviation(1.0, 1.0, 1e-7)
    crit = st.t.isf(0.5e-7, 1)
    assert d > crit and abs(_nct_sf(crit, 1.0, d) - 0.9) < 1e-6


@pytest.mark.parametrize("df,c,ncp", [(3.0, 5.0, 6.0), (7.5, 2.0, 0.5)])
def test_noncentral_tail_is_scipy_s_where_its_series_converges(df, c, ncp):
    from theory.stats.power import _nct_sf

    assert _nct_sf(c, df, ncp) == float(st.nct.sf(c, df, ncp))


def test_resolution_is_that_of_the_rule_given_the_skewness():
    """With the sample's skewness the resolution is the deviation the rule detects with
    probability POWER on its worse side: larger than the plain t test's, and the
    noncentral t passes the rule's threshold there with probability POWER; one-sided
    tests spend alpha/2 per tail too."""
    plain = detectable_deviation(1.0, 24.0, 1e-8)
    for a in (0.15, -0.15):
        res = detectable_deviation(1.0, 24.0, 1e-8, skew_a=a)
        q = st.t.isf(0.5e-8, 24)
        thr = max(q, float(hall_inverse(q, a)), -float(hall_inverse(-q, a)))
        assert res > plain and st.nct.sf(thr, 24, res) == pytest.approx(POWER, abs=1e-6)
    assert detectable_deviation(1.0, 24.0, 1e-8, skew_a=0.0) == plain
