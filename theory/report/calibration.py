"""The report's calibration section, from calibration.json (written by :mod:`theory.calibration`):
at most a screen."""
from __future__ import annotations

__all__ = ["render_calibration"]


def _rate(r: dict) -> str:
    lo, hi = r["interval"]
    level = r["level"]
    if r.get("reseeds") is None:  # computed exactly
        return f"{r['rate'] / level:.2f} (exact, worst p = {r['worst_p']:.2f})"
    return f"{r['rate'] / level:.2f} [{lo / level:.2f}, {hi / level:.2f}]"


def _rates(rates: dict) -> list:
    rows = rates["rows"]
    bad = [r for r in rows if not r["met"]]
    out = [f"Every test at level {rates['level']:.0e}, the smallest level of a test inside a claim (claim alpha "
           f"{rates['claim_alpha']:g} split over up to 100 looks, rows and parts; half of it in each tail), on a true "
           "null: the false-alarm rate of both tails together as a multiple of the level, with its exact 95% interval "
           f"({rates['reseeds']:.0e} samples per row; the binomial rows computed exactly). Mean tests and "
           f"limits decide from {rates['min_replicates']} replicates per sample or point, other fits from "
           f"{rates['min_point_replicates']}. A row meets the claim's alpha when its rate is at most "
           f"{rates['guard']:g} times the level (the tests run at alpha / {rates['guard']:g}): "
           f"{len(rows) - len(bad)} of {len(rows)} rows meet it.", "",
           "| test | law (skewness) | replicates | rate / level [95%] | meets alpha |", "|---|---|---|---|---|"]
    for r in rows:
        law = r["law"] + (f" ({r['skewness']:.2f})" if r.get("skewness") is not None else "")
        out.append(f"| {r['test']} | {law} | {r['n']} | {_rate(r)} | {'yes' if r['met'] else '**no**'} |")
    return out + [""]


def _judges(j: dict) -> list:
    rows = j["rows"]
    bad = [r for r in rows if not r["consistent"]]
    out = [f"Every judge on synthetic data with known truth, through the sequential runner at claim alpha "
           f"{j['alpha']:g} ({j['reseeds']} reseeds per row, a level where rates are measurable; the rows are in "
           f"calibration.json): **{len(rows) - len(bad)} of {len(rows)}** rows are consistent with what is promised "
           "(false alarms and false confirmations at most alpha, power at least 0.9 at the resolution)"
           + (": not " + "; ".join(f"{r['case']} {r['truth']} ({r['rate']:.3f}, {r['expect']})" for r in bad)
              if bad else "") + "."]
    kept = sorted({(r["case"], (r["measured_at"] or {}).get("commit") or "unknown")
                   for r in rows if "measured_at" in r})
    if kept:
        out[-1] += " Kept from earlier runs: " + ", ".join(f"{case} at `{commit[:7]}`" for case, commit in kept) + "."
    off = [r for r in rows if r["truth"].startswith("inside_off_centre")]
    if off:
        out += ["", "A truth inside the band but off centre (more data must never turn it false):", "",
                "| case | budget | false fails [95%] | holds | inconclusive |", "|---|---|---|---|---|"]
        for r in off:
            c, n = r["counts"], r["reseeds"]
            out.append(f"| {r['case']} | {r['truth'].rpartition('_')[2]} | {r['rate']:.3f} [{r['interval'][0]:.3f}, "
                       f"{r['interval'][1]:.3f}] | {(c['holds'] + c['holds_approximately']) / n:.3f} | "
                       f"{c['inconclusive'] / n:.3f} |")
    return out + [""]


def render_calibration(data: dict) -> list:
    """The calibration section: the tests' rates and the judges' cases, each with the
    commit it was measured at."""
    out = ["## Calibration", ""]
    measured = data.get("measured_at") or {}
    if measured:
        out += ["Measured at: " + "; ".join(f"{k} at `{(v.get('commit') or 'unknown')[:7]}`"
                                            + (" (uncommitted changes)" if v.get("dirty") else "")
                                            for k, v in sorted(measured.items())) + ".", ""]
    for key, part in (("rates", _rates), ("judges", _judges)):
        if data.get(key):
            out += part(data[key])
    if not any(data.get(k) for k in ("rates", "judges")):
        out += ["Not measured yet: run `python -m theory calibrate`.", ""]
    return out
