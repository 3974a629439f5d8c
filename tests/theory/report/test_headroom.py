"""The alpha headroom against the calibration: a verdict that stands at alpha/f counts as
keeping its tests' budgets only where a usable measured rate at a level L >= 2 l_max/f
is at most l_min, at the largest measured size not above the test's, for every kind of
mean test the claim runs; tests outside the calibration are named apart."""
from theory.report.exposure import exposure_lines
from theory.report.headroom import claim_status, covered, outside


def _row(n, alpha, hi, reliable=True, reached=True, rule="both_t"):
    cell = {"rate": hi / 2, "interval": [0.0, hi], "over_alpha": hi / 2 / alpha, "reliable": reliable}
    if not reached:
        cell = {"reached": False, "reliable": False}
    return {"n": n, "alpha": alpha, "control": False, "skewness": 1.75, rule: cell}


def _test(n=150, level=1e-8, skew=1.0, top=None, unlevelled=0):
    return {"replicates": n, "tests": 1, "largest_abs_skewness": skew, "smallest_level": level,
            "largest_level": top if top is not None else level, "tests_without_level": unlevelled}


ROWS = [_row(25, 1e-8, 3e-6), _row(100, 1e-8, 1.4e-7), _row(400, 1e-8, 5e-7), _row(1600, 1e-8, 1.5e-8)]
DEEP = [_row(100, 1e-10, 6e-9), _row(100, 1e-12, 0.0, reached=False), _row(25, 1e-10, 1e-7, reliable=False),
        _row(400, 1e-10, 1e-9, reliable=False), _row(1600, 1e-12, 0.0)]


def test_covered_needs_a_usable_measured_rate_within_the_budget_at_a_level_the_probe_reaches():
    rows = ROWS + DEEP
    assert covered([_test()], 1e3, rows, "both_t")  # L = 1e-10 >= 2e-11, and 6e-9 <= 1e-8
    assert not covered([_test()], 10.0, rows, "both_t")  # only L = 1e-8 is reachable: 1.4e-7 > 1e-8
    assert not covered([_test()], 1e3, ROWS, "both_t")  # without the deep row nothing measured is low enough
    assert not covered([_test(level=8e-8)], 1e3, rows, "both_t")  # 2l/f = 1.6e-10 > 1e-10: the factor 2 matters
    assert not covered([_test(top=1e-6)], 1e3, rows, "both_t")  # the largest level needs L >= 2e-9
    assert not covered([_test(level=5e-9)], 1e3, rows, "both_t")  # the smallest level's budget: 6e-9 > 5e-9
    assert not covered([_test(n=30)], 1e12, rows, "both_t")  # 25 replicates: only an unreliable deep row
    assert not covered([_test(n=500)], 1e3, rows, "both_t")  # 400: the deep row passes the budget but is unreliable
    assert covered([_test()], 1e12, rows, "both_t")  # the unreached 1e-12 cell is skipped, the 1e-10 one used
    assert not covered([_test(n=1600)], 1e3, rows, "both_t")  # 1600's own rows decide, not 100's passing one
    assert not covered([_test(n=1600)], 1e12, rows, "both_t")  # a zero-rate cell bounds nothing
    assert covered([_test(n=5000, level=2e-8)], 10.0, rows, "both_t")  # 1600 at 1e-8: 1.5e-8 <= 2e-8
    assert not covered([_test(), _test(n=30)], 1e3, rows, "both_t")  # every group of the claim must be covered


def test_outside_the_calibration():
    rows = ROWS + DEEP
    assert not outside([_test()], rows)
    assert outside([_test(n=12)], rows) and outside([_test(skew=3.0)], rows) and outside([_test(level=None)], rows)
    assert outside([_test(unlevelled=1)], rows)  # a test of the group asked only p-values
    assert outside([dict(_test(), replicates=[150, 600])], rows)  # unequal Welch sizes: not what was measured
    assert not outside([dict(_test(), replicates=[150, 150])], rows)


def _record(cid, tests, headroom="missing", verdict="fails", welch=()):
    r = {"id": cid, "verdict": verdict, "monte_carlo": True,
         "evidence": {"sampling": {"one_sample_tests": tests, "welch_tests": list(welch)}}}
    if headroom != "missing":
        r["evidence"]["sampling"]["alpha_headroom"] = headroom
    return r


def test_a_claim_counts_only_when_each_kind_of_its_tests_is_covered():
    welch_rows = [_row(100, 1e-8, 1.2e-7, rule="welch_t")]
    kinds = [("one_sample_tests", ROWS + DEEP, "both_t"), ("welch_tests", welch_rows, "welch_t")]
    pair = dict(_test(), replicates=[150, 150])
    assert claim_status(_record("a", [_test()], 1e3), kinds) == "covered"
    assert claim_status(_record("b", [_test()], 1e3, welch=[pair]), kinds) == "short"  # its Welch test is not
    assert claim_status(_record("c", [_test()], 1e3, welch=[dict(pair, replicates=[150, 600])]), kinds) == "outside"
    assert claim_status(_record("d", [_test()], None), kinds) is None and claim_status(_record("e", [_test()]), kinds) is None
    assert claim_status(_record("f", [], 1e12), kinds) is None  # no mean tests: nothing to cover, not 'covered'


def test_the_report_counts_the_covered_claims_and_names_the_others():
    records = [_record("a.covered", [_test()], 1e3), _record("b.short", [_test()], 10.0),
               _record("c.small", [_test(n=30)], 1e12), _record("d.open", [_test()], None, "inconclusive"),
               _record("e.nolevel", [_test(level=None)], 1e12), _record("f.skewed", [_test(skew=3.0)], 1e12),
               _record("g.few", [_test(n=12)], 1e12), _record("h.old", [_test()])]
    calibration = {"tails_is": ROWS, "tails_deep": DEEP}
    text = "\n".join(exposure_lines(records, calibration))
    assert "| a.covered | fails | 1 | 150 | 1 | 1e+03 |" in text and "| b.short | fails | 1 | 150 | 1 | 1e+01 |" in text
    assert "| d.open | inconclusive | 1 | 150 | 1 | - |" in text and "| h.old | fails | 1 | 150 | 1 | not probed |" in text
    assert "usable cells at 1e-08, 1e-10, at the largest" in text  # 1e-12 has no usable cell
    assert "**1 of the 3** decided claims listed whose tests lie inside the calibration" in text
    assert "not shown for: b.short, c.small." in text
    assert "or unequal Welch sizes): e.nolevel, f.skewed, g.few." in text
    stress = {"factor": 202.0, "verdicts": {"b.short": "fails", "c.small": "inconclusive"}}
    text = "\n".join(exposure_lines(records, dict(calibration, sensitivity=stress)))
    assert ("not shown for: b.short (kept in the stress test), c.small (inconclusive in the stress test) (the stress "
            "test reruns at alpha/202 and may draw more data).") in text
    no_deep = "\n".join(exposure_lines(records, {"tails_is": ROWS}))
    assert "**0 of the 3**" in no_deep  # the deep rows are what covers a.covered


def test_a_cell_whose_control_misses_its_exact_rate_is_not_used():
    """The known-truth check gates the estimator: the same deep row covers a.covered when
    its control covers the exact rate, and not when the control misses it or is unreliable."""
    def control(lo, hi, reliable=True):
        return {"n": 100, "alpha": 1e-10, "control": True, "skewness": 0.003,
                "both_t": {"rate": (lo + hi) / 2, "interval": [lo, hi], "reliable": reliable,
                           "truth": {"over_alpha": 0.66, "half_width": 1e-3}}}

    records = [_record("a.covered", [_test()], 1e3)]

    def shown(ctrl):
        text = "\n".join(exposure_lines(records, {"tails_is": ROWS, "tails_deep": DEEP + [ctrl]}))
        return "**1 of the 1**" in text

    assert shown(control(0.65e-10, 0.67e-10))
    assert not shown(control(0.70e-10, 0.72e-10))  # the control's interval misses 0.66e-10
    assert not shown(control(0.65e-10, 0.67e-10, reliable=False))
