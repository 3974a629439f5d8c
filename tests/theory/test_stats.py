"""The statistics behave as stated: calibrated false alarms, stated resolution."""
import numpy as np
import pytest
from hypothesis import given

from theory import Verdict
from theory.stats import extrapolate_limit, fit_power_law, mean_test, resolution_factor

from ..strategies import seeds


@given(seed=seeds)
def test_true_mean_is_accepted(seed):
    x = np.random.default_rng(seed).exponential(size=20000)
    assert mean_test(x, 1.0, alpha=1e-6, required=0.05).verdict == Verdict.HOLDS


@given(seed=seeds)
def test_deviation_of_twice_the_resolution_is_rejected(seed):
    x = np.random.default_rng(seed).normal(1.0, 1.0, size=10000)
    res = resolution_factor(1e-6) * 1.0 / 100
    assert mean_test(x + 2 * res, 1.0, alpha=1e-6, required=0.5).verdict == Verdict.FAILS


def test_coarse_resolution_is_inconclusive_not_holds():
    x = np.random.default_rng(0).normal(1.0, 1.0, size=100)
    assert mean_test(x, 1.0, alpha=1e-6, required=0.01).verdict == Verdict.INCONCLUSIVE


def test_power_law_fit_recovers_exponent():
    w = np.array([8, 16, 32, 64, 128.0])
    fit = fit_power_law(w, 3 * w**-0.5, 0.01 * 3 * w**-0.5, alpha=1e-6)
    assert fit.lo < -0.5 < fit.hi and fit.hi < 0
    c, se = extrapolate_limit(w, 2 + 1 / w, np.full(5, 1e-3))
    assert abs(c - 2) < 5 * se


def test_bad_samples_raise():
    with pytest.raises(ValueError, match="samples"):
        mean_test([1.0] * 10, 1.0, 1e-6, 0.1)
    with pytest.raises(ValueError, match="finite"):
        mean_test([np.nan] * 40, 1.0, 1e-6, 0.1)
