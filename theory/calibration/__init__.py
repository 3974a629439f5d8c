"""Calibration: every test's false-alarm rate counted at the deepest level it runs at
inside a claim (:mod:`.rates`), and every judge fed synthetic data with known truth
through the sequential runner (:mod:`.cases`, :mod:`.measure`). ``python -m theory
calibrate`` writes calibration.json; the report renders it (:mod:`theory.report.calibration`)."""
from .cases import CASES, TRUTHS, Case, all_cases, paper_cases
from .measure import CALIBRATION_ALPHA, DEFAULT_RESEEDS, expectation, measure_case, run_calibration
from .rates import ROWS, measure_row, run_rates

__all__ = ["CASES", "TRUTHS", "Case", "all_cases", "paper_cases", "CALIBRATION_ALPHA", "DEFAULT_RESEEDS",
           "expectation", "measure_case", "run_calibration", "ROWS", "measure_row", "run_rates"]
