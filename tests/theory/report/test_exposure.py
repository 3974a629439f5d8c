"""The report's exposure summary: the catalogue's one-sample tests against the sizes
at which the calibration keeps alpha on the skewed law."""
from theory.report.exposure import exposure_lines, kept_from


def _tails(*kept_by_n):
    return [{"n": n, "alpha": 1e-6, "control": False, "both_t": {"interval": [0.0, hi]}} for n, hi in kept_by_n] + [
        {"n": 25, "alpha": 1e-6, "control": True, "both_t": {"interval": [0.0, 1.0]}}]  # controls do not count


def _record(cid, tests, verdict="fails"):
    return {"id": cid, "verdict": verdict, "monte_carlo": True, "evidence": {"sampling": {"one_sample_tests": tests}}}


def test_kept_from_is_the_smallest_size_from_which_on_every_size_keeps_alpha():
    assert kept_from(_tails((25, 3e-5), (100, 4e-6), (400, 1e-6), (1600, 7e-7)), 1e-6) == 400
    assert kept_from(_tails((25, 3e-5), (100, 9e-7), (400, 2e-6), (1600, 7e-7)), 1e-6) == 1600  # 400 breaks the run
    assert kept_from(_tails((25, 3e-5), (1600, 2e-6)), 1e-6) is None
    assert kept_from([], 1e-6) is None


def test_exposure_lists_claims_as_skewed_as_the_calibrated_law_below_the_kept_size():
    tails = _tails((25, 3e-5), (100, 4e-6), (400, 1e-6), (1600, 7e-7))
    records = [_record("a.skewed_few", [{"replicates": 32, "tests": 2, "largest_abs_skewness": 2.1},
                                        {"replicates": 800, "tests": 1, "largest_abs_skewness": 3.0}]),
               _record("b.mild_few", [{"replicates": 32, "tests": 5, "largest_abs_skewness": 0.4}]),
               _record("c.skewed_many", [{"replicates": 400, "tests": 1, "largest_abs_skewness": 2.5}]),
               {"id": "d.exact", "verdict": "holds", "monte_carlo": False, "evidence": {}}]
    text = "\n".join(exposure_lines(records, tails, 1e-6))
    assert "3 of 3 Monte-Carlo claims run one-sample tests" in text and "from 400 replicates on" in text
    assert "**1** claims have a test" in text and "| a.skewed_few | fails | 32 | 2.1 |" in text
    assert "b.mild_few |" not in text and "c.skewed_many |" not in text
    assert "| 25..99 | 7 | 2 | 2.1 |" in text and "| >= 1600 |" not in text and "| 400..1599 | 2 | 2 | 3 |" in text
    calm = "\n".join(exposure_lines(records[1:], tails, 1e-6))
    assert "No claim has a test with fewer replicates" in calm
    assert "No measured size keeps alpha" in "\n".join(exposure_lines(records, _tails((25, 3e-5)), 1e-6))
    assert exposure_lines([records[3]], tails, 1e-6) == []
