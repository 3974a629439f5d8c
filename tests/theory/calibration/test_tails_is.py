"""The importance-sampled tail rates against known truth: on near-Gaussian replicates the
plain t test is exact, so its rate at a level far below what direct counts reach is alpha."""
import pytest

from theory.calibration import tail_rates_is
from theory.calibration.tails_is import CONTROL_SIGMA


def test_plain_t_on_gaussian_replicates_has_rate_alpha_far_in_the_tail():
    r = tail_rates_is(25, 1e-8, 20000, sigma=CONTROL_SIGMA, seed=1)
    lo, hi = r["plain_t"]["interval"]
    assert lo <= 1e-8 <= hi and r["plain_t"]["se"] < 0.05e-8
    assert {t["side"] for t in r["plain_t"]["tails"]} == {"lower", "upper"}


def test_skewed_replicates_raise_the_rate_and_bad_input_is_refused():
    r = tail_rates_is(25, 1e-6, 20000, seed=1)
    assert r["corrected_t"]["interval"][0] > 10e-6  # the measured excess, far above noise
    assert r["corrected_t"]["rate"] < r["plain_t"]["rate"]  # the correction helps on skewed data
    with pytest.raises(ValueError, match="alpha in"):
        tail_rates_is(25, 0.0, 100)
    with pytest.raises(ValueError, match="n >= 2"):
        tail_rates_is(1, 1e-4, 100)
