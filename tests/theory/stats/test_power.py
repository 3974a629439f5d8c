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
    """scipy's noncentral-t series fails there; the quadrature fallback gives the power."""
    import warnings

    from theory.stats.power import _nct_sf_quadrature, _nct_sf_series

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = detectable_deviation(1.0, 1.0, 1e-7)
    crit = st.t.isf(0.5e-7, 1)
    assert _nct_sf_series(crit, 1.0, d) is None  # the case the fallback exists for
    assert d > crit and abs(_nct_sf_quadrature(crit, 1.0, d) - 0.9) < 1e-6


@pytest.mark.parametrize("df,c,ncp", [(1.0, 12.7, 15.0), (2.0, 3162.0, 5000.0), (3.0, 5.0, 6.0), (7.5, 2.0, 0.5)])
def test_quadrature_fallback_equals_the_series_where_the_series_converges(df, c, ncp):
    """The fallback of the noncentral-t tail (quadrature over chi2 quantiles) against
    scipy's series, on cases where the series converges: the fallback is a second
    computation of the same probability, not an approximation of it."""
    from theory.stats.power import _nct_sf_quadrature

    assert abs(_nct_sf_quadrature(c, df, ncp) - float(st.nct.sf(c, df, ncp))) < 1e-8


def test_resolution_is_that_of_the_rule_given_the_skewness():
    """With the sample's skewness the resolution is the deviation the rule detects with
    probability POWER on its worse side: larger than the plain t test's, and the
    noncentral t passes the rule's threshold there with probability POWER."""
    plain = detectable_deviation(1.0, 24.0, 1e-8)
    for a in (0.15, -0.15):
        res = detectable_deviation(1.0, 24.0, 1e-8, skew_a=a)
        q = st.t.isf(0.5e-8, 24)
        thr = max(q, float(hall_inverse(q, a)), -float(hall_inverse(-q, a)))
        assert res > plain and st.nct.sf(thr, 24, res) == pytest.approx(POWER, abs=1e-6)
    assert detectable_deviation(1.0, 24.0, 1e-8, skew_a=0.0) == plain
