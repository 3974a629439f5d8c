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

__all__ = ["measure", "samples", "evaluate", "set_executor", "clear_caches", "alpha_headroom", "with_headroom",
           "headroom_text", "HEADROOM_FACTORS"]

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


def _groups(estimates, key, skew) -> list[dict]:
    """Per ``key(e)`` (ascending), the recorded tests: how many, the largest absolute
    ``skew(e)``, and the smallest and largest of their per-side levels (each test's
    smallest level at which an interval was asked; None where no test's interval was
    asked; ``estimates`` from :func:`theory.stats.means.recording_tests`)."""
    level_range = getattr(estimates, "level_range", lambda e: (None, None))
    by: dict = {}
    for e in estimates:
        k = key(e)
        if k is not None:
            by.setdefault(k, []).append((skew(e), level_range(e)))
    out = []
    for k, g in sorted(by.items()):
        ranges = [lv for _, lv in g if lv[0] is not None]
        out.append({"replicates": list(k) if isinstance(k, tuple) else k, "tests": len(g),
                    "largest_abs_skewness": round(max(s for s, _ in g), 3),
                    "smallest_level": min(lo for lo, _ in ranges) if ranges else None,
                    "largest_level": max(hi for _, hi in ranges) if ranges else None,
                    "tests_without_level": len(g) - len(ranges)})
    return out


def one_sample_summary(estimates) -> list[dict]:
    """Per replicate count, the one-sample mean tests of a look (estimates recorded by
    :func:`theory.stats.means.recording_tests`): how many, the largest absolute sample
    skewness among them, and the smallest per-side level of their intervals; ascending
    in the count.

    >>> from theory.stats import estimate
    >>> one_sample_summary([estimate([1.0, 2.0, 4.0]), estimate([3.0, 2.0, 1.0]), estimate([1.0, 5.0])])
    [{'replicates': 2, 'tests': 1, 'largest_abs_skewness': 0.0, 'smallest_level': None, 'largest_level': None, 'tests_without_level': 1}, {'replicates': 3, 'tests': 2, 'largest_abs_skewness': 0.382, 'smallest_level': None, 'largest_level': None, 'tests_without_level': 2}]
    """
    return _groups(estimates, lambda e: e.n if e.skewness is not None else None, lambda e: abs(e.skewness))


def welch_summary(estimates) -> list[dict]:
    """Per pair of sample sizes (smaller first), the Welch comparisons of a look
    (differences recorded by :func:`theory.stats.means.recording_tests`): how many, the
    largest absolute sample skewness of either side, and the smallest per-side level of
    their intervals; ascending in the sizes.

    >>> from theory.stats import difference, estimate
    >>> from theory.stats.means import recording_tests
    >>> with recording_tests() as seen:
    ...     _ = difference([1.0, 2.0, 4.0], [0.0, 1.0]).interval(0.01, sides=1), estimate([1.0, 2.0]).interval(0.1)
    ...     _ = difference([1.0, 2.0], [3.0, 2.0, 1.0, 0.0]).p_upper(0.0)
    >>> welch_summary(seen)
    [{'replicates': [2, 3], 'tests': 1, 'largest_abs_skewness': 0.382, 'smallest_level': 0.01, 'largest_level': 0.01, 'tests_without_level': 0}, {'replicates': [2, 4], 'tests': 1, 'largest_abs_skewness': 0.0, 'smallest_level': None, 'largest_level': None, 'tests_without_level': 1}]
    """
    return _groups(estimates, lambda e: tuple(sorted(n for n, _ in e.welch_parts)) if e.welch_parts else None,
                   lambda e: max(abs(g) for _, g in e.welch_parts))


#: The factors by which :func:`alpha_headroom` divides a look's alpha, in order.
HEADROOM_FACTORS = tuple(10.0**k for k in range(1, 13))


def alpha_headroom(claim: Claim, ctx: RunContext, ev: Evidence, **overrides) -> float | None:
    """How far the verdict of a decided Monte-Carlo claim stands from its decision
    boundary on its own data: the largest factor f in :data:`HEADROOM_FACTORS` such
    that the data of the look the run stopped at, judged again (with ``overrides``, as
    :func:`evaluate` was given) at that look's alpha divided by every factor up to f,
    give the same verdict (1.0 when dividing by 10 already moves it). None for an exact
    claim, an undecided verdict, or a look with too few replicates.

    The probe reuses the drawn blocks (the caches of :func:`samples`) and only judges.
    The earlier looks need no probe: the judges are monotone in alpha (a smaller alpha
    decides no sooner), so a run at alpha/f stops at the same look with the same
    verdict. So the verdict lies inside the decision region of every test at alpha/f;
    whether those tests keep a real rate at most alpha depends on their excess at the
    level alpha/f, deeper than the levels of a claim's tests (:mod:`theory.report.headroom`
    sets it against rates measured there).

    >>> from theory.core.registry import get
    >>> c, ctx = get("zeroinit2019.principle_b.variance_printed"), RunContext()
    >>> ev = evaluate(c, ctx)
    >>> ev.verdict.value, alpha_headroom(c, ctx, ev)  # the printed variance is off by far more than noise
    ('fails', 1000000000000.0)
    """
    if not claim.monte_carlo or ev.verdict not in DECIDED or not ev.sampling or ev.sampling.get("blocks") is None:
        return None
    s = ev.sampling
    if s["claim_alpha"] != ctx.claim_alpha:
        raise ValueError(f"ctx.claim_alpha must be the run's ({s['claim_alpha']:g}), got {ctx.claim_alpha:g}")
    data = samples(claim.measure, ctx, s["blocks"])
    params = resolve_params({**claim.params, **overrides}, ctx.dps)

    def judged(f):
        return claim.judge(data, JudgeContext(ctx, s["alpha_per_look"] / f, s["looks"], s["planned_looks"]),
                           **params).verdict

    try:
        if judged(1.0) != ev.verdict:
            raise ValueError(f"the probe of {claim.id} does not reproduce its verdict: the context or the parameters "
                             "differ from the run's")
        kept = 1.0
        for f in HEADROOM_FACTORS:
            if judged(f) != ev.verdict:
                break
            kept = f
    except TooFewReplicates:
        return None
    return kept


def with_headroom(claim: Claim, ctx: RunContext, ev: Evidence, **overrides) -> Evidence:
    """``ev`` with ``sampling["alpha_headroom"]`` set (:func:`alpha_headroom`) where it
    has a sampling record."""
    if ev.sampling is not None:
        ev.sampling["alpha_headroom"] = alpha_headroom(claim, ctx, ev, **overrides)
    return ev


def headroom_text(headroom: float | None) -> str:
    """The alpha headroom (:func:`alpha_headroom`) in words; '' for none.

    >>> for h in (None, 1.0, 1e4, 1e12):
    ...     print(repr(headroom_text(h)))
    ''
    'alpha/10 already moves the verdict on these data'
    'the same verdict on these data down to alpha/1e+04 (alpha/1e+05 moves it)'
    'the same verdict on these data down to alpha/1e+12 (the smallest probed)'
    """
    if headroom is None:
        return ""
    if headroom < HEADROOM_FACTORS[0]:
        return f"alpha/{HEADROOM_FACTORS[0]:g} already moves the verdict on these data"
    return (f"the same verdict on these data down to alpha/{headroom:.0e} "
            + ("(the smallest probed)" if headroom >= HEADROOM_FACTORS[-1] else f"(alpha/{headroom * 10:.0e} moves it)"))


def _too_few(claim: Claim, err: TooFewReplicates) -> Evidence:
    """The evidence of a look that holds too few replicates to judge (a tiny --mc-scale)."""
    return Evidence(Verdict.INCONCLUSIVE, measured=None, expected=claim.statement,
                    method=f"not judged: {err}", resolution=math.inf, shortfall=math.inf,
                    settle="too few replicates at this --mc-scale to estimate a variance; rerun with a larger --mc-scale")


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
