"""The one fitting helper: exact recovery, residual degrees of freedom under lack of fit."""
import numpy as np
import pytest
from scipy import stats as st

from theory.stats import limit, power_law, wls


def test_power_law_recovers_the_exponent():
    w = np.array([8, 16, 32, 64, 128.0])
    fit = power_law(w, 3 * w**-0.5, 0.01 * 3 * w**-0.5, point_df=500)
    lo, hi = fit.interval(1, 1e-6)
    assert lo < -0.5 < hi < 0 and not fit.inflated and fit.quantile_df == 500


def test_lack_of_fit_switches_to_residual_degrees_of_freedom():
    x = np.arange(1, 7.0)
    y = x**2  # a line does not fit
    fit = wls(np.stack([np.ones_like(x), x], 1), y, np.full(6, 0.01))
    assert fit.inflated and fit.residual_df == 4 and fit.quantile_df == 4
    lo, hi = fit.interval(1, 0.05)
    assert hi - fit.coef[1] == pytest.approx(st.t.isf(0.025, 4) * fit.se(1))


def test_limit_extrapolation():
    w = np.array([16, 32, 64, 128.0])
    fit = limit(w, 2 + 3 / w, np.full(4, 1e-3), point_df=1000)
    assert fit.coef[0] == pytest.approx(2) and fit.coef[1] == pytest.approx(3)


def test_as_many_points_as_coefficients_leave_no_residual_freedom():
    fit = wls(np.stack([np.ones(2), [1.0, 2.0]], 1), [1.0, 3.0], [0.1, 0.1])
    assert fit.residual_df == 0


@pytest.mark.parametrize("se", [[0.1, 0.0, 0.1], [0.1, np.nan, 0.1]])
def test_bad_standard_errors_raise(se):
    with pytest.raises(ValueError, match="se"):
        wls(np.stack([np.ones(3), [1.0, 2, 3]], 1), [1.0, 2, 3], se)


def test_a_misfit_the_pre_test_misses_still_widens_the_interval():
    """Reduced chi-square 2 on 3 residual dof (lack-of-fit p about 0.11, above the
    pre-test level): the covariance is scaled by the Birge ratio 2, the quantile keeps
    the per-point dof."""
    x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    X = np.stack([np.ones_like(x), x], axis=1)
    se = np.full(5, 0.1)
    # residuals orthogonal to both columns, scaled to chi-square 6
    r = np.array([1.0, -1.0, -1.0, 0.0, 1.0])
    r -= X @ np.linalg.lstsq(X, r, rcond=None)[0]
    r *= np.sqrt(6.0) * 0.1 / np.linalg.norm(r)
    fit = wls(X, 2 + 0.5 * x + r, se, point_df=50)
    plain = np.linalg.inv(X.T @ X / 0.01)
    assert fit.chi2 == pytest.approx(6.0) and fit.lack_of_fit_p == pytest.approx(st.chi2.sf(6.0, 3))
    assert not fit.inflated and fit.quantile_df == 50
    assert fit.se(1) == pytest.approx(np.sqrt(2 * plain[1, 1]))


def test_a_fit_refuses_to_decide_below_its_minimum_replicates_per_point():
    from theory.stats import MIN_POINT_REPLICATES, TooFewReplicates

    w = np.array([8, 16, 32, 64, 128.0])
    f = power_law(w, w**-0.5, 0.01 * w**-0.5, point_df=MIN_POINT_REPLICATES - 2)
    with pytest.raises(TooFewReplicates, match=f"at least {MIN_POINT_REPLICATES} replicates per point"):
        f.interval(1, 0.05)
    assert float(f.coef[1]) == pytest.approx(-0.5)  # the estimate is still there


def test_batched_fits_are_the_single_fits():
    from theory.stats import wls, wls_batch

    rng = np.random.default_rng(3)
    X = np.stack([np.ones(5), np.log([8, 16, 32, 64, 128.0])], 1)
    y, se = rng.normal(size=(7, 5)), np.full((7, 5), 0.5)
    y[:3] *= 5  # these rows misfit: residual degrees of freedom
    b = wls_batch(X, y, se, point_df=30)
    for i in range(7):
        f = wls(X, y[i], se[i], point_df=30)
        assert np.allclose(f.cov, b["cov"][i]) and np.allclose(f.coef, b["coef"][i])
        assert (f.inflated, f.quantile_df) == (bool(b["inflated"][i]), float(b["quantile_df"][i]))
    assert b["inflated"].any() and not b["inflated"].all()
