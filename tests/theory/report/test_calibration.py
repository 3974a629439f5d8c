"""The report's calibration section (``theory.report.calibration``): a screen that names
what is not met and the commit each part was measured at."""
from theory.report.calibration import render_calibration


def _rates_data():
    row = {"test": "one-sample mean", "law": "lognormal, sd of log 0.5", "skewness": 1.75, "n": 200, "level": 5e-6,
           "reseeds": 10**7, "upper": 2, "lower": 120, "rate": 1.22e-5, "interval": [1.0e-5, 1.45e-5], "met": False}
    return {"claim_alpha": 1e-3, "level": 5e-6, "guard": 2, "reseeds": 10**7, "min_replicates": 200,
            "min_point_replicates": 20,
            "rows": [row, {**row, "n": 400, "lower": 60, "rate": 6.2e-6, "interval": [4.7e-6, 8e-6], "met": True}]}


def test_render_is_a_screen_and_names_what_is_not_met():
    judged = {"judge": "judge_means", "case": "mean", "truth": "true", "checked": "fails", "meaning": "false alarm",
              "rate": 0.2, "interval": [0.1, 0.3], "expect": "at most 0.05", "consistent": False, "reseeds": 10,
              "counts": {"holds": 0, "holds_approximately": 0, "fails": 2, "inconclusive": 8}, "mean_looks": 1.0}
    off = {**judged, "case": "limit", "truth": "inside_off_centre_16x", "rate": 0.0, "interval": [0.0, 0.3],
           "consistent": True, "counts": {"holds": 0, "holds_approximately": 3, "fails": 0, "inconclusive": 7},
           "measured_at": {"commit": "b" * 40, "dirty": False}}
    lines = render_calibration({"rates": _rates_data(), "judges": {"alpha": 0.05, "reseeds": 10, "rows": [judged, off]},
                                "measured_at": {"rates": {"commit": "a" * 40, "dirty": False}}})
    text = "\n".join(lines)
    assert len(lines) <= 60 and "at most 2 times the level" in text
    assert "1 of 2 rows meet it" in text and "**no**" in text
    assert "1 of 2** rows are consistent" in text and "not mean true (0.200, at most 0.05)" in text
    assert "| limit | 16x | 0.000 [0.000, 0.300] | 0.300 | 0.700 |" in text and "rates at `aaaaaaa`" in text
    assert "Kept from earlier runs: limit at `bbbbbbb`." in text
    assert "Not measured yet" in "\n".join(render_calibration({}))
