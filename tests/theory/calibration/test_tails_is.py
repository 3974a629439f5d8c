"""The importance-sampled tail rates against known truth: on near-Gaussian replicates the
plain t test is exact, so its rate at a level far below what direct counts reach is alpha,
and the corrected test's rate has an exact (conditional) form."""
import math

import pytest

from theory.calibration import tail_rates_is
from theory.calibration.tails_is import CONTROL_SIGMA, gaussian_exact_rate


def test_plain_t_on_gaussian_replicates_has_rate_alpha_far_in_the_tail():
    r = tail_rates_is(25, 1e-8, 20000, sigma=CONTROL_SIGMA, seed=1)
    lo, hi = r["plain_t"]["interval"]
    assert lo <= 1e-8 <= hi and r["plain_t"]["se"] < 0.05e-8
    assert {t["side"] for t in r["plain_t"]["tails"]} == {"lower", "upper"}


def test_skewed_replicates_raise_the_rate_and_bad_input_is_refused():
    r = tail_rates_is(25, 1e-6, 20000, seed=1)
    assert r["corrected_t"]["interval"][0] > 10e-6  # the measured excess, far above noise
    assert r["corrected_t"]["rate"] < r["plain_t"]["rate"]  # the correction helps on skewed data
    # the judges' rule rejects inside the corrected test's region: its rate is not above, up to 4 standard errors
    both, corr = r["both_t"], r["corrected_t"]
    assert both["rate"] <= corr["rate"] + 4 * math.hypot(both["se"], corr["se"])
    with pytest.raises(ValueError, match=r"alpha must be in \(0, 1\)"):
        tail_rates_is(25, 0.0, 100)
    with pytest.raises(ValueError, match="n must be an integer >= 25"):
        tail_rates_is(10, 1e-4, 100)
    with pytest.raises(ValueError, match="sigma must be finite"):
        tail_rates_is(25, 1e-4, 100, sigma=float("nan"))
    with pytest.raises(ValueError, match="chunk must be"):
        tail_rates_is(25, 1e-4, 100, chunk=0)


def test_corrected_t_on_gaussian_replicates_agrees_with_its_exact_rate():
    """At 1e-6 and 100 replicates the weights are well behaved: the importance-sampled
    rate of the corrected test covers the exact one (above alpha: the noisy sample
    skewness raises it), and the row says its weights are reliable."""
    exact = gaussian_exact_rate(100, 1e-6, draws=200_000)
    assert exact["over_alpha"] - exact["half_width"] > 1  # the correction raises the rate, beyond its noise
    r = tail_rates_is(100, 1e-6, 20000, sigma=CONTROL_SIGMA, seed=2)
    lo, hi = (v / 1e-6 for v in r["corrected_t"]["interval"])
    assert lo - exact["half_width"] <= exact["over_alpha"] <= hi + exact["half_width"]
    assert r["corrected_t"]["reliable"] and all(t["ess"] >= 1000 for t in r["corrected_t"]["tails"])
    both = gaussian_exact_rate(100, 1e-6, draws=200_000, rule="both_t")
    assert both["over_alpha"] + both["half_width"] <= 1  # the judges' rule keeps alpha on Gaussian replicates
    lo, hi = (v / 1e-6 for v in r["both_t"]["interval"])
    assert lo - both["half_width"] <= both["over_alpha"] <= hi + both["half_width"]
    with pytest.raises(ValueError, match="rule must be"):
        gaussian_exact_rate(100, 1e-6, draws=10, rule="plain")


def test_rule_keeps_alpha_on_gaussian_replicates_where_the_corrected_test_alone_does_not():
    """Exact conditional rates (no importance sampling): judged by Hall's statistic alone,
    25 Gaussian replicates at 1e-8 are rejected tens of times too often; the judges' rule
    stays below alpha. Sizes below the skewness correction's are refused."""
    alone = gaussian_exact_rate(25, 1e-8, draws=100_000, rule="corrected_t")
    both = gaussian_exact_rate(25, 1e-8, draws=100_000, rule="both_t")
    assert alone["over_alpha"] - alone["half_width"] > 10
    assert both["over_alpha"] + both["half_width"] <= 1
    with pytest.raises(ValueError, match="need an integer n >= 10"):
        gaussian_exact_rate(5, 1e-8, draws=10)


def test_rates_are_those_recorded_before_the_proposal_was_written_for_blocks():
    """Regression: the block form of the cross-entropy proposal (shared with the Welch
    rates) gives the one-sample rows bit for bit what the one-block code gave (values
    from commit 169dbbb)."""
    r = tail_rates_is(25, 1e-6, 3000, 0.5, chunk=1000)
    assert (r["plain_t"]["rate"], r["corrected_t"]["rate"], r["both_t"]["rate"]) == pytest.approx(
        (0.00010380748272831556, 3.963821247151855e-05, 2.704472494808848e-05), rel=1e-12)
