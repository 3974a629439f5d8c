"""The estimate a run above the default scale states before it starts: blocks at most
per measurement (shared by its claims), seconds from the last report's timings, and the
progress executor, which draws the same numbers as a run without it."""
import json

from theory.core import cost
from theory.core.registry import claims, get


def test_claims_of_one_measurement_share_its_blocks():
    """Claims judging one measurement draw its blocks once: the estimate counts the most
    any of them may draw, not their sum."""
    mc = [c for c in claims() if c.monte_carlo]
    by_draw = {}
    for c in mc:
        by_draw.setdefault(c.measure.draw, []).append(c)
    shared = next(group for group in by_draw.values() if len(group) > 1)
    one = cost.estimate(shared[:1], 3.0)
    both = cost.estimate(shared, 3.0)
    assert both.blocks == max(c.measure.plan(3.0).blocks[-1] for c in shared) >= one.blocks


def test_seconds_scale_with_the_blocks_at_the_report_s_speed(tmp_path):
    claim = get("daneshmand2021.fig1.vanilla_rises")
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"claims": [{"id": claim.id, "seconds": 2.0,
                                              "evidence": {"sampling": {"blocks": 4}}}]}))
    est = cost.estimate([claim], 10.0, report)
    assert est.blocks == claim.measure.plan(10.0).blocks[-1] and est.seconds == 2.0 / 4 * est.blocks
    assert cost.estimate([claim], 10.0, tmp_path / "missing.json").seconds is None
    text = cost.announcement(cost.estimate([claim], 10.0, tmp_path / "missing.json"), 10.0)
    assert "estimated" not in text and text.startswith("--mc-scale 10: up to about")


def test_the_progress_executor_draws_the_same_numbers():
    """Blocks drawn through the progress executor equal those drawn without it."""
    from theory.core import runner
    from theory.core.context import RunContext

    claim = get("daneshmand2021.fig1.vanilla_rises")
    runner.clear_caches()
    plain = runner.samples(claim.measure, RunContext(), 3)
    runner.clear_caches()
    progress = cost.ProgressExecutor(3)
    runner.set_executor(progress)
    try:
        drawn = runner.samples(claim.measure, RunContext(), 3)
    finally:
        runner.set_executor(None)
        progress.close()
    runner.clear_caches()
    assert progress.drawn == 3
    import numpy as np

    assert drawn.n_blocks == plain.n_blocks == 3
    assert all(np.array_equal(a.data[k], b.data[k]) for a, b in zip(drawn.rows, plain.rows) for k in a.data)
