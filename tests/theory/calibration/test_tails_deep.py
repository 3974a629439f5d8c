"""The rates below a claim's level: a cell the cross-entropy proposal cannot reach is
recorded as such (and never used), the others are the importance-sampled rates."""
import math

import pytest

from theory.calibration import render_calibration
from theory.calibration import tails_deep
from theory.calibration.tails_is import CONTROL_SIGMA


def test_a_cell_the_proposal_cannot_reach_is_kept_and_marked(monkeypatch):
    def unreachable(*a, **k):
        raise RuntimeError("the cross-entropy proposal did not reach the critical value")

    monkeypatch.setattr(tails_deep, "tail_rates_is", unreachable)
    row = tails_deep.deep_rates(25, 1e-6, 2000)
    assert row["both_t"] == {"reached": False, "reliable": False,
                             "why": "the cross-entropy proposal did not reach the critical value"}
    assert row["welch_t"]["interval"][1] > 1e-6  # the other test is measured: Welch exceeds alpha here
    row["control"] = False
    text = "\n".join(render_calibration({"tails_deep": [row]}))
    assert "| 25 | 1e-06 | not reached | " in text


def test_control_rows_carry_exact_rates_that_agree_with_the_estimates():
    """The importance-sampled control rate and its exact rate (itself a Monte-Carlo mean
    for the judges' rule, with a 95% half-width) differ by no more than the 95% bound of
    their combined standard errors."""
    rows = tails_deep.run_tails_deep(sizes=(100,), levels=(1e-6,), reseeds=20000, progress=False)
    control = next(r for r in rows if r["control"])
    for k in ("both_t", "welch_t"):
        cell, truth = control[k], control[k]["truth"]
        se = math.hypot(cell["se"] / 1e-6, truth["half_width"] / 1.96)
        assert abs(cell["rate"] / 1e-6 - truth["over_alpha"]) <= 1.96 * se
    with pytest.raises(ValueError, match="rules must be a non-empty subset"):
        tails_deep.tail_rates_is(100, 1e-6, 100, rules=("welch_t",))
    assert control["sigma"] == CONTROL_SIGMA
