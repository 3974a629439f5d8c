"""Measure and judge: cached measurements, and the sequential loop of Monte-Carlo claims.

Exact measurements are cached per (function, seed, backend, precision). Monte-Carlo
blocks are cached per (draw function, seed, backend, precision) and grow on demand,
so mutations and larger ``--mc-scale`` reuse what was drawn. Blocks can be drawn by
any executor with a ``map`` method (a process pool, a Dask client's executor): block
b's numbers depend only on (seed, b), so every executor gives the same data.
"""
from __future__ import annotations

import math
from contextlib import nullcontext

from ..stats.means import recording_tests
from .claims import Claim, Sampling, resolve_params
from .context import JudgeContext, RunContext
from .evidence import Evidence
from .records import Samples, TooFewReplicates
from .verdicts import DECIDED, Verdict

__all__ = ["measure", "samples", "evaluate", "set_executor", "clear_caches"]

_EXACT: dict = {}
_BLOCKS: dict = {}
_EXECUTOR = None


def set_executor(executor) -> None:
    """Draw Monte-Carlo blocks with ``executor.map(fn, *iterables)`` (None: in process)."""
    global _EXECUTOR
    _EXECUTOR = executor


def clear_caches() -> None:
    _EXACT.clear()
    _BLOCKS.clear()


def _threads(n):
    if n is None:
        return nullcontext()
    from threadpoolctl import threadpool_limits

    return threadpool_limits(n)


def measure(claim: Claim, ctx: RunContext):
    """The measurement of an exact (non-sampling) claim, cached."""
    if claim.monte_carlo:
        raise ValueError(f"claim {claim.id} samples: use samples()")
    key = (claim.measure, ctx.draw_key)
    if key not in _EXACT:
        _EXACT[key] = claim.measure(ctx)
    return _EXACT[key]


def _draw_one(draw, ctx: RunContext, block: int, threads):
    with _threads(threads):
        return draw(ctx, block)


def samples(sampling: Sampling, ctx: RunContext, n_blocks: int) -> Samples:
    """The first ``n_blocks`` blocks of ``sampling``'s measurement, drawing what is missing."""
    key = (sampling.draw, ctx.draw_key)
    have = _BLOCKS.setdefault(key, [])
    missing = list(range(len(have), n_blocks))
    if missing:
        if _EXECUTOR is None or len(missing) == 1:
            new = [_draw_one(sampling.draw, ctx, b, sampling.threads) for b in missing]
        else:
            n = len(missing)
            new = list(_EXECUTOR.map(_draw_one, [sampling.draw] * n, [ctx] * n, missing, [sampling.threads] * n))
        have.extend(new)
    return Samples(have[:n_blocks])


def evaluate(claim: Claim, ctx: RunContext | None = None, **overrides) -> Evidence:
    """Run a claim's check with ``params`` updated by ``overrides`` (each
    :class:`~theory.core.claims.AtPrecision` resolved at ``ctx.dps``); Monte-Carlo claims
    are judged at each look of their schedule until the verdict is decided or the
    block budget is spent. A proof step's :attr:`~theory.core.claims.Claim.derivation`
    (does it follow from the printed steps it cites) is attached as ``follows``."""
    ctx = ctx or RunContext()
    params = resolve_params({**claim.params, **overrides}, ctx.dps)
    if not claim.monte_carlo:
        return _with_follows(claim, ctx, claim.judge(measure(claim, ctx), JudgeContext.exact(ctx), **params))
    sampling: Sampling = claim.measure
    plan = sampling.plan(ctx.scale)
    alpha = plan.alpha(ctx.claim_alpha)
    for look, n_blocks in enumerate(plan.blocks, start=1):
        data = samples(sampling, ctx, n_blocks)
        with recording_tests() as tested:
            try:
                ev = claim.judge(data, JudgeContext(ctx, alpha, look, plan.looks), **params)
            except TooFewReplicates as err:
                ev = _too_few(claim, err)
        if ev.verdict in DECIDED:
            stopped = "decided"
            break
    else:
        stopped = "sample budget"
    ev.sampling = {"looks": look, "planned_looks": plan.looks, "blocks": n_blocks, "budget_blocks": plan.blocks[-1],
                   "replicates_per_row": data.replicates, "alpha_per_look": alpha, "claim_alpha": ctx.claim_alpha,
                   "stopped": stopped, "one_sample_tests": one_sample_summary(tested),
                   "welch_tests": welch_summary(tested)}
    if ev.verdict == Verdict.INCONCLUSIVE and ev.settle is None:
        ev.settle = _settle_hint(ev, ctx, stopped)
    return _with_follows(claim, ctx, ev)


def _with_follows(claim: Claim, ctx: RunContext, ev: Evidence) -> Evidence:
    """``ev`` with the step's derivation attached (cached like an exact measurement)."""
    if claim.derivation is None:
        return ev
    key = (claim.derivation, ctx.draw_key)
    if key not in _EXACT:
        found = claim.derivation(ctx)
        if not isinstance(found, dict) or not isinstance(found.get("follows"), bool) or not found.get("why"):
            raise ValueError(f"the derivation of {claim.id} must return a dict with follows (a bool) and why (a "
                             f"sentence), got {found!r}")
        _EXACT[key] = found
    ev.follows = {"cites": list(claim.cites), **_EXACT[key]}
    return ev


def _groups(tested, key, skew) -> list[dict]:
    """Per ``key(e)`` (ascending) over the recorded ``(estimate, level)`` pairs of
    :func:`theory.stats.means.recording_tests`: how many tests, the largest absolute
    ``skew(e)``, and the smallest per-side level of their intervals (None if none)."""
    by: dict = {}
    for e, level in tested:
        if key(e) is not None:
            by.setdefault(key(e), []).append((skew(e), level))
    return [{"replicates": list(k) if isinstance(k, tuple) else k, "tests": len(g),
             "largest_abs_skewness": round(max(s for s, _ in g), 3),
             "smallest_level": min((lv for _, lv in g if lv is not None), default=None)} for k, g in sorted(by.items())]


def one_sample_summary(tested) -> list[dict]:
    """Per replicate count, the one-sample mean tests of a look: how many, the largest
    absolute sample skewness, the smallest per-side level; ascending in the count.

    >>> import numpy as np
    >>> from theory.stats import estimate
    >>> x = np.arange(100.0) ** 2
    >>> one_sample_summary([(estimate(x), 0.01), (estimate(-x), None), (estimate(x[:50]), None)])
    [{'replicates': 50, 'tests': 1, 'largest_abs_skewness': 0.649, 'smallest_level': None}, \
{'replicates': 100, 'tests': 2, 'largest_abs_skewness': 0.644, 'smallest_level': 0.01}]
    """
    return _groups(tested, lambda e: e.n if e.skewness is not None else None, lambda e: abs(e.skewness))


def welch_summary(tested) -> list[dict]:
    """Per pair of sample sizes (smaller first), the Welch comparisons of a look: how many,
    the largest absolute sample skewness of either side, the smallest per-side level."""
    return _groups(tested, lambda e: tuple(sorted(n for n, _ in e.welch_parts)) if e.welch_parts else None,
                   lambda e: max(abs(g) for _, g in e.welch_parts))


def _too_few(claim: Claim, err: TooFewReplicates) -> Evidence:
    """The evidence of a look whose tests refuse to decide: fewer replicates than they
    need (fewer than 2, or than the calibrated minimum of :mod:`theory.stats`)."""
    return Evidence(Verdict.INCONCLUSIVE, measured=None, expected=claim.statement,
                    method=f"not judged: {err}", resolution=math.inf, shortfall=math.inf,
                    settle="too few replicates for the tests to decide at this budget and --mc-scale; rerun with a "
                           "larger --mc-scale (the replicates grow with it)")


def _settle_hint(ev: Evidence, ctx: RunContext, stopped: str) -> str:
    """What would settle an inconclusive claim, from its shortfall (the interval's
    half-width over the distance it must clear, with the estimate where it is)."""
    if ev.shortfall is None:
        return (f"not settled after the {stopped}; this judge gives no shortfall, so no scale can be suggested: "
                "rerun with a larger --mc-scale")
    if not math.isfinite(ev.shortfall):
        return (f"not settled after the {stopped}; the estimate lies on the band edge, where no sample size "
                "settles it")
    if ev.shortfall > 1:
        scale = ctx.scale * ev.shortfall**2 * (ev.sampling["budget_blocks"] / ev.sampling["blocks"])
        return (f"resolution {ev.shortfall:.2f} times coarser than needed after the {stopped}; if the estimate "
                f"stays where it is, about --mc-scale {math.ceil(scale * 1.2)} settles it (sample size grows as "
                "the square)")
    return (f"not settled after the {stopped}; the interval is already narrow enough for the estimate where it is, "
            "so another part of the check is undecided: rerun with a larger --mc-scale")
