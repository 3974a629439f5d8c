"""Generic judges: turn measurements into Evidence with the statistics of
:mod:`theory.stats`. Paper modules supply what to compare; these decide how.
"""
from __future__ import annotations

import math
from typing import Callable, Iterable

import numpy as np

from . import stats
from .evidence import Evidence, Verdict

__all__ = ["mc_alpha", "judge_means", "judge_scaling", "judge_exact", "combine", "band_verdict"]


def mc_alpha(n_subtests: int = 1) -> float:
    """Per-sub-test false-alarm probability for a Monte-Carlo claim of the catalogue."""
    from .catalogue import monte_carlo_count

    return stats.check_alpha(monte_carlo_count(), n_subtests)


def combine(verdicts: Iterable[Verdict], ok: Verdict = Verdict.HOLDS) -> Verdict:
    """fails if any fails; else inconclusive if any is; else ``ok``."""
    vs = list(verdicts)
    if Verdict.FAILS in vs:
        return Verdict.FAILS
    if Verdict.INCONCLUSIVE in vs:
        return Verdict.INCONCLUSIVE
    return ok


def band_verdict(lo: float, hi: float, band_lo: float, band_hi: float) -> Verdict:
    """A confidence interval [lo, hi] against the band a claim allows: holds when the
    interval lies inside, fails when it misses the band, inconclusive otherwise."""
    if lo >= band_lo and hi <= band_hi:
        return Verdict.HOLDS
    if hi < band_lo or lo > band_hi:
        return Verdict.FAILS
    return Verdict.INCONCLUSIVE


def judge_means(rows, sample_fn: Callable, target_fn: Callable, labels: tuple, required: float,
                method: str) -> Evidence:
    """One mean test per row: is E[sample_fn(row)] = target_fn(row)?"""
    alpha = mc_alpha(len(rows))
    tests = [(r, stats.mean_test(sample_fn(r), target_fn(r), alpha, required)) for r in rows]
    details = [t.row(**{k: r[k] for k in labels}) for r, t in tests]
    verdict = combine(t.verdict for _, t in tests)
    zc = stats.z_crit(alpha)
    worst = max(tests, key=lambda rt: abs(rt[1].z))[1]
    failing = [d for d in details if d["verdict"] == "fails"]
    return Evidence(
        verdict=verdict,
        measured={"mean": worst.mean, "se": worst.se, "n": worst.n},
        expected=worst.target,
        margin=zc - abs(worst.z),
        margin_unit=f"standard errors to the rejection line |z| = {zc:.2f} (worst row)",
        method=f"{method}; t-interval per row, alpha = {alpha:.2e} per row (Bonferroni)",
        resolution=f"max relative resolution {max(t.rel_resolution for _, t in tests):.2e} "
                   f"(required {required:.1e}, power {stats.POWER})",
        counterexample=failing[0] if failing else None,
        details=details,
    )


def judge_scaling(rows, value_key: str, target: float, required: float, method: str, error: str = "rms") -> Evidence:
    """Asymptotic claim X_w -> target as width w -> infinity.

    Two parts: (i) an error fitted as A * w^p, whose interval must lie below 0 (the
    error vanishes); (ii) the limit extrapolated from mean(w) = c + a/w must agree with
    ``target``. ``error="rms"``: the RMS of single-network values around ``target``
    (each network converges); ``error="mean"``: |mean(w) - target| (only the average
    over networks converges); the fit is skipped when that is within 2 SE at every width.
    """
    alpha = mc_alpha(2)
    widths, means, ses, rms, rms_se = [], [], [], [], []
    for r in rows:
        x = np.asarray(r[value_key], float)
        widths.append(r["width"])
        means.append(x.mean())
        ses.append(x.std(ddof=1) / math.sqrt(x.size))
        sq = (x - target) ** 2
        rms.append(math.sqrt(sq.mean()))
        rms_se.append(sq.std(ddof=1) / math.sqrt(x.size) / (2 * rms[-1]))
    if error == "rms":
        fit = stats.fit_power_law(widths, rms, rms_se, alpha)
    else:
        err = np.abs(np.asarray(means) - target)
        fit = stats.fit_power_law(widths, err, ses, alpha) if np.all(err > 2 * np.asarray(ses)) else None
    c, c_se = stats.extrapolate_limit(widths, means, ses)
    z = (c - target) / c_se
    res = stats.resolution_factor(alpha) * c_se / abs(target)
    if abs(z) > stats.z_crit(alpha) or (fit is not None and fit.hi >= 0):
        verdict = Verdict.FAILS
    elif res > required:
        verdict = Verdict.INCONCLUSIVE
    else:
        verdict = Verdict.HOLDS_APPROXIMATELY
    details = [{"width": w, "mean": m, "se": s, "rms_error": e} for w, m, s, e in zip(widths, means, ses, rms)]
    return Evidence(
        verdict=verdict,
        measured={"limit": c, "limit_se": c_se, "error": error,
                  "error_exponent": None if fit is None else fit.exponent,
                  "exponent_interval": None if fit is None else [fit.lo, fit.hi]},
        expected=target,
        margin=stats.z_crit(alpha) - abs(z),
        margin_unit="standard errors of the extrapolated limit to the rejection line",
        method=f"{method}; WLS fits over widths {widths}, alpha = {alpha:.2e} per part",
        resolution=f"relative resolution of the limit {res:.2e} (required {required:.1e})",
        details=details,
    )


def judge_exact(checks: list[dict], method: str, resolution: str) -> Evidence:
    """Combine exact sub-checks, each a dict with ``ok`` (bool), ``label``, ``measured``,
    ``expected`` and optionally ``counterexample`` and ``margin_digits``."""
    verdict = Verdict.HOLDS if all(c["ok"] for c in checks) else Verdict.FAILS
    bad = [c for c in checks if not c["ok"]]
    first = bad[0] if bad else checks[0]
    digits = [c["margin_digits"] for c in checks if c.get("margin_digits") is not None]
    return Evidence(
        verdict=verdict,
        measured=first["measured"],
        expected=first["expected"],
        margin=min(digits) if digits else None,
        margin_unit="digits of agreement beyond the tolerance" if digits else "exact",
        method=method,
        resolution=resolution,
        counterexample=first.get("counterexample") if bad else None,
        details=[{k: v for k, v in c.items()} for c in checks],
    )
