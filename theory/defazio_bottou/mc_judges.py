"""Judges of the Monte-Carlo claims of Defazio & Bottou on random MLPs (Theorem 1,
Sec. 2's mini-batch remark). Each applies the claimed constants (``params``) to a
:class:`~theory.core.records.Samples` record of :mod:`.montecarlo`, with the alpha
of the look in ``ctx``.

The rows of one network's layers are dependent: every judge here tests each layer
as its own row (or its own fit) with the look's alpha split over them, and the
replicate is always the network.
"""
from __future__ import annotations

import math

import numpy as np

from simulations.core import check_choice

from .. import stats
from ..core import Evidence, JudgeContext, Verdict, combine
from ..judges import failing_parts, judge_limit, judge_means, largest_shortfall, tightest

__all__ = ["THM1_REQUIRED", "MINIBATCH_REQUIRED", "SPREADS", "per_group", "limit_and_concentration",
           "judge_thm1_networks", "judge_minibatch_layers"]

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
#: Relative tolerance of the extrapolated limit nu/gamma (Theorem 1 states nu_l = gamma_l
#: exactly, with no band): the check's resolution, not a property of the networks. 2% is
#: about the deviation of the weaker layer's limit detected at power 0.9 at the second
#: look (384 networks per width: ``limit_resolution`` 0.019-0.033 over the report's seed
#: and seeds 1-20; 0.013-0.023 at the third look, 768). With three looks the claim settled
#: at the second look (11 of those 21 runs) or the third (10), whose intervals reached
#: 0.56-0.97 of the band, and seed 9003 ended the third look undecided (0.985 of it); a
#: fourth look (1536 networks per width, the budget since) decides such seeds with room.
#: It was 3%, the resolution at the first look (192 per width: 0.027-0.053), and settled
#: at the first or second look. The finite-width gap left at the widest networks measured
#: (2.8% and 3.5% at width 256) is wider than the band: the band holds the fitted limit c
#: of c + a/w, not the widest networks' mean. The band is the statement's resolution: a
#: limit fails only when its interval lies outside it (:func:`theory.judges.judge_limit`).
#: (Those figures are from looks at 192/384/768/1536 networks per width; the tests now
#: refuse a limit point below 200, so the looks are 256/512/1024/1536.)
THM1_REQUIRED = 0.02
#: Relative tolerance of "the same in every layer" for the mini-batch ratios: the check's
#: resolution at its second look (512 networks: the rows' ``resolution``, the deviation
#: detected at power 0.9, is 0.049-0.054 in log over the report's seed and seeds 1-20,
#: against log(1.05) = 0.0488), not a measured layer dependence (per example the layers'
#: mean log ratios are within 1% of 0, standard errors 1.3-1.5% at 128 networks). The
#: per-example claim settled at 512 networks (12 of those 21 runs) or 1024 (the budget;
#: resolution 0.034-0.038), where the intervals reach at most 0.92 of the band (measured
#: with looks at 128/256/512/1024; the first look is 256 since the tests refuse fewer than
#: 200, so 512 is now the second look). It was 10%, the resolution at 128 networks
#: (0.096-0.122). The printed claim (B = 2) fails at its first look with either band at
#: the report's seed.
MINIBATCH_REQUIRED = 0.05


def per_group(groups: dict, judge, ctx: JudgeContext, label: str) -> Evidence:
    """Run ``judge(rows, sub_ctx)`` on each group of rows (e.g. one layer), with the
    look's alpha split evenly over the groups (Bonferroni), and combine: fails if any
    group fails, the weakest verdict otherwise. The evidence shown (measured, plot)
    is that of the weakest group; every group's evidence is in ``details``; a bound's
    ``tightness`` is that of the tightest group (:func:`~theory.judges.tightest`), its
    row naming the group."""
    sub = JudgeContext(ctx.run, ctx.split(len(groups)), ctx.look, ctx.looks)
    evs = {k: judge(rows, sub) for k, rows in groups.items()}
    rank = {F: 0, INC: 1, HA: 2, H: 3}
    ok = min((ev.verdict for ev in evs.values() if ev.verdict in (H, HA)), key=rank.get, default=H)
    verdict = combine([ev.verdict for ev in evs.values()], ok)
    key, worst = min(evs.items(), key=lambda kv: (rank[kv[1].verdict], kv[1].margin if kv[1].margin is not None
                                                  else math.inf))
    shortfalls = [ev.shortfall for ev in evs.values() if ev.shortfall is not None]
    tight = tightest({**ev.tightness, "row": {label: k, **(ev.tightness.get("row") or {})}}
                     for k, ev in evs.items() if ev.tightness)
    return Evidence(
        verdict=verdict, measured={label: key, **(worst.measured if isinstance(worst.measured, dict) else
                                                  {"value": worst.measured})},
        expected=worst.expected, method=f"{worst.method}; one fit per {label}, alpha split over {len(groups)} {label}s",
        resolution=worst.resolution, margin=worst.margin, margin_unit=f"{worst.margin_unit} (weakest {label})",
        counterexample=({label: key, **worst.counterexample} if isinstance(worst.counterexample, dict)
                        else worst.counterexample) if verdict == F else None,
        details=[{label: k, "verdict": ev.verdict.value, "measured": ev.measured, "rows": ev.details}
                 for k, ev in evs.items()],
        informative=worst.informative, shortfall=max(shortfalls) if shortfalls and verdict == INC else None,
        tightness=tight, plot=worst.plot)


def _by(m, label: str) -> dict:
    out: dict = {}
    for r in m.rows:
        out.setdefault(r.labels[label], []).append(r)
    return out


def _abs_deviations(x) -> np.ndarray:
    x = np.asarray(x, float)
    return np.abs(x - np.median(x))


#: Values of ``spread`` in :func:`limit_and_concentration`: how the spread of single
#: networks changes from the smallest to the largest width.
SPREADS = ("shrinks", "grows")


def limit_and_concentration(rows, value: str, target: float, tol: float, method: str, ctx,
                            spread: str = "shrinks") -> Evidence:
    """X_w -> target as width w grows, for one row per width: (i) the limit of the
    mean by :func:`theory.judges.judge_limit` (``error="mean"``: the fitted
    c + a/w); (ii) single networks concentrate: the spread at the largest width is
    below that at the smallest (Brown-Forsythe: Welch interval of the difference of
    mean absolute deviations from the median, robust to the heavy tails of small
    widths); ``spread="grows"``, the spread at the largest width above that at the
    smallest, is the mutation. Alpha split over the two parts. (A power law fitted to
    the RMS error is not used: it mixes the 1/w bias with the spread, the power law
    then misfits, and a fit on 3 residual degrees of freedom at the claim's alpha says
    nothing.) An inconclusive verdict carries the largest shortfall of its undecided
    parts; a failing evidence's counterexample names the failing part(s) in
    ``part``: "limit", "concentration" or "limit; concentration" (:func:`~theory.judges.failing_parts`)."""
    check_choice("spread", spread, SPREADS)
    sub = JudgeContext(ctx.run, ctx.split(2), ctx.look, ctx.looks)
    ev = judge_limit(rows, value, target, tol, method, sub, error="mean")
    ordered = sorted(rows, key=lambda r: r.labels["width"] if hasattr(r, "labels") else r["width"])
    small, big = _abs_deviations(ordered[0][value]), _abs_deviations(ordered[-1][value])
    diff = stats.difference(small, big)
    lo, hi = diff.interval(sub.alpha)
    conc = stats.inequality_verdict(lo, hi, 0.0, ">" if spread == "shrinks" else "<", ok=HA)
    parts = {"limit": ev.verdict, "concentration": conc}
    shortfalls = {"limit": ev.shortfall, "concentration": stats.shortfall(diff.mean, (lo, hi), 0.0, kind="bound")}
    ev.verdict = combine(parts.values(), HA)
    undecided = [shortfalls[k] for k, v in parts.items() if v == INC]  # what settles it (hidden once decided)
    ev.shortfall = None if any(x is None for x in undecided) else largest_shortfall(undecided)
    spreads = {"mean_abs_deviation_smallest_width": float(small.mean()),
               "mean_abs_deviation_largest_width": float(big.mean())}
    ev.measured.update(spreads)
    # the deviation of the limit detected at power stats.POWER (0.9): a band this wide holds the interval
    # with probability about 0.8 when the limit is on target (|c - target| < 1.28 standard errors)
    ev.measured["limit_resolution"] = stats.detectable_deviation(ev.measured["se"], ev.measured["t_df"], sub.alpha)
    ev.resolution += f"; concentration {conc.value}"
    ev.method += ("; concentration: Welch interval of the mean absolute deviation from the median, smallest vs "
                  "largest width" + ("" if spread == "shrinks" else " (claimed: the spread grows)"))
    if ev.verdict == F:
        ev.name_part(failing_parts(parts), replace=True, otherwise=spreads)
    return ev


def judge_thm1_networks(m, ctx, target: float = 1.0, tol: float = THM1_REQUIRED, spread: str = "shrinks"):
    """Theorem 1 on networks: per interior layer, nu_l/gamma_l -> ``target`` as the
    width grows and single networks concentrate (``spread``: "shrinks" from the smallest
    to the largest width; "grows" is the mutation) (:func:`limit_and_concentration`),
    the alpha split over the layers."""
    method = (f"geometric-init ReLU MLPs [w, w, 2w, w, 10], batch {m.meta['batch']} (per-example gradients), random "
              "quadratic loss; replicate = one network")
    return per_group(_by(m, "layer"),
                     lambda rows, c: limit_and_concentration(rows, "ratio", target, tol, method, c, spread),
                     ctx, "layer")


def _log_layer_ratio(m, B: int, layer: int, ref: int) -> np.ndarray:
    """Per network: log of (nu/gamma in ``layer``) over (nu/gamma in layer ``ref``)."""
    return np.log(m.row(B=B, layer=layer)["ratio"] / m.row(B=B, layer=ref)["ratio"])


def judge_minibatch_layers(m, ctx, sizes=(2,), layers=(1, 2), ref: int = 0, tol: float = MINIBATCH_REQUIRED,
                           target: float = 1.0):
    """Sec. 2, 'all conclusions hold using mini-batches': with batch size B, the
    conclusion of Theorem 1 (constant gamma_l gives constant nu_l) needs nu_l^B/gamma_l
    to be the same in every layer. Per network (the replicate) and layer l in
    ``layers``, the log of the ratio in layer l over the ratio in layer ``ref``; its
    mean must be log(``target``) = 0 within log(1 + tol). Any normalization of the batch gradient (sum or
    mean over the batch) cancels in this ratio. The output layer (10 units) is left
    out by default: its ratio is too noisy to resolve the tolerance cheaply."""
    rows = [{"B": B, "layer": l, "x": _log_layer_ratio(m, B, l, ref)} for B in sizes for l in layers]
    ev = judge_means(rows, lambda r: r["x"], lambda r: math.log(target), ("B", "layer"), math.log1p(tol),
                     f"geometric-init ReLU MLPs [w, w, 2w, w, 10] at width {m.meta['width']}; gradient of the loss "
                     f"summed over B examples; per network, log of nu/gamma in each layer over layer {ref}", ctx,
                     relative=False, within=True)
    ev.expected = f"log ratio {math.log(target):.3g} within +-log(1 + {tol:g}) (the same nu/gamma in every layer)"
    return ev
