"""Run the calibration and write calibration.json: the tests' rates at the level they run
at inside a claim (:mod:`.rates`), and the judges' cases through the sequential runner
at a calibration alpha where rates are measurable (0.05), over many reseeds, with exact
(Clopper-Pearson) 95% intervals. Tasks run in worker processes (:func:`map_tasks`): each
task's numbers depend only on its own seeds, so any number of jobs gives the same results."""
from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from threadpoolctl import threadpool_limits

from .. import stats
from ..core import RunContext, Verdict, clear_caches, evaluate
from .cases import all_cases

__all__ = ["CALIBRATION_ALPHA", "DEFAULT_RESEEDS", "expectation", "measure_case", "run_calibration",
           "merge_section", "map_tasks"]

#: The claim alpha the judges' cases run at (rates of 0.05 are measurable with 1,000 reseeds).
CALIBRATION_ALPHA = 0.05
DEFAULT_RESEEDS = 1000


def expectation(truth: str, alpha: float) -> tuple[str, str, float, str]:
    """(verdict whose rate is checked, 'at most'/'at least', level, meaning) for a truth."""
    if truth.startswith("inside_off_centre"):
        return "fails", "at most", alpha, "false alarm, truth inside the band off centre"
    return {"true": ("fails", "at most", alpha, "false alarm"),
            "rms_boundary": ("fails", "at most", alpha, "false alarm at the boundary"),
            "rms_flat": ("holds", "at most", alpha, "false confirmation at the boundary"),
            "underpowered": ("fails", "at most", alpha, "false alarm"),
            "false_1x": ("fails", "at least", stats.POWER, "power at the resolution"),
            "false_3x": ("fails", "at least", stats.POWER, "power at 3x the resolution"),
            "outside_band": ("holds", "at most", alpha, "false confirmation"),
            "inside_1x": ("holds", "at least", stats.POWER, "power to confirm at the resolution"),
            "true_soft": ("fails", "at most", alpha, "false alarm, soft transitions"),
            "outside_soft": ("holds", "at most", alpha, "false confirmation, soft transitions")}[truth]


def measure_case(case, truth: str, reseeds: int, alpha: float, seed0: int = 0) -> dict:
    """Verdict counts of ``case`` under ``truth`` over ``reseeds`` seeds, with rates."""
    claim = case.claim(truth, alpha)
    counts = {v.value: 0 for v in Verdict}
    looks = 0
    t0 = time.perf_counter()
    for s in range(seed0, seed0 + reseeds):
        clear_caches()
        ev = evaluate(claim, RunContext(seed=s, claim_alpha=alpha))
        counts[ev.verdict.value] += 1
        looks += ev.sampling["looks"]
    clear_caches()
    checked, direction, level, meaning = expectation(truth, alpha)
    k = counts[checked] + (counts["holds_approximately"] if checked == "holds" else 0)
    lo, hi = stats.binomial_interval(k, reseeds, 0.05)
    return {"case": case.name, "judge": case.judge, "truth": truth, "reseeds": reseeds, "alpha": alpha,
            "counts": counts, "checked": checked, "rate": k / reseeds, "interval": [lo, hi],
            "expect": f"{direction} {level:g}", "meaning": meaning,
            "consistent": bool(lo <= level if direction == "at most" else hi >= level),
            "mean_looks": looks / reseeds, "seconds": round(time.perf_counter() - t0, 1)}


def merge_section(out, section: str, run) -> dict:
    """``run()`` merged into ``out``/calibration.json under ``section``, every other
    section kept, with the code it was measured with under ``measured_at`` (the commit,
    dirty if tracked files differed or changed during the run:
    :func:`simulations.core.provenance.state_since`)."""
    from simulations.core.provenance import git_state, state_since

    start = git_state()
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / "calibration.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[section] = run()
    data.setdefault("measured_at", {})[section] = state_since(start)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data


def run_calibration(out: str | Path = ".", reseeds: int | None = None, alpha: float = CALIBRATION_ALPHA,
                    cases=None, progress: bool = True, jobs: int = 1, judges: bool = True,
                    rates: bool = True, rate_reseeds: int | None = None, rate_rows=None,
                    keep_other_cases: bool = False) -> dict:
    """Measure the tests' rates (``rates``) and every case under every truth (``judges``)
    on ``jobs`` processes; merge into ``out``/calibration.json (with ``keep_other_cases``,
    the recorded rows of the cases not run stay, at the same alpha and reseeds, each with
    the ``measured_at`` of the run that measured it)."""
    from .rates import RESEEDS, ROWS, run_rates

    data: dict = {}
    if rates:
        rate_reseeds = rate_reseeds or RESEEDS
        data = merge_section(out, "rates", lambda: {
            "claim_alpha": stats.CLAIM_ALPHA, "level": stats.CALIBRATED_LEVEL, "guard": stats.ALPHA_GUARD,
            "reseeds": rate_reseeds, "min_replicates": stats.MIN_REPLICATES,
            "min_point_replicates": stats.MIN_POINT_REPLICATES,
            "rows": run_rates(rate_reseeds, ROWS if rate_rows is None else rate_rows, jobs, progress)})
    if judges:
        reseeds = reseeds or DEFAULT_RESEEDS
        cases = all_cases() if cases is None else cases
        path = Path(out) / "calibration.json"
        recorded = json.loads(path.read_text()) if keep_other_cases and path.exists() else {}
        old = recorded.get("judges") or {}
        if old and (old["alpha"], old["reseeds"]) != (alpha, reseeds):
            raise ValueError(f"the recorded cases ran at alpha {old['alpha']:g} with {old['reseeds']} reseeds, not "
                             f"{alpha:g} with {reseeds}: run every case")
        at = (recorded.get("measured_at") or {}).get("judges")  # a kept row keeps the code it was measured with
        kept = [{"measured_at": at, **r} for r in old.get("rows", []) if r["case"] not in {c.name for c in cases}]
        tasks = [(c, t, reseeds, alpha) for c in cases for t in c.truths]
        data = merge_section(out, "judges", lambda: {"alpha": alpha, "reseeds": reseeds, "rows": kept + map_tasks(
            measure_case, tasks, jobs, "calibration", progress)})
    return data


def _one_blas_thread() -> None:
    """A worker's initializer: one BLAS thread. Its module's imports load numpy's and scipy's
    BLAS first (under every start method), so that there is a pool to limit."""
    threadpool_limits(1)


def map_tasks(fn, tasks: list, jobs: int, desc: str, progress: bool = True) -> list:
    """[fn(*t) for t in tasks], on ``jobs`` processes (one BLAS thread each) when jobs > 1;
    with ``progress`` a bar, shown only on a terminal."""
    from tqdm import tqdm

    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be an integer >= 1, got {jobs!r}")
    if jobs == 1 or len(tasks) <= 1:
        return [fn(*t) for t in tqdm(tasks, desc=desc, disable=None if progress else True)]
    with ProcessPoolExecutor(min(jobs, len(tasks)), initializer=_one_blas_thread) as pool:
        futures = [pool.submit(fn, *t) for t in tasks]
        return [f.result() for f in tqdm(futures, desc=desc, disable=None if progress else True)]
