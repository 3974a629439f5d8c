"""Generic judges: turn measurements into Evidence with the statistics of
:mod:`theory.stats`. Paper modules say what to compare; these decide how.

Every judge receives the :class:`~theory.core.context.JudgeContext` of the look and
splits its alpha over its rows (Bonferroni); none reads global state.

- :func:`judge_means` - E[X] = target per row (identities in expectation);
- :func:`judge_bounds` - E[X] <= bound (or >=) per row, with rows where the bound
  cannot bite marked uninformative; no informative row, no ``holds``;
- :func:`judge_exponent` - a fitted exponent equals a stated one (equivalence band);
- :func:`judge_limit` - X_w -> target as width w -> infinity, from the limit of the
  fitted mean(w) = c + a/w and, per network, the power-law decay of the RMS error;
- :func:`judge_comparison` - E[a] > E[b] (or <) per row, Welch intervals;
- :func:`judge_exact` - deterministic sub-checks (exact arithmetic, high precision);
  :func:`exact_constant` reads a statement's constant for them without rounding it.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np
import sympy as sp

from simulations.core import check_choice

from . import stats
from .core.evidence import Evidence, bound_tightness
from .core.verdicts import Verdict, band_verdict, combine

__all__ = ["judge_means", "judge_bounds", "judge_exponent", "judge_limit", "judge_comparison",
           "judge_median_comparison", "judge_exact",
           "exact_constant", "agree", "exponent_verdict", "failing_parts", "tightest", "bound_tightness", "mean_se",
           "largest_shortfall", "undecided_shortfall", "one_sided_shortfall"]

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE


def mean_se(x) -> tuple[float, float]:
    """Mean and standard error of iid replicates."""
    e = stats.estimate(x)
    return e.mean, e.se


def failing_parts(parts: dict) -> str:
    """The names of the failing ``parts`` (name -> a bool, False failing, or a
    :class:`Verdict`, fails failing), in order, joined by "; ": the ``part`` a check that
    failed through several of them names ("" when none failed).

    >>> failing_parts({"limit": Verdict.FAILS, "rms_decay": Verdict.HOLDS, "Eq. 2": False, "Eq. 3": True})
    'limit; Eq. 2'
    """
    bad = {k: v for k, v in parts.items() if not isinstance(v, (bool, np.bool_, Verdict))}
    if bad:
        raise TypeError(f"parts must map names to a bool or a Verdict, got {bad!r}")
    return "; ".join(k for k, v in parts.items() if (v == F if isinstance(v, Verdict) else not v))


def _labels(row, labels) -> dict:
    return {k: row.labels[k] if hasattr(row, "labels") else row[k] for k in labels}


def largest_shortfall(half_widths_over_needed) -> float | None:
    """The largest per-row shortfall (inf when a row's estimate lies where no sample size
    decides it: the runner then says so instead of suggesting a scale)."""
    vals = list(half_widths_over_needed)
    return max(vals) if vals else None


def undecided_shortfall(parts, verdict: Verdict) -> float | None:
    """The shortfall of a verdict combined from ``parts`` (anything with ``verdict`` and
    ``shortfall``: Evidence, TestResult): the largest of its inconclusive parts' when the
    combined ``verdict`` is inconclusive, else None; None too where an inconclusive part
    gives none (no scale can then be suggested)."""
    if verdict != INC:
        return None
    values = [p.shortfall for p in parts if p.verdict == INC]
    return None if any(v is None for v in values) else largest_shortfall(values)


def one_sided_shortfall(rows: Sequence[dict], key: str, verdict: Verdict) -> float | None:
    """The shortfall of per-row one-sided tests of E[``key``] against 0 (rows with
    ``one_sided_limits`` and ``verdict``): the largest of the undecided rows'
    (:func:`theory.stats.shortfall`, kind "bound") when ``verdict`` is inconclusive."""
    if verdict != INC:
        return None
    return largest_shortfall(stats.shortfall(d[key], d["one_sided_limits"], 0.0, kind="bound") for d in rows
                             if d["verdict"] == INC.value)


def judge_means(rows: Sequence, sample: Callable, target: Callable, labels: tuple, tol: float, method: str, ctx,
                relative: bool = True, within: bool = False) -> Evidence:
    """One test per row: is E[sample(row)] = target(row)? Fails when a row's two-sided
    t-test rejects; holds when every row's interval lies within target +- tol (relative
    to |target| unless ``relative`` is False). With ``within`` the statement itself
    allows the band (|E - target| <= tol, :func:`theory.stats.mean_within`): a row fails
    only when its interval misses the band."""
    alpha = ctx.split(len(rows))
    test = stats.mean_within if within else stats.mean_equals
    tests = [(r, test(sample(r), target(r), alpha, tol, relative)) for r in rows]
    details = [t.row(**_labels(r, labels)) for r, t in tests]
    verdict = combine(t.verdict for _, t in tests)
    def off(t):  # standard errors from the rejection reference: the target, or with ``within`` the band edge
        edge = (t.band[1] - t.band[0]) / 2 if within else 0.0
        return (abs(t.estimate - t.target) - edge) / t.se if t.se else 0.0

    worst = max(tests, key=lambda rt: off(rt[1]))[1]
    crit = stats.t_quantile(alpha / 2, worst.df)
    z = off(worst)
    failing = [d for d in details if d["verdict"] == "fails"]
    rel = max(t.resolution / (abs(t.target) or 1) for _, t in tests)  # relative to the target; absolute at 0
    return Evidence(
        verdict=verdict,
        measured={"mean": worst.estimate, "se": worst.se, "n": worst.n, "interval": list(worst.interval)},
        expected=worst.target,
        margin=crit - z,
        margin_unit=f"standard errors to the rejection line |t| = {crit:.2f}"
                    f"{' beyond the band edge' if within else ''} (worst row)",
        method=f"{method}; Student-t {'interval against the band' if within else 'test and interval'} per row, "
               f"alpha = {alpha:.2e} per row (Bonferroni)",
        resolution=f"largest relative resolution {rel:.2e} at power "
                   f"{stats.POWER}; tolerance +-{tol:g}{' (relative)' if relative else ''}",
        counterexample=failing[0] if failing else None,
        details=details,
        shortfall=undecided_shortfall([t for _, t in tests], verdict),
        plot={"kind": "means", "rows": [{"label": ", ".join(f"{k}={d[k]}" for k in labels), "mean": d["mean"],
                                         "interval": d["interval"], "target": d["target"], "band": d["band"]}
                                        for d in details]},
    )


def judge_bounds(rows: Sequence, sample: Callable, bound: Callable, labels: tuple, method: str, ctx,
                 claim: str = "<=", attainable: Callable | None = None, what: str = "E[X]",
                 can_fail: bool = True) -> Evidence:
    """One one-sided test per row of E[sample(row)] <claim> bound(row). A row is
    informative only if the bound is below the largest value the quantity can take
    (``attainable(row)``; for ``>=`` claims, above the smallest); uninformative rows are
    reported but cannot make the claim hold, and a claim with no informative row is
    inconclusive. The evidence's ``tightness`` compares the bound with the one-sided
    confidence limit of the worst informative row (:func:`tightest`). With ``can_fail``
    False the sample only bounds the quantity of the statement from one side (e.g. an
    upper bound on it for a ``<=`` claim): a row whose test rejects is no evidence
    against the statement and is inconclusive, flagged ``rejected_but_cannot_fail``."""
    alpha = ctx.split(len(rows))
    details, verdicts = [], []
    for r in rows:
        b = float(bound(r))
        t = (stats.mean_at_most(sample(r), b, alpha) if claim.startswith("<")
             else stats.mean_at_least(sample(r), b, alpha))
        lim = None if attainable is None else float(attainable(r))
        informative = lim is None or (b < lim if claim.startswith("<") else b > lim)
        v = t.verdict if (informative or t.verdict == F) else INC
        blocked = v == F and not can_fail
        v = INC if blocked else v
        verdicts.append((v, informative))
        details.append({**t.row(**_labels(r, labels)), "bound": b, "attainable": lim, "informative": informative,
                        "margin_se": ((b - t.estimate) if claim.startswith("<") else (t.estimate - b)) / t.se
                        if t.se else math.inf, "verdict": v.value, **({"rejected_but_cannot_fail": True}
                                                                      if blocked else {})})
    informative = [d for d in details if d["informative"]]
    tight = tightest(bound_tightness(d["interval"][1] if claim.startswith("<") else d["interval"][0], d["bound"],
                                     claim, _labels(d, labels)) for d in informative)
    vs = [v for v, inf in verdicts if inf or v == F]
    verdict = combine(vs) if informative else (F if any(v == F for v, _ in verdicts) else INC)
    pool = informative or details
    worst = min(pool, key=lambda d: d["margin_se"])
    crit = stats.t_quantile(alpha / 2, worst["df"])  # a one-sided test puts alpha/2 in its tail (stats.means)
    bad = [d for d in details if d["verdict"] == "fails"]
    return Evidence(
        verdict=verdict,
        measured={k: worst[k] for k in (*labels, "mean", "se", "replicates")},
        expected=f"{what} {claim} {worst['bound']:.6g}",
        margin=worst["margin_se"] - crit,
        margin_unit=f"standard errors beyond the one-sided line t = {crit:.2f} (worst informative row)",
        method=f"{method}; one-sided Student-t per row, alpha = {alpha:.2e} per row (Bonferroni)",
        resolution=f"{len(informative)} of {len(details)} rows informative (bound "
                   f"{'below the largest' if claim.startswith('<') else 'above the smallest'} attainable value)",
        counterexample=bad[0] if bad else None,
        details=details,
        informative=bool(informative),
        settle=None if informative or verdict == F else "no row where the bound can bite: add settings where it does",
        tightness=tight,
        plot={"kind": "bounds", "claim": claim,
              "rows": [{"label": ", ".join(f"{k}={d[k]}" for k in labels), "mean": d["mean"], "interval": d["interval"],
                        "bound": d["bound"], "attainable": d["attainable"], "informative": d["informative"]}
                       for d in details]},
    )


def tightest(tightnesses) -> dict | None:
    """The tightest of several :func:`~theory.core.evidence.bound_tightness` records (the
    smallest factor; by the smallest gap where no factor is defined): the worst row of a
    bound claim. None for none.

    >>> tightest([bound_tightness(0.5, 1.0, "<=", {"n": 1}), bound_tightness(0.8, 1.0, "<=", {"n": 2})])["row"]
    {'n': 2}
    """
    ts = list(tightnesses)
    if not ts:
        return None
    with_factor = [t for t in ts if t["factor"] is not None]
    return min(with_factor, key=lambda t: t["factor"]) if with_factor else min(ts, key=lambda t: t["gap"])


def exponent_verdict(lo: float, hi: float, claimed: float, tol: float, ok: Verdict = H) -> Verdict:
    """A fitted exponent's interval [lo, hi] against the claimed exponent: ``ok`` when it
    lies within claimed +- tol, fails when it lies outside that band, inconclusive
    otherwise. A fitted exponent is an asymptotic statement judged at finite size, so
    the band is the statement: an exponent of -0.988 against "-1 +- 0.05" can never
    fail, however much data come in (a point null at -1 would reject it once the
    interval is narrower than 0.012). With ``tol`` = 0 the claim is exact: it fails when
    the interval excludes ``claimed`` and never holds.

    >>> [exponent_verdict(lo, hi, -1.0, 0.05).value for lo, hi in ((-1.02, -0.98), (-0.990, -0.986), (-1.2, -1.1))]
    ['holds', 'holds', 'fails']
    >>> exponent_verdict(-1.04, -0.93, -1.0, 0.05).value, exponent_verdict(-0.99, -0.98, -1.0, 0.0).value
    ('inconclusive', 'fails')
    """
    return band_verdict(lo, hi, claimed - tol, claimed + tol, ok)


def judge_exponent(fits: Sequence[tuple[dict, stats.Fit]], index: int, claimed: float, tol: float, method: str,
                   ctx, ok: Verdict = H, what: str = "exponent", plot: dict | None = None) -> Evidence:
    """Per fit (labels, Fit): coefficient ``index`` equals ``claimed`` within +-tol
    (:func:`exponent_verdict`: fails only when the interval lies outside the band)."""
    alpha = ctx.split(len(fits))
    details, verdicts, shortfalls = [], [], []
    for labels, fit in fits:
        lo, hi = fit.interval(index, alpha)
        v = exponent_verdict(lo, hi, claimed, tol, ok)
        verdicts.append(v)
        if v == INC:
            est = float(fit.coef[index])
            shortfalls.append(stats.shortfall(est, (lo, hi), claimed, (claimed - tol, claimed + tol)))
        details.append({**labels, what: float(fit.coef[index]), "interval": [lo, hi], "claimed": claimed,
                        **{k: v2 for k, v2 in fit.summary(index, alpha).items() if k not in ("estimate", "interval")},
                        "verdict": v.value})
    verdict = combine(verdicts, ok)
    worst = max(details, key=lambda d: max(abs(d["interval"][0] - claimed), abs(d["interval"][1] - claimed)))
    return Evidence(
        verdict=verdict, measured={what: worst[what], "interval": worst["interval"]}, expected=claimed,
        margin=min(tol - max(claimed - d["interval"][0], d["interval"][1] - claimed) for d in details),
        margin_unit=f"{what} units from the interval to the nearer edge of the band claimed +-{tol:g} "
                    "(negative: the interval reaches past the band)",
        method=f"{method}; weighted least squares, interval at alpha = {alpha:.2e} per fit",
        resolution=f"largest interval half-width {max((d['interval'][1] - d['interval'][0]) / 2 for d in details):.3g} "
                   f"(tolerance +-{tol:g})",
        counterexample=next((d for d in details if d["verdict"] == "fails"), None), details=details,
        shortfall=largest_shortfall(shortfalls) if verdict == INC else None, plot=plot)


def judge_limit(rows: Sequence, value: str, target: float, tol: float, method: str, ctx,
                error: str = "rms", width: str = "width", order: float = 1.0,
                rms_direction: str = "<") -> Evidence:
    """Asymptotic claim X_w -> target as the width w grows.

    Two parts, alpha split between them: (i) the limit c of the fitted
    mean(w) = c + a w^(-order) (one weighted least-squares helper, residual degrees of
    freedom when the model does not fit); (ii) with ``error="rms"`` (each network
    converges), the RMS error of single networks around ``target`` fitted as A w^p.
    The limit is judged against the band target +- tol*|target|, the statement's
    resolution at the widths simulated (finite-size terms the model leaves out, such as
    a w^-2 term, bias the extrapolation by less than the band): it fails only when its
    interval lies outside the band, so more data never turn a true limit false; with
    ``tol`` = 0 it is a point null. The claim fails when the limit fails or the RMS
    exponent is shown >= 0 (no decay); holds approximately when the limit's interval
    lies within the band and (for rms) the exponent's interval lies below 0;
    inconclusive otherwise; a failing verdict's counterexample names the failing parts
    (``part``: "limit", "rms_decay" or "limit; rms_decay", :func:`failing_parts`). ``error="mean"`` claims
    only the average converges.
    ``rms_direction`` is the stated sign of the RMS exponent p: ``"<"`` (p < 0, each
    network concentrates at ``target``; as stated) or ``">"`` (p > 0, single networks
    do not concentrate; fails when the exponent's interval lies at or below 0); it is
    not used with ``error="mean"``, which has no RMS part.
    """
    check_choice("rms_direction", rms_direction, ("<", ">"))
    alpha = ctx.split(2 if error == "rms" else 1)
    widths, means, ses, rms, rms_se, dfs = [], [], [], [], [], []
    for r in rows:
        x = np.asarray(r[value], float)
        e = stats.estimate(x)
        widths.append(float(r.labels[width] if hasattr(r, "labels") else r[width]))
        means.append(e.mean)
        ses.append(e.se)
        dfs.append(e.df)
        sq = (x - target) ** 2
        rms.append(math.sqrt(sq.mean()))
        rms_se.append(sq.std(ddof=1) / math.sqrt(x.size) / (2 * rms[-1]) if rms[-1] > 0 else math.inf)
    point_df = min(dfs)
    fit = stats.limit(widths, means, ses, order, point_df)
    c_lo, c_hi = fit.interval(0, alpha)
    c = float(fit.coef[0])
    band = (target - tol * abs(target), target + tol * abs(target))
    parts = {"limit": band_verdict(c_lo, c_hi, *band, HA)}
    efit = None
    if error == "rms":
        efit = stats.power_law(widths, rms, rms_se, point_df)
        e_lo, e_hi = efit.interval(1, alpha)
        parts["rms_decay"] = stats.inequality_verdict(e_lo, e_hi, 0.0, rms_direction, ok=HA)
    verdict = combine(parts.values(), HA)
    # Evidence hides it unless the combined verdict is inconclusive
    shortfall = stats.shortfall(c, (c_lo, c_hi), target, band) if parts["limit"] == INC else None
    details = [{"width": w, "mean": m, "se": s, "rms_error": e} for w, m, s, e in zip(widths, means, ses, rms)]
    measured = {"limit": c, "limit_interval": [c_lo, c_hi], **fit.summary(0, alpha)}
    measured.pop("estimate"), measured.pop("interval")
    if efit is not None:
        measured.update({"rms_exponent": float(efit.coef[1]), "rms_exponent_interval": list(efit.interval(1, alpha))})
    return Evidence(
        verdict=verdict, measured=measured, expected=target,
        margin=min(c_lo - band[0], band[1] - c_hi),
        margin_unit="distance from the limit's interval to the nearer band edge "
                    "(negative: the interval reaches past it)",
        method=f"{method}; limit of mean(w) = c + a w^-{order:g} by weighted least squares over widths "
               f"{[int(w) for w in widths]}"
               + ("; RMS error of single networks fitted as A w^p" if error == "rms" else "")
               + ("; stated p > 0 (single networks do not concentrate)" if error == "rms" and rms_direction == ">"
                  else "")
               + f"; alpha = {alpha:.2e} per part",
        resolution=f"limit interval half-width {(c_hi - c_lo) / 2:.3g} (tolerance +-{tol * abs(target):.3g}); parts: "
                   + ", ".join(f"{k} {v.value}" for k, v in parts.items()),
        counterexample={"part": failing_parts(parts), **measured} if verdict == F else None,
        details=details, shortfall=shortfall,
        plot={"kind": "limit", "widths": widths, "means": means, "ses": ses, "target": target, "band": list(band),
              "limit": c, "limit_interval": [c_lo, c_hi], "slope": float(fit.coef[1]), "order": order,
              "rms": rms if error == "rms" else None,
              "rms_exponent": None if efit is None else float(efit.coef[1])},
    )


def judge_comparison(pairs: Sequence[tuple[dict, object, object]], claim: str, method: str, ctx,
                     what: str = "difference") -> Evidence:
    """Per (labels, a, b): E[a] - E[b] <claim> 0 (``>`` or ``<``), Welch intervals.
    Holds when the one-sided limits show it, fails when they show the opposite; an
    inconclusive verdict carries the largest shortfall of its undecided rows."""
    alpha = ctx.split(len(pairs))
    details, verdicts = [], []
    for labels, a, b in pairs:
        d = stats.difference(a, b)
        lo, hi = d.interval(alpha)
        v = stats.inequality_verdict(lo, hi, 0.0, claim)
        verdicts.append(v)
        details.append({**labels, what: d.mean, "se": d.se, "welch_df": d.df, "one_sided_limits": [lo, hi],
                        "verdict": v.value})
    verdict = combine(verdicts)
    worst = min(details, key=lambda r: (r[what] if claim == ">" else -r[what]) / r["se"] if r["se"] else math.inf)
    return Evidence(
        verdict=verdict, measured={k: worst[k] for k in worst if k != "verdict"}, expected=f"{what} {claim} 0",
        margin=((worst[what] if claim == ">" else -worst[what]) / worst["se"]
                - stats.t_quantile(alpha / 2, worst["welch_df"]) if worst["se"] else None),
        margin_unit="standard errors beyond the one-sided line (weakest row)",
        method=f"{method}; Welch intervals (Welch-Satterthwaite degrees of freedom), alpha = {alpha:.2e} per row",
        resolution="smallest detectable difference "
                   f"{max(stats.detectable_deviation(d['se'], d['welch_df'], alpha) for d in details):.3g}",
        counterexample=next((d for d in details if d["verdict"] == "fails"), None), details=details,
        shortfall=one_sided_shortfall(details, what, verdict))


def judge_median_comparison(pairs: Sequence[tuple[dict, object, object]], claim: str, method: str, ctx,
                            what: str = "median_difference") -> Evidence:
    """Per (labels, a, b): median(a) - median(b) <claim> 0 (``>`` or ``<``), by the
    distribution-free order-statistic interval of :func:`theory.stats.median_difference`
    (its level holds for any two laws at any sample size, so no calibrated minimum of
    replicates applies). Each row's two-sided interval at its share of alpha puts half of
    it in each tail, as every one-sided test here (docs/statistics.md). Holds when the
    interval lies on the claimed side of 0, fails when it lies on the other; the margin is
    the distance from the nearer end to 0."""
    alpha = ctx.split(len(pairs))
    details, verdicts = [], []
    for labels, a, b in pairs:
        r = stats.median_difference(a, b, alpha)
        v = stats.inequality_verdict(r.lo, r.hi, 0.0, claim)
        verdicts.append(v)
        details.append({**labels, what: r.estimate, "one_sided_limits": [r.lo, r.hi], "samples": [r.m, r.n],
                        "order_statistics": list(r.k), "coverage": r.coverage, "verdict": v.value})
    verdict = combine(verdicts)

    def room(d):  # distance from the interval's end on the claimed side to 0 (negative: not shown)
        return d["one_sided_limits"][0] if claim == ">" else -d["one_sided_limits"][1]

    worst = min(details, key=room)
    return Evidence(
        verdict=verdict, measured={k: worst[k] for k in worst if k != "verdict"}, expected=f"{what} {claim} 0",
        margin=room(worst) if math.isfinite(room(worst)) else None,
        margin_unit=f"from the weakest row's interval end to 0, in the units of the {what}",
        method=f"{method}; distribution-free order-statistic intervals of the two medians, alpha = {alpha:.2e} per "
               "row",
        resolution="interval half-width up to "
                   f"{max((d['one_sided_limits'][1] - d['one_sided_limits'][0]) / 2 for d in details):.3g}",
        counterexample=next((d for d in details if d["verdict"] == "fails"), None), details=details,
        shortfall=one_sided_shortfall(details, what, verdict))


def judge_exact(checks: list, method: str, resolution: str) -> Evidence:
    """Combine deterministic sub-checks, each a dict with ``ok`` (bool), ``label``,
    ``measured``, ``expected`` and optionally ``counterexample``, ``margin_digits`` and
    ``informative`` (False when the sub-check could not have failed), ``part`` (the part
    of the statement it checks; its label when absent). A sub-check that checks several
    parts at once gives ``parts`` (part -> bool) instead of ``ok`` and ``part``: it is ok
    when all are, and a failing one's part names those that failed
    (:func:`failing_parts`). A failing verdict shows the first failing sub-check's
    ``counterexample``, naming that sub-check's part unless it names one itself, or else
    that sub-check (its part, what it measured and what the statement expects).

    >>> ev = judge_exact([{"label": "Eq. 1", "ok": True, "measured": 0, "expected": 0},
    ...                   {"label": "Eq. 2 at n = 3", "part": "Eq. 2", "ok": False, "measured": 1, "expected": 0,
    ...                    "counterexample": {"n": 3}}], "sympy", "exact")
    >>> ev.verdict.value, ev.counterexample
    ('fails', {'part': 'Eq. 2', 'n': 3})
    >>> ev = judge_exact([{"label": "n = 2", "parts": {"Eq. 19": True, "Eq. 21": False}, "measured": 1,
    ...                    "expected": 0}], "mpmath", "1e-25")
    >>> ev.counterexample["part"], ev.failed_parts()
    ('Eq. 21', ['Eq. 21', 'n = 2'])
    """
    checks = [_with_parts(c) for c in checks]
    verdict = H if all(c["ok"] for c in checks) else F
    bad = [c for c in checks if not c["ok"]]
    first = bad[0] if bad else checks[0]
    digits = [c["margin_digits"] for c in checks if c.get("margin_digits") is not None]
    informative = [c.get("informative", True) for c in checks]
    if verdict == H and not any(informative):
        verdict = INC
    ev = Evidence(
        verdict=verdict, measured=first["measured"], expected=first["expected"], method=method, resolution=resolution,
        margin=min(digits) if digits else None,
        margin_unit="digits of agreement beyond the tolerance" if digits else "exact",
        counterexample=(first.get("counterexample") or {"measured": first["measured"], "expected": first["expected"]})
        if bad else None,
        details=checks, informative=any(informative),
        settle=None if any(informative) else "no sub-check could have failed: add settings where it can")
    ev.name_part(first.get("part", first["label"]))
    return ev


def _with_parts(check: dict) -> dict:
    """A copy of a sub-check of :func:`judge_exact`, its ``ok`` and ``part`` filled from
    ``parts`` where it gives them."""
    if "parts" not in check:
        return dict(check)
    if "ok" in check or "part" in check or not check["parts"]:
        raise ValueError(f"a sub-check gives either ok (and part) or a non-empty dict of parts, got {check!r}")
    if not all(isinstance(v, (bool, np.bool_)) for v in check["parts"].values()):
        raise TypeError(f"a sub-check's parts map names to bools (an exact check is decided), got {check['parts']!r}")
    failed = failing_parts(check["parts"])
    return {**check, "ok": not failed, **({"part": failed} if failed else {})}


def agree(a, b, dps: int) -> bool:
    """Whether two high-precision values agree to the tolerance of a check run at ``dps``
    digits: |a - b| <= 10^-(dps - 5) max(1, |b|), evaluated at dps + 10 digits (absolute
    below 1, relative above). The one agreement test of the exact checks' two precisions.

    >>> import mpmath
    >>> agree(mpmath.mpf(2), mpmath.mpf(2) + mpmath.mpf(10) ** -46, 50), agree(mpmath.mpf(2), 2.001, 50)
    (True, False)
    """
    import mpmath

    with mpmath.workdps(dps + 10):
        return bool(abs(a - b) <= mpmath.mpf(10) ** (5 - dps) * max(1, abs(b)))


_SIMPLE_OPS = 6  # 3*sqrt(2)/7 has 4 operations; nsimplify(0.1234567891234) has 12


def exact_constant(value) -> sp.Expr:
    """A statement's constant (a judge parameter) as an exact sympy number. Text and
    exact sympy values are read exactly, and so is a sympy Float beyond double precision
    (its decimal digits); a float (a double-precision sympy Float included) becomes the
    simple number it rounds (2/3 for 0.6666666666666666, sqrt(2)/2 for
    0.7071067811865476: a rational with a denominator up to 10^6, or an irrational of at
    most ``_SIMPLE_OPS`` operations) only when that number is within 1e-14 relative of it,
    else its exact decimal, so a mutation near a simple value is not snapped onto it
    (``sp.nsimplify`` alone turns 0.5 + 1e-12 into 1/2).

    >>> exact_constant(2 / 3), exact_constant(0.5 + 1e-12), exact_constant("1 + 10**-40") - 1
    (2/3, 500000000001/1000000000000, 1/10000000000000000000000000000000000000000)
    >>> exact_constant(1e-300) == 0, exact_constant(3.141592653589793)
    (False, 3141592653589793/1000000000000000)
    >>> exact_constant(0.1234567891234)  # nsimplify: a product of four powers of primes
    617283945617/5000000000000
    >>> exact_constant(sp.Float("1.0000000000000000000000000000000000000001", 60)) - 1  # not rounded to a double
    1/10000000000000000000000000000000000000000
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"a constant must be a number or text, not a bool: {value!r}")
    if isinstance(value, str):
        return sp.sympify(value, rational=True)
    if isinstance(value, sp.Basic) and not isinstance(value, sp.Float):
        return value
    if isinstance(value, sp.Float) and value._prec > 53:  # beyond a double: its own decimal digits, exactly
        return sp.Rational(str(value))
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"a constant must be finite, got {x}")
    if x == 0:
        return sp.Integer(0)
    simple = sp.nsimplify(x)
    plain = simple.q <= 10**6 if simple.is_Rational else sp.count_ops(simple) <= _SIMPLE_OPS
    if simple.is_number and plain and abs(float(simple) - x) <= 1e-14 * abs(x):
        return simple
    return sp.Rational(repr(x))
