"""The report's exposure summary: the catalogue's one-sample tests and Welch
comparisons against the sizes at which the calibration keeps alpha on the skewed law,
at its lowest level."""
from theory.report.exposure import exposure_lines, kept_from


def _tails(alpha, *kept_by_n, reliable=True, rule="both_t"):
    rows = [{"n": n, "alpha": alpha, "control": False, "skewness": 1.75,
             rule: {"interval": [0.0, hi], "over_alpha": hi / 2 / alpha, "reliable": reliable}} for n, hi in kept_by_n]
    return rows + [{"n": 25, "alpha": alpha, "control": True, "skewness": 0.0,
                    rule: {"interval": [0.0, 0.5 * alpha], "reliable": True}}]  # controls do not count


def _record(cid, tests, verdict="fails", welch=None):
    return {"id": cid, "verdict": verdict, "monte_carlo": True,
            "evidence": {"sampling": {"one_sample_tests": tests, "welch_tests": welch or []}}}


def test_kept_from_is_the_smallest_size_from_which_on_every_size_keeps_alpha():
    assert kept_from(_tails(1e-6, (25, 3e-5), (100, 4e-6), (400, 1e-6), (1600, 7e-7)), 1e-6) == 400
    assert kept_from(_tails(1e-6, (25, 3e-5), (100, 9e-7), (400, 2e-6), (1600, 7e-7)), 1e-6) == 1600  # 400 breaks it
    assert kept_from(_tails(1e-6, (25, 3e-5), (1600, 2e-6)), 1e-6) is None
    assert kept_from(_tails(1e-6, (1600, 7e-7), reliable=False), 1e-6) is None  # unreliable weights keep nothing
    mixed = _tails(1e-6, (100, 9e-7), (1600, 7e-7)) + _tails(1e-8, (100, 5e-8), (1600, 7e-9))
    assert kept_from(mixed, 1e-6) == 100 and kept_from(mixed, 1e-8) == 1600
    assert kept_from([], 1e-6) is None
    welch = _tails(1e-8, (400, 9e-9), (1600, 7e-9), rule="welch_t")
    assert kept_from(welch, 1e-8, "welch_t") == 400
    assert kept_from(_tails(1e-8, (400, 9e-9), reliable=False, rule="welch_t"), 1e-8, "welch_t") is None


def test_exposure_lists_the_claims_below_the_kept_size_at_the_lowest_level():
    tails = _tails(1e-6, (25, 3e-5), (100, 9e-7), (1600, 7e-7)) + _tails(1e-8, (25, 3e-7), (100, 5e-8), (1600, 7e-9))
    records = [_record("a.few", [{"replicates": 4, "tests": 1, "largest_abs_skewness": 1.1},
                                 {"replicates": 32, "tests": 2, "largest_abs_skewness": 0.4},
                                 {"replicates": 1600, "tests": 1, "largest_abs_skewness": 3.0}]),
               _record("b.many", [{"replicates": 2000, "tests": 5, "largest_abs_skewness": 2.5}], verdict="holds"),
               {"id": "c.exact", "verdict": "holds", "monte_carlo": False, "evidence": {}}]
    text = "\n".join(exposure_lines(records, {"tails_is": tails}))
    assert "the calibrated law has 1.75" in text and "At alpha 1e-08" in text and "from 1600 replicates on" in text
    assert "2 of 2 Monte-Carlo claims run one-sample tests" in text and "**1** claims have one-sample tests" in text
    assert "| a.few | fails | 3 | 4 | 1.1 |" in text and "| b.many |" not in text
    assert "| 0..9 | 1 | 1 | 1 | 1.1 |" in text and "| 25..99 | 2 | 1 | 1 | 0.4 |" in text
    assert "| >= 1600 | 6 | 2 | 1 | 3 |" in text and "| 10..24 |" not in text
    assert "no claim has one-sample tests with fewer replicates" in "\n".join(
        exposure_lines(records[1:], {"tails_is": tails}))
    nothing_kept = "\n".join(exposure_lines(records, {"tails_is": _tails(1e-8, (1600, 2e-8))}))
    assert "nominal level" in nothing_kept and "so **all 2** are listed" in nothing_kept
    assert "| b.many | holds | 5 | 2000 | 2.5 |" in nothing_kept  # with nothing kept, every tested claim is listed
    assert "no importance-sampled rates" in "\n".join(exposure_lines(records, None))
    assert exposure_lines([records[2]], {"tails_is": tails}) == []


def test_welch_comparisons_are_placed_by_their_smaller_sample_against_their_own_calibration():
    tails = _tails(1e-8, (25, 3e-6), (100, 9e-9), (1600, 7e-9))
    welch = _tails(1e-8, (25, 9e-8), (100, 5e-8), (400, 9e-9), (1600, 7e-9), rule="welch_t")
    records = [_record("a.pair", [], welch=[{"replicates": [80, 5000], "tests": 2, "largest_abs_skewness": 1.2},
                                            {"replicates": [400, 400], "tests": 1, "largest_abs_skewness": 0.3}]),
               _record("b.big", [{"replicates": 200, "tests": 1, "largest_abs_skewness": 0.1}], verdict="holds",
                       welch=[{"replicates": [1600, 1600], "tests": 4, "largest_abs_skewness": 0.9}])]
    text = "\n".join(exposure_lines(records, {"tails_is": tails, "tails_welch": welch}))
    assert "2 of 2 Monte-Carlo claims run Welch comparisons" in text
    assert "**2** of the 7 Welch comparisons compare unequal sizes" in text  # the equal-size calibration's limit
    assert "Welch's comparison with a Gaussian sample keeps alpha on the skewed law from 400 replicates on" in text
    assert "| a.pair | fails | 2 | 80+5000 | 1.2 |" in text and "| b.big |" not in text.split("Welch comparisons")[-1]
    assert "| 25..99 | 2 | 1 | 1 | 1.2 |" in text and "| >= 1600 | 4 | 1 | 0 | 0.9 |" in text
    assert "1 of 2 Monte-Carlo claims run one-sample tests" in text  # the one-sample part keeps its own calibration
    assert "no importance-sampled Welch rates" in "\n".join(exposure_lines(records, {"tails_is": tails}))


def test_the_sampling_line_names_both_kinds_of_test_and_the_headroom():
    from theory.report.markdown import _tests_phrase

    assert _tests_phrase([], "Welch comparisons") == ""
    phrase = _tests_phrase([{"replicates": [25, 400], "tests": 2, "largest_abs_skewness": 1.5},
                            {"replicates": [400, 400], "tests": 1, "largest_abs_skewness": 0.5}], "Welch comparisons")
    assert phrase == "; 3 Welch comparisons on 25+400 to 400+400 replicates, largest abs. sample skewness 1.5"
