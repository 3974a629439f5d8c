"""Empirical-Bernstein limits (theory/stats/bounded.py): their promised level measured on
a skewed law on [0, 1] with known mean, where the Student-t limit misses its own."""
import numpy as np
import pytest
from scipy import stats as st

from theory.stats import bernstein_limits, binomial_interval
from theory.stats.bounded import bernstein_margin


def _skewed(g, size):
    """Mostly near 1 with a thin tail towards 0 (Beta(40, 0.6); skewness about -2.5)."""
    return g.beta(40.0, 0.6, size=size)


def test_false_confirmation_rate_is_at_most_alpha_where_student_t_misses_it():
    """Threshold at the true mean: 'mean above it' must be claimed at most alpha of the
    time. Empirical Bernstein keeps that; the one-sided t limit does not (why the judge
    of |cos| uses these limits)."""
    g = np.random.default_rng(7)
    truth, alpha, n, reps = 40.0 / 40.6, 0.05, 30, 4000
    x = _skewed(g, (reps, n))
    eb = sum(bernstein_limits(row, alpha)[0] > truth for row in x)
    t_lo = x.mean(1) - st.t.isf(alpha, n - 1) * x.std(1, ddof=1) / np.sqrt(n)
    t_hits = int((t_lo > truth).sum())
    assert binomial_interval(int(eb), reps, 0.05)[0] <= alpha
    assert binomial_interval(t_hits, reps, 0.05)[0] > alpha  # the t limit's rate is measurably above alpha


def test_limits_have_power_and_cover():
    g = np.random.default_rng(8)
    x = _skewed(g, 5000)
    lo, hi = bernstein_limits(x, 1e-6)
    assert lo < 40.0 / 40.6 < hi and hi - lo < 0.03


@pytest.mark.parametrize("args,match", [
    (([0.5, 1.5], 0.01), "lie in"), (([0.5, np.nan], 0.01), "finite"), (([0.5, 0.6], 0.0), "alpha"),
    (([0.5], 0.01), "n must be an integer >= 2")])
def test_bad_input_names_the_parameter(args, match):
    with pytest.raises(ValueError, match=match):
        bernstein_limits(*args)


def test_margin_matches_the_theorem():
    # sqrt(2 V ln(2/d) / n) + 7 ln(2/d) / (3 (n - 1)) at V = 0.04, n = 101, d = 0.01
    L = np.log(200.0)
    assert bernstein_margin(0.04, 101, 0.01) == pytest.approx(np.sqrt(0.08 * L / 101) + 7 * L / 300)
