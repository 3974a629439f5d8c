"""The Welch comparison's importance-sampled tail rates against known truth: for two
Gaussian samples of equal size and variance its rate is a one-dimensional integral
(checked here against direct counts at a level where counting works), and the
importance-sampled control rows must reproduce it far in the tail."""
import math

import numpy as np
import pytest
from scipy import stats as st

from theory.calibration import tails_is, welch_gaussian_exact, welch_rates_is
from theory.calibration.tails import welch_t
from theory.calibration.tails_is import CONTROL_SIGMA


def test_exact_rate_agrees_with_direct_counts_where_counting_works():
    """At alpha 0.01 and 8 replicates a side, 400,000 direct draws resolve the rate to
    about 1.5%; the integral must lie inside their exact 99.9% interval, and so must not
    the rate of the pooled test (alpha itself), which the integral is not."""
    n, alpha, draws = 8, 0.01, 400_000
    rng = np.random.default_rng(5)
    t, df = welch_t(rng.standard_normal((draws, n)), rng.standard_normal((draws, n)))
    hits = int((np.abs(t) > st.t.isf(alpha / 2, df)).sum())
    lo, hi = (st.beta.ppf(0.0005, hits, draws - hits + 1) / alpha, st.beta.ppf(0.9995, hits + 1, draws - hits) / alpha)
    exact = welch_gaussian_exact(n, alpha)["over_alpha"]
    assert lo <= exact <= hi
    assert not lo <= 1.0 <= hi  # the check can fail: Welch is not exact, and the counts see it


def test_control_rows_reproduce_the_exact_rate_far_in_the_tail():
    """At 1e-6 (below what direct counts reach) the rate is 0.90 alpha, and 20,000
    weighted draws per tail resolve it from alpha itself."""
    r = welch_rates_is(25, 1e-6, 20000, sigma=CONTROL_SIGMA, seed=3)
    exact = welch_gaussian_exact(25, 1e-6)
    assert exact["over_alpha"] < 0.95  # conservative at this size: a truth different from alpha
    lo, hi = (v / 1e-6 for v in r["welch_t"]["interval"])
    assert lo <= exact["over_alpha"] <= hi < 1 and r["welch_t"]["reliable"]
    assert {t["side"] for t in r["welch_t"]["tails"]} == {"lower", "upper"}
    assert all(len(t["proposal"]) == 2 for t in r["welch_t"]["tails"])  # one (mu, tau) per sample


def test_a_weight_that_forgets_a_sample_misses_the_truth(monkeypatch):
    """Mutation: weights that leave out the Gaussian sample's likelihood ratio give a
    rate far from the exact one, so the control comparison above can fail."""
    def first_block_only(zs, proposal):
        return tails_is._log_ratio(zs[0], *proposal[0])

    monkeypatch.setattr(tails_is, "_log_weight", first_block_only)
    r = welch_rates_is(25, 1e-6, 20000, sigma=CONTROL_SIGMA, seed=3)
    lo, hi = (v / 1e-6 for v in r["welch_t"]["interval"])
    assert not lo <= welch_gaussian_exact(25, 1e-6)["over_alpha"] <= hi


def test_skewed_side_raises_the_rate_and_bad_input_is_refused():
    r = welch_rates_is(100, 1e-8, 20000, seed=1)
    assert r["welch_t"]["interval"][0] > 2e-8 and r["skewness"] == pytest.approx(1.7502, abs=1e-4)
    lower, upper = r["welch_t"]["tails"]
    assert lower["rate"] > 10 * upper["rate"]  # a right-skewed side: the excess is in the lower tail
    with pytest.raises(ValueError, match="n must be an integer >= 25"):
        welch_rates_is(10, 1e-4, 100)
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
        welch_rates_is(25, math.nan, 100)
    with pytest.raises(ValueError, match="need an integer n >= 2"):
        welch_gaussian_exact(1, 1e-4)
