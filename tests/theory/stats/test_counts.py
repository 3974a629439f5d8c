"""Goodness of fit of category counts: the equivalence side is an upper confidence limit."""
import numpy as np
import pytest
from scipy import optimize
from scipy import stats as st

from theory.core import Verdict
from theory.stats import POWER, binomial_interval, goodness_of_fit

UNIFORM = np.full(8, 1 / 8)
CONTRAST = np.where(np.arange(8) % 2 == 0, 1.0, -1.0)  # Cohen's w of p (1 + w c) is exactly w


def _holds_rate(w: float, n: int, reps: int, alpha: float, tol_w: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    probs = UNIFORM * (1 + w * CONTRAST)
    hits = sum(goodness_of_fit(rng.multinomial(n, probs), UNIFORM, alpha, tol_w)[3] == Verdict.HOLDS
               for _ in range(reps))
    return hits / reps


def test_false_confirmation_just_outside_the_band_is_at_most_alpha():
    # n where a deviation of w = 0.1 is detected with power 0.9 at alpha: a rule that
    # confirms whenever the test has that power and does not reject would confirm the
    # truth w = 0.102 about 1 - 0.9 of the time; the upper limit keeps it under alpha.
    alpha, reps, tol = 0.05, 2000, 0.1
    crit = st.chi2.isf(alpha, 7)
    n = int(np.ceil(optimize.brentq(lambda lam: st.ncx2.sf(crit, 7, lam) - POWER, 1e-9, 10 * crit + 100) / tol**2))
    rate = _holds_rate(tol * 1.02, n, reps, alpha, tol, seed=3)
    assert binomial_interval(round(rate * reps), reps, 0.01)[0] <= alpha


def test_confirms_inside_the_band_and_rejects_far_outside():
    assert _holds_rate(0.0, 8000, 200, 0.01, 0.1, seed=4) > 0.9
    rng = np.random.default_rng(5)
    v = goodness_of_fit(rng.multinomial(8000, UNIFORM * (1 + 0.3 * CONTRAST)), UNIFORM, 0.01, 0.1)[3]
    assert v == Verdict.FAILS


def test_upper_limit_inverts_the_noncentral_chi_square():
    counts = np.array([1010, 990, 1040, 960, 1000, 1005, 995, 1000])
    stat, p, w_upper, _ = goodness_of_fit(counts, UNIFORM, 1e-3, 0.1)
    lam = w_upper**2 * counts.sum()
    assert st.ncx2.cdf(stat, 7, lam) == pytest.approx(1e-3, rel=1e-6)


def test_a_statistic_below_the_null_quantile_bounds_nothing():
    counts = np.full(8, 1000)  # X^2 = 0: P(chi2_7 <= 0) = 0 < alpha
    assert goodness_of_fit(counts, UNIFORM, 1e-3, 0.1)[2] == 0.0
