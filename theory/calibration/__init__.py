"""Calibration: every judge fed synthetic data with known truth (false alarms, false
confirmations, power, with exact intervals), and the seed stability of the catalogue.
``python -m theory calibrate`` writes calibration.json; the report renders it."""
from .cases import CASES, TRUTHS, Case
from .measure import (CALIBRATION_ALPHA, DEFAULT_RESEEDS, expectation, measure_case, run_calibration,
                      run_counts_calibration, run_deep_calibration, run_welch_calibration)
from .render import render_calibration
from .tails import corrected_t, run_tails, tail_rates
from .tails_is import run_tails_is, tail_rates_is
from .tails_welch import run_tails_welch, welch_gaussian_exact, welch_rates_is
from .stability import FAST_SEEDS, SLOW_SEEDS, flips, run_stability
from .sensitivity import changed_verdicts, run_sensitivity, worst_excess

__all__ = ["CASES", "TRUTHS", "Case", "CALIBRATION_ALPHA", "DEFAULT_RESEEDS", "expectation", "measure_case",
           "run_calibration", "run_counts_calibration", "run_welch_calibration", "run_deep_calibration", "render_calibration", "corrected_t", "run_tails", "tail_rates", "run_tails_is",
           "tail_rates_is", "run_tails_welch", "welch_gaussian_exact", "welch_rates_is", "FAST_SEEDS", "SLOW_SEEDS", "flips", "run_stability",
           "changed_verdicts", "run_sensitivity", "worst_excess"]
