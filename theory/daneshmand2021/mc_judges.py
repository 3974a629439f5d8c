"""Judges of the Monte-Carlo claims of Daneshmand et al. (2021) about bounds:
Theorem 1 (Eq. 3), Lemma 2 (Eq. 4), Corollary 3 (Eq. 5), and
Sec. 3.3's sigma_min statement. Each applies the claim's constants (``params``) to a
:class:`~theory.core.records.Samples` record of :mod:`.montecarlo`, with the alpha of
the look in ``ctx``; every row says whether its bound could bite (a bound above the
quantity's largest attainable value cannot fail and is reported as uninformative).

W_2 in Lemma 2 and Corollary 3 is between the laws of the random matrices W_l H_l and
G/sqrt(n) (Sec. 4.1). The closed-form conditional W_2^2 given H_l, averaged over H_l, is
an upper bound on it (couple H, then the Gaussians), so it can show ``holds`` for a "<="
statement but never reject one: ``fails`` comes only from :func:`law_lower_bound`, a
lower confidence bound on W_2 of the laws from 1-Lipschitz functionals of the singular
values (Kantorovich-Rubinstein). Each part can give only one kind of error (the upper
part a false ``holds``, the lower part a false ``fails``), so each runs at the look's alpha.

Reading of "under A1(alpha, l)" (the text cannot decide it): alpha is the smallest
sigma_min(H_k), k = 1..l, over every chain drawn so far in the row, so A1(alpha, l)
holds on every sampled chain; the expectation is over those chains.
"""
from __future__ import annotations

import math
from functools import lru_cache

import mpmath
import numpy as np

from .. import stats
from ..core import Evidence, JudgeContext, Verdict
from ..core.evidence import bound_tightness
from ..judges import judge_bounds, judge_exact, tightest
from . import formulas as f
from .montecarlo import LAYERS, LIPSCHITZ

__all__ = ["judge_thm1_bound", "judge_lemma2", "judge_cor3", "judge_smin_expectation",
           "max_gap", "max_w2sq", "sub_context", "law_lower_bound"]

H, HA, F, INC = Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS, Verdict.INCONCLUSIVE
#: Theorem 1 is judged on cells up to this width (it bites from d = 1024 at n = 2 and
#: d = 16384 at n = 4), the grid's widest cells.
THM1_MAX_WIDTH = 16384
#: Lemma 2 is judged on cells up to this width: it bites in every cell, and the narrow
#: ones have the most chains per block (the per-run difference inherits V's spread).
LEMMA2_MAX_WIDTH = 4096
_GRID = "Monte Carlo chains (Gram-law sampler), Gaussian H_0 at unit Frobenius norm, one chain per replicate"


def max_gap(n: int) -> float:
    """Largest orthogonality gap: V(H) <= sqrt(1 - 1/n), attained at rank one (V^2 =
    sum lam^2 - 1/n over the trace-one spectrum, and sum lam^2 <= 1).

    >>> round(max_gap(2), 6)
    0.707107
    """
    return math.sqrt(1 - 1 / n)


def max_w2sq(n: int) -> float:
    """Largest conditional W_2^2 of Lemma 2: 2 - 2 sum sqrt(lam)/sqrt(n) <= 2 - 2/sqrt(n)
    (sum sqrt(lam) >= sum lam = 1), attained at rank one.

    >>> round(max_w2sq(4), 6)
    1.0
    """
    return 2 - 2 / math.sqrt(n)


def sub_context(ctx: JudgeContext, parts: int) -> JudgeContext:
    """The context of one of ``parts`` sub-checks of a look (alpha split evenly)."""
    return JudgeContext(ctx.run, ctx.split(parts), ctx.look, ctx.looks)


def _bounds_plot(ev: Evidence, rows, value, bound, labels) -> Evidence:
    """Draw a bound tested through per-run differences as measured value against bound:
    the value's interval is the difference's interval shifted by (bound mean)."""
    out = []
    for r, d in zip(rows, ev.details):
        shift = float(np.mean(value(r))) - d["mean"]
        out.append({"label": ", ".join(f"{k}={d[k]}" for k in labels), "mean": d["mean"] + shift,
                    "interval": [d["interval"][0] + shift, d["interval"][1] + shift], "bound": float(bound(r)),
                    "attainable": d["attainable"] + float(bound(r)), "informative": d["informative"]})
    ev.plot = {"kind": "bounds", "claim": "<=", "rows": out}
    return ev


def law_lower_bound(r, alpha: float) -> tuple[float, dict]:
    """One-sided (1 - alpha) lower confidence limit L on W_2(W_l H_l, G/sqrt(n)) between
    the laws, from a row's ``lip_x``/``lip_y``: (runs, 3) arrays of the 1-Lipschitz
    functionals sigma_max, -sigma_min, (sigma_max - sigma_min)/sqrt(2) of W_l H_l and of
    independent G/sqrt(n) (:func:`.montecarlo.lipschitz_summaries`), oriented so that
    E f(W H) >= E f(G/sqrt n) is expected (a wrong orientation only loses power).

    Kantorovich-Rubinstein: W_1 = sup over 1-Lipschitz f of E f(X) - E f(Y), and W_2 >= W_1.
    Per functional the Welch lower limit at alpha / 3 (Bonferroni), and L = max(0, the
    largest limit): P(L > W_2) <= alpha. Returns (L, {functional: its difference, se and
    lower limit})."""
    x, y = np.asarray(r["lip_x"], float), np.asarray(r["lip_y"], float)
    if x.ndim != 2 or x.shape[1] != len(LIPSCHITZ) or y.shape[1:] != x.shape[1:]:
        raise ValueError(f"lip_x and lip_y must be (runs, {len(LIPSCHITZ)}) arrays, got {x.shape}, {y.shape}")
    parts = {}
    for j, name in enumerate(LIPSCHITZ):
        e = stats.difference(x[:, j], y[:, j])
        parts[name] = {"difference": e.mean, "se": e.se, "lower": e.interval(alpha / len(LIPSCHITZ))[0]}
    return max(0.0, max(p["lower"] for p in parts.values())), parts


def _lower_part(ev: Evidence, rows, rhs, labels, ctx, parts: int, what: str) -> Evidence:
    """Append the rejection test: per row, fails when L^2 > rhs(row, alpha'), L the lower
    confidence limit of :func:`law_lower_bound`; the row's alpha is split over ``parts``
    (the limit, and the right side's upper limit where it is estimated)."""
    alpha = ctx.split(len(rows)) / parts
    bad = []
    for r in rows:
        L, funcs = law_lower_bound(r, alpha)
        b = float(rhs(r, alpha))
        v = F if L * L > b else INC
        row = {"part": "lower bound on W_2 of the laws", **{k: r.labels[k] for k in labels}, "L": L, "L_sq": L * L,
               "bound": b, "functionals": funcs, "verdict": v.value}
        ev.details.append(row)
        if v == F:
            bad.append(row)
    if bad:
        ev.fail_part(bad[0])
    ev.method += (f"; fails only where a lower confidence limit L on W_2 of the laws has L^2 above {what} (L: Welch "
                  f"one-sided limits of E f(W_l H_l) - E f(G/sqrt n) for f = sigma_max, -sigma_min, (sigma_max - "
                  f"sigma_min)/sqrt 2, 1-Lipschitz by Mirsky, W_2 >= W_1 by Kantorovich-Rubinstein; alpha = "
                  f"{alpha:.2e} per row and part)")
    return ev


@lru_cache(maxsize=4096)
def _thm1(alpha: float, ell: int, n: int, d: int, dps: int, power: float, term: bool) -> float:
    return float(f.theorem1_bound(alpha, ell, n, d, dps, power, term))


def judge_thm1_bound(m, ctx, plateau_power: float = 0.5, plateau_term: bool = True):
    """Theorem 1, Eq. 3: E[V(H_{l+1})] <= 2 (1 - 2 alpha/3)^l + 3 n / (alpha sqrt(d)) under
    A1(alpha, l). A row is informative when the bound is below sqrt(1 - 1/n). Cells up to
    ``THM1_MAX_WIDTH`` (the whole grid of :data:`.montecarlo.GRID`). Each row
    also gives its mean over the printed width term 3 n/(alpha sqrt d) alone."""
    def bound(r):
        return _thm1(float(r["alpha_l"].min()), r.layer, r.n, r.d, ctx.dps, plateau_power, plateau_term)

    rows = [r for r in m.rows if r.d <= THM1_MAX_WIDTH and r.layer in LAYERS]
    ev = judge_bounds(rows, lambda r: r["gap_next"], bound, ("n", "d", "layer"),
                      f"{_GRID}; V(H_(l+1)) against the bound in mpmath at {ctx.dps} digits", ctx,
                      attainable=lambda r: max_gap(r.n), what="E[V(H_(l+1))]")
    for d, r in zip(ev.details, rows):
        d["alpha"] = float(r["alpha_l"].min())
        # how far the mean sits below the printed width term alone (why the constants cannot fail here)
        d["mean_over_width_term"] = d["mean"] / (3 * r.n / (d["alpha"] * math.sqrt(r.d)))
    return ev


def judge_lemma2(m, ctx, constant: float = 2.0, power: float = 1.0):
    """Lemma 2 (Sec. 4.1, Eq. 4), l >= 1: W_2^2(W_l H_l, G/sqrt(n)) <= constant n
    E[V(H_l)^power], W_2 between the laws. Holds: W_2^2 of the laws is at most E_H of the
    conditional W_2^2 (couple H, then the Gaussians), so the per-run difference
    conditional W_2^2 - constant n V^power is tested <= 0 (informative when constant n
    E[V^power] < 2 - 2/sqrt(n)). Fails: only when L^2 > constant n (upper limit of
    E[V^power]), L the lower confidence limit of :func:`law_lower_bound`. Cells up to
    ``LEMMA2_MAX_WIDTH``."""
    def diff(r):
        return r["w2sq"] - constant * r.n * r["gap"] ** power

    rows = [r for r in m.rows if r.d <= LEMMA2_MAX_WIDTH]
    ev = judge_bounds(rows, diff, lambda r: 0.0, ("n", "d", "layer"),
                      f"{_GRID}; closed-form conditional W_2^2 of W_l H_l given H_l (an upper bound on W_2^2 of "
                      "the laws), per-run difference with the bound", ctx,
                      attainable=lambda r: max_w2sq(r.n) - constant * r.n * float(np.mean(r["gap"] ** power)),
                      what="E[W_2^2 - c n V^p]", can_fail=False)
    tight = []
    for d, r in zip(ev.details, rows):
        d["mean_w2sq"] = float(np.mean(r["w2sq"]))
        d["bound_c_n_EV"] = float(constant * r.n * np.mean(r["gap"] ** power))
        d["pointwise_sqrt_n_V"] = bool(np.all(r["w2sq"] <= math.sqrt(r.n) * r["gap"] + 1e-12))
        if d["informative"]:  # the bound c n E[V^p] against the upper limit of the mean conditional W_2^2
            upper = stats.estimate(r["w2sq"]).interval(ctx.split(len(rows)))[1]
            tight.append(bound_tightness(upper, d["bound_c_n_EV"], "<=", {k: d[k] for k in ("n", "d", "layer")}))
    # the per-run difference's tightness has no ratio; the bound against W_2^2's upper limit has one
    ev.tightness = tightest(tight)
    ev.expected = f"W_2^2 of the laws <= {constant:g} n E[V^{power:g}]"
    ev = _bounds_plot(ev, rows, lambda r: r["w2sq"],
                      lambda r: constant * r.n * np.mean(r["gap"] ** power), ("n", "d", "layer"))
    ev = _lower_part(ev, rows, lambda r, a: constant * r.n * stats.estimate(r["gap"] ** power).interval(a)[1],
                     ("n", "d", "layer"), ctx, 2, f"{constant:g} n times the upper limit of E[V^{power:g}]")
    lower = [d for d in ev.details if d.get("part") == "lower bound on W_2 of the laws"]
    upper = {(d["n"], d["d"], d["layer"]): d["mean_w2sq"] for d in ev.details if "mean_w2sq" in d}
    for d in lower:  # how much of the coupling's upper bound the lower limit reaches
        d["L_sq_over_mean_conditional_w2sq"] = d["L_sq"] / upper[d["n"], d["d"], d["layer"]]
    return ev


def judge_cor3(m, ctx, plateau_term: bool = True, index: str = "printed", plateau_power: float = 0.5):
    """Corollary 3 (Sec. 4.1, Eq. 5): W_2^2(W_l H_l, G/sqrt(n)) <= 4 n (1 - 2 alpha/3)^k
    + 6 n^2 / (alpha sqrt(d)), W_2 between the laws, with k = l under A1(alpha, l) as
    printed (``index="printed"``), or k = l - 1 under A1(alpha, l - 1), what Lemma 2 at l
    and Theorem 1 at l - 1 give (``"corrected"``; rows with l = 1 have A1(alpha, 0) void
    and are left out). Holds from the mean conditional W_2^2 (an upper bound; informative
    when the bound is below 2 - 2/sqrt(n)); fails only when L^2 exceeds the bound, L the
    lower confidence limit of :func:`law_lower_bound` (``plateau_term=False``, the
    mutation without 6 n^2/(alpha sqrt d), is rejected at l = 40). ``plateau_power``
    (1/2 as printed) is the power of d in the plateau term (a mutation)."""
    rows = m.rows if index == "printed" else [r for r in m.rows if r.layer > 1]

    def bound(r):
        if index == "printed":
            return 2 * r.n * _thm1(float(r["alpha_l"].min()), r.layer, r.n, r.d, ctx.dps, plateau_power, plateau_term)
        return 2 * r.n * _thm1(float(r["alpha_prev"].min()), r.layer - 1, r.n, r.d, ctx.dps, plateau_power,
                               plateau_term)

    ev = judge_bounds(rows, lambda r: r["w2sq"], bound, ("n", "d", "layer"),
                      f"{_GRID}; closed-form conditional W_2^2 (an upper bound on W_2^2 of the laws: holds only); "
                      f"{index} index", ctx, attainable=lambda r: max_w2sq(r.n), what="E_H[conditional W_2^2]",
                      can_fail=False)
    return _lower_part(ev, rows, lambda r, a: bound(r), ("n", "d", "layer"), ctx, 1, "the bound")


@lru_cache(maxsize=16)
def _chi_means(dps: int) -> tuple:
    ds = tuple(range(1, 41)) + tuple(10**k for k in range(2, 7))
    return ds, tuple(f.chi_mean(d, dps) for d in ds)


def judge_smin_expectation(m, ctx, drop_sqrt_n: bool = False, every_draw: bool = False):
    """Sec. 3.3 (corrected): E[sigma_min(H_0)] >= sqrt(d) - sqrt(n) for iid N(0, 1)
    entries (Gordon). Exact for n = 1 (E chi_d at two precisions, d = 1..40 and
    10^2..10^6); one-sided Student-t per shape for n > 1. ``drop_sqrt_n``: the
    mutation E[sigma_min] >= sqrt(d). ``every_draw``: the printed form, sigma_min(H_0) >
    sqrt(d) - sqrt(n) for every draw (not in mean): any draw at or below the bound is a
    counterexample."""
    if every_draw:
        checks = []
        for r in m.rows:
            bound = math.sqrt(r.d) - (0 if drop_sqrt_n else math.sqrt(r.n))
            low = float(np.min(r["smin"]))
            checks.append({"label": f"d = {r.d}, n = {r.n}: every draw has sigma_min(H_0) > {bound:.6g}",
                           "part": "every draw", "ok": low > bound, "measured": low, "expected": f"> {bound:.6g}",
                           "counterexample": {"d": r.d, "n": r.n, "smallest sigma_min": low, "bound": bound,
                                              "draws at or below": int(np.sum(r["smin"] <= bound)),
                                              "draws": int(r["smin"].size)}})
        return judge_exact(checks, "Monte Carlo, iid N(0, 1) d x n matrices: the smallest sigma_min drawn per shape",
                           "a single draw at or below the bound is a counterexample")
    lo, hi = ctx.precisions
    exact = []
    ds, a = _chi_means(lo)
    _, b = _chi_means(hi)
    for d, x, y in zip(ds, a, b):
        target = math.sqrt(d) - (0 if drop_sqrt_n else 1)
        with mpmath.workdps(hi):
            ok = x >= target and y >= target
        exact.append({"d": d, "n": 1, "E_sigma_min": float(y), "bound": target, "ok": bool(ok)})
    ev = judge_bounds(m.rows, lambda r: r["smin"], lambda r: math.sqrt(r.d) - (0 if drop_sqrt_n else math.sqrt(r.n)),
                      ("d", "n"), "Monte Carlo, iid N(0, 1) d x n matrices, one matrix per replicate", ctx, claim=">=",
                      what="E[sigma_min(H_0)]")
    bad = [e for e in exact if not e["ok"]]
    if bad:
        ev.fail_part({"part": "n = 1, exact E[chi_d]", **bad[0]}, replace=True)
    ev.details = exact + ev.details
    ev.method += f"; n = 1 exactly: E[chi_d] = sqrt(2) Gamma((d+1)/2)/Gamma(d/2) in mpmath at {lo}/{hi} digits"
    return ev
