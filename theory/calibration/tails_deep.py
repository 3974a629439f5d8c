"""False-alarm rates of the judges' one-sample test and of Welch's comparison below the
level of the tests inside a claim, by importance sampling: where the alpha headroom of a
verdict (:func:`theory.core.runner.alpha_headroom`) sends its tests.

A verdict that stands at alpha/f on its data is the verdict of the same tests run at the
per-side level l/f, for each test's per-side level l (recorded by the runner). The real
rate of a test is nondecreasing in its nominal level, so at l/f it is at most the real
rate measured at any level L >= 2 l / f (the two-sided rates measured here bound either
side). Where that measured rate (upper 95% limit, reliable weights) is at most l, the
test at l/f keeps the budget l on the calibrated law, and so the verdict does: a measured
statement, not an extrapolated one (:mod:`theory.report.exposure` applies it).

The rows are those of :mod:`.tails_is` (rule ``both_t``) and :mod:`.tails_welch`
(``welch_t``) at :data:`DEEP_LEVELS`, with the near-Gaussian controls and their exact
rates. Far enough in the tail the per-coordinate Gaussian proposal stops working (with
few replicates the cross-entropy steps do not reach the critical value, or the weights
fail the diagnostics); such a cell is kept with ``reached: False`` or ``reliable:
False`` and is not used.
"""
from __future__ import annotations

from .tails import lognormal_skewness
from .tails_is import CONTROL_SIGMA, IS_SIZES, gaussian_exact_rate, tail_rates_is
from .tails_welch import welch_gaussian_exact, welch_rates_is

__all__ = ["DEEP_LEVELS", "deep_rates", "run_tails_deep"]

#: Two-sided levels below the tests inside a claim (about 1e-8).
DEEP_LEVELS = (1e-10, 1e-12)


def _cell(measure) -> dict:
    """``measure()``, or a cell that says the proposal did not reach the critical value."""
    try:
        return measure()
    except RuntimeError as e:
        return {"reached": False, "reliable": False, "why": str(e)}


def deep_rates(n: int, alpha: float, reseeds: int, sigma: float = 0.5, seed: int = 0) -> dict:
    """The two-sided rates at ``alpha`` of the judges' one-sample test (``both_t``) and
    of Welch's comparison with a Gaussian sample (``welch_t``) on ``n`` lognormal
    replicates (log-sd ``sigma``) per sample, ``reseeds`` weighted draws per tail."""
    return {"n": n, "alpha": alpha, "reseeds": reseeds, "sigma": sigma, "skewness": lognormal_skewness(sigma),
            "both_t": _cell(lambda: tail_rates_is(n, alpha, reseeds, sigma, seed, rules=("both_t",))["both_t"]),
            "welch_t": _cell(lambda: welch_rates_is(n, alpha, reseeds, sigma, seed)["welch_t"])}


def run_tails_deep(sizes=IS_SIZES, levels=DEEP_LEVELS, reseeds: int = 100000, progress: bool = True,
                   jobs: int = 1) -> list:
    """One row per (alpha, sample size) on lognormal replicates, and the same on
    near-Gaussian controls (``control: True``) with the exact rates as ``truth``, on
    ``jobs`` processes."""
    from .pool import map_tasks

    tasks = [(n, alpha, reseeds, sigma) for sigma in (0.5, CONTROL_SIGMA) for alpha in levels for n in sizes]
    rows = map_tasks(deep_rates, tasks, jobs, "tails (deep levels)", progress)
    for row, (n, alpha, _, sigma) in zip(rows, tasks):
        row["control"] = sigma == CONTROL_SIGMA
        if row["control"]:
            if row["both_t"].get("reached", True):
                row["both_t"]["truth"] = gaussian_exact_rate(n, alpha, draws=min(10**6, 4 * 10**8 // n), rule="both_t")
            if row["welch_t"].get("reached", True):
                row["welch_t"]["truth"] = welch_gaussian_exact(n, alpha)
    return rows
