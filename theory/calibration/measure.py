"""Run the calibration cases and the seed-stability check; write calibration.json.

The false-alarm rate of a claim is promised at the claim's alpha; here it is
measured: each case is evaluated over many reseeds at a calibration alpha where rates
are measurable (0.05 by default), through the same sequential runner as the catalogue,
and the rates come with exact (Clopper-Pearson) 95% intervals.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from ..core import RunContext, Verdict, clear_caches, evaluate
from ..stats import POWER, binomial_interval
from .cases import all_cases

__all__ = ["CALIBRATION_ALPHA", "DEFAULT_RESEEDS", "measure_case", "run_calibration", "run_counts_calibration",
           "run_welch_calibration", "run_deep_calibration", "expectation", "record_code"]

#: The claim alpha the cases run at (rates of 0.05 are measurable with 1,000 reseeds).
CALIBRATION_ALPHA = 0.05
DEFAULT_RESEEDS = 1000


def expectation(truth: str, alpha: float) -> tuple[str, str, float, str]:
    """(verdict whose rate is checked, 'at most'/'at least', level, meaning) for a truth."""
    return {"true": ("fails", "at most", alpha, "false alarm"),
            "rms_boundary": ("fails", "at most", alpha, "false alarm at the boundary"),
            "rms_flat": ("holds", "at most", alpha, "false confirmation at the boundary"),
            "underpowered": ("fails", "at most", alpha, "false alarm"),
            "false_1x": ("fails", "at least", POWER, "power at the resolution"),
            "false_3x": ("fails", "at least", POWER, "power at 3x the resolution"),
            "outside_band": ("holds", "at most", alpha, "false confirmation"),
            "inside_1x": ("holds", "at least", POWER, "power to confirm at the resolution"),
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
    lo, hi = binomial_interval(k, reseeds, 0.05)
    ok = (lo <= level) if direction == "at most" else (hi >= level)
    return {"case": case.name, "judge": case.judge, "truth": truth, "reseeds": reseeds, "alpha": alpha,
            "counts": counts, "checked": checked, "rate": k / reseeds, "interval": [lo, hi],
            "expect": f"{direction} {level:g}", "meaning": meaning, "consistent": bool(ok),
            "mean_looks": looks / reseeds, "seconds": round(time.perf_counter() - t0, 1)}


def record_code(data: dict, *sections: str, start: dict | None = None) -> None:
    """Record under ``measured_at`` the code each section was measured with: the commit
    and whether tracked files differed from it (:func:`simulations.core.provenance.git_state`);
    with ``start`` (the state when the run began), the starting commit, dirty if the code
    changed during the run (:func:`simulations.core.provenance.state_since`)."""
    from simulations.core.provenance import state_since

    state = state_since(start)
    data.setdefault("measured_at", {}).update({s: state for s in sections})


def run_calibration(out: str | Path = ".", reseeds: int | None = None, alpha: float = CALIBRATION_ALPHA,
                    cases=None, progress: bool = True, tails: bool = True, jobs: int = 1) -> dict:
    """Measure every case under every truth (and the tail rates of the mean test) on
    ``jobs`` processes; merge into ``out``/calibration.json."""
    from simulations.core.provenance import git_state

    from .pool import map_tasks
    from .tails import run_tails
    from .tails_is import run_tails_is
    from .tails_deep import run_tails_deep
    from .tails_welch import run_tails_welch

    start = git_state()
    reseeds = reseeds or DEFAULT_RESEEDS
    tasks = [(c, t, reseeds, alpha) for c in (all_cases() if cases is None else cases) for t in c.truths]
    rows = map_tasks(measure_case, tasks, jobs, "calibration", progress)
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / "calibration.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data["judges"] = {"alpha": alpha, "reseeds": reseeds, "rows": rows}
    record_code(data, "judges", start=start)
    if tails:
        data["tails"] = run_tails(progress=progress, jobs=jobs)
        data["tails_is"] = run_tails_is(progress=progress, jobs=jobs)
        data["tails_welch"] = run_tails_welch(progress=progress, jobs=jobs)
        data["tails_deep"] = run_tails_deep(progress=progress, jobs=jobs)
        record_code(data, "tails", "tails_is", "tails_welch", "tails_deep", start=start)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data


def _run_section(out, section: str, run) -> dict:
    """``run()`` merged into ``out``/calibration.json under ``section``, every other
    section kept, the code recorded."""
    from simulations.core.provenance import git_state

    start = git_state()
    Path(out).mkdir(parents=True, exist_ok=True)
    path = Path(out) / "calibration.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[section] = run()
    record_code(data, section, start=start)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data


def run_counts_calibration(out: str | Path = ".", progress: bool = True, jobs: int = 1) -> dict:
    """Measure only the direct tail counts of the mean tests (:func:`.tails.run_tails`);
    merge them into ``out``/calibration.json, keeping every other section."""
    from .tails import run_tails

    return _run_section(out, "tails", lambda: run_tails(progress=progress, jobs=jobs))


def run_welch_calibration(out: str | Path = ".", progress: bool = True, jobs: int = 1) -> dict:
    """Measure only the Welch comparison's far-tail rates (:mod:`.tails_welch`); merge
    them into ``out``/calibration.json, keeping every other section."""
    from .tails_welch import run_tails_welch

    return _run_section(out, "tails_welch", lambda: run_tails_welch(progress=progress, jobs=jobs))


def run_deep_calibration(out: str | Path = ".", progress: bool = True, jobs: int = 1) -> dict:
    """Measure only the rates below the level of the tests inside a claim
    (:mod:`.tails_deep`); merge them into ``out``/calibration.json."""
    from .tails_deep import run_tails_deep

    return _run_section(out, "tails_deep", lambda: run_tails_deep(progress=progress, jobs=jobs))
