"""The alpha headroom against the calibration: a verdict that stands at alpha/f counts as
keeping its tests' budgets only where a measured rate at a level no deeper than 2l/f is
at most l, at the largest measured size not above the test's."""
from theory.report.exposure import exposure_lines
from theory.report.headroom import covered


def _row(n, alpha, hi, reliable=True, reached=True):
    cell = {"interval": [0.0, hi], "over_alpha": hi / 2 / alpha, "reliable": reliable}
    if not reached:
        cell = {"reached": False, "reliable": False}
    return {"n": n, "alpha": alpha, "control": False, "skewness": 1.75, "both_t": cell}


def _test(n=150, level=1e-8, skew=1.0, top=None, unlevelled=0):
    return {"replicates": n, "tests": 1, "largest_abs_skewness": skew, "smallest_level": level,
            "largest_level": top if top is not None else level, "tests_without_level": unlevelled}


ROWS = [_row(25, 1e-8, 3e-6), _row(100, 1e-8, 1.4e-7), _row(1600, 1e-8, 1.5e-8)]
DEEP = [_row(100, 1e-10, 6e-9), _row(100, 1e-12, 0.0, reached=False), _row(25, 1e-10, 1e-7, reliable=False)]


def test_covered_needs_a_measured_rate_within_the_budget_at_a_level_the_probe_reaches():
    rows = ROWS + DEEP
    assert covered([_test()], 1e3, rows, "both_t")  # L = 1e-10 >= 2e-11, and 6e-9 <= 1e-8
    assert not covered([_test()], 10.0, rows, "both_t")  # only L = 1e-8 is reachable: 1.4e-7 > 1e-8
    assert not covered([_test()], 1e3, ROWS, "both_t")  # without the deep row nothing measured is low enough
    assert not covered([_test(n=30)], 1e12, rows, "both_t")  # 25 replicates: only an unreliable deep row
    assert not covered([_test(top=1e-6)], 1e3, rows, "both_t")  # the largest level needs L >= 2e-9
    assert not covered([_test(level=5e-9)], 1e3, rows, "both_t")  # the smallest level's budget: 6e-9 > 5e-9
    assert covered([_test(n=5000, level=2e-8)], 10.0, rows, "both_t")  # 1600 replicates at 1e-8: 1.5e-8 <= 2e-8
    assert not covered([_test(), _test(n=30)], 1e3, rows, "both_t")  # every group of the claim must be covered


def _record(cid, tests, headroom="missing", verdict="fails"):
    r = {"id": cid, "verdict": verdict, "monte_carlo": True,
         "evidence": {"sampling": {"one_sample_tests": tests, "welch_tests": []}}}
    if headroom != "missing":
        r["evidence"]["sampling"]["alpha_headroom"] = headroom
    return r


def test_the_report_counts_the_covered_claims_and_names_the_others():
    records = [_record("a.covered", [_test()], 1e3), _record("b.short", [_test()], 10.0),
               _record("c.small", [_test(n=30)], 1e12), _record("d.open", [_test()], None, "inconclusive"),
               _record("e.nolevel", [_test(level=None)], 1e12), _record("f.skewed", [_test(skew=3.0)], 1e12),
               _record("g.few", [_test(n=12)], 1e12), _record("h.old", [_test()])]
    calibration = {"tails_is": ROWS, "tails_deep": DEEP}
    text = "\n".join(exposure_lines(records, calibration))
    assert "| a.covered | fails | 1 | 150 | 1 | 1e+03 |" in text and "| b.short | fails | 1 | 150 | 1 | 1e+01 |" in text
    assert "| d.open | inconclusive | 1 | 150 | 1 | - |" in text and "| h.old | fails | 1 | 150 | 1 | not probed |" in text
    assert "measured here at 1e-08, 1e-10, 1e-12" in text
    assert "**1 of the 3** decided claims listed whose tests lie inside the calibration" in text
    assert "not shown for: b.short, c.small." in text
    assert "without a recorded level): e.nolevel, f.skewed, g.few." in text
    stress = {"factor": 202.0, "verdicts": {"b.short": "fails", "c.small": "inconclusive"}}
    text = "\n".join(exposure_lines(records, dict(calibration, sensitivity=stress)))
    assert ("not shown for: b.short (kept in the stress test), c.small (inconclusive in the stress test) (the stress "
            "test reruns at alpha/202 and may draw more data).") in text
    no_deep = "\n".join(exposure_lines(records, {"tails_is": ROWS}))
    assert "**0 of the 3**" in no_deep  # the deep rows are what covers a.covered
