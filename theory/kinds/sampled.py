"""Monte-Carlo claims in a few lines: a simulator over a grid of settings
(:func:`grid_sampling`), and a mean, a band, an exponent, a limit or a bound judged on
it by :mod:`theory.judges`, each with mutations generated from its named constants.

The statement-side callables (``target``, ``bound``) receive the row and the
statement's constants as keywords (numbers, exact text included, as floats); the
stated exponent or limit may itself be a :class:`~theory.kinds.base.Named` constant.
"""
from __future__ import annotations

import functools
import math
from typing import Callable, Mapping

from simulations import to_host

from .. import stats
from ..core import Block, Mutation, Row, Sampling
from ..judges import judge_bounds, judge_exponent, judge_limit, judge_means
from .base import Named, _constants, assemble, check_constants, constant_mutations, helper, numeric
from .exact import grid_points

__all__ = ["grid_sampling", "mean_claim", "band_claim", "exponent_claim", "limit_claim", "bound_claim"]


def _draw_grid(ctx, block, *, name: str, points: tuple, simulate: Callable, replicates: int):
    rows = []
    for i, items in enumerate(points):
        labels = dict(items)
        data = simulate(ctx.stream(name, i, block), replicates, **labels)
        rows.append(Row(labels, {k: to_host(v) for k, v in data.items()}))
    return Block(tuple(rows))


@helper
def grid_sampling(*, name: str, grid, simulate: Callable, replicates: int, first: int = 1, budget: int = 16,
                  growth: float = 2.0, threads: int | None = None) -> Sampling:
    """A :class:`~theory.core.claims.Sampling` whose block b holds one row per point of
    ``grid`` (:func:`~theory.kinds.exact.grid_points`): ``simulate(be, replicates,
    **point)`` returns a dict of per-replicate arrays (axis 0: one independent network
    each) drawn from ``be``, the backend of the stream (``name``, row, block), so block b
    always holds the same numbers, on numpy or CuPy alike (copied to the host here).
    ``simulate`` must be a module-level function (blocks may be drawn in other processes);
    ``name`` names the measurement (claims that share it are drawn once).

    >>> import numpy as np
    >>> s = grid_sampling(name="demo.sq", grid={"n": (2, 8)}, simulate=_demo, replicates=3)
    >>> from theory.core import RunContext
    >>> b = s.draw(RunContext(), 0)
    >>> [r.labels["n"] for r in b.rows], b.rows[0]["x"].shape
    ([2, 8], (3,))
    """
    if not isinstance(replicates, int) or isinstance(replicates, bool) or replicates < 2:
        raise ValueError(f"replicates must be an integer >= 2 (a variance needs two), got {replicates!r}")
    points = tuple(tuple(p.items()) for p in grid_points(grid))
    draw = functools.partial(_draw_grid, name=name, points=points, simulate=simulate, replicates=replicates)
    return Sampling(draw=draw, first=first, budget=budget, growth=growth, threads=threads)


def _demo(be, replicates, n):
    """A doctest's simulator: the squared norm of a standard normal n-vector over n."""
    x = be.normal((replicates, n))
    return {"x": (x * x).sum(axis=-1) / n}


def _floats(given: dict) -> dict:
    return {k: numeric(v) for k, v in given.items()}


@helper
def mean_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, target: Callable,
               labels: tuple, tol: float, method: str, constants: Mapping[str, Named] | None = None,
               relative: bool = True, mutations=(), **fields):
    """Per row of the sampled record, E[row[value]] = target(row, **constants), within
    +-tol (relative to |target| unless ``relative`` is False): fails when a row's t-test
    rejects the target, holds when every interval lies in the band
    (:func:`theory.judges.judge_means`). Mutations: each wrong value of each constant;
    without constants, the target times 1 + 2 tol."""
    consts = _constants(constants, reserved=("scale",))

    def judge(m, ctx, scale=1.0, **given):
        check_constants(given, consts)
        c = _floats(given)
        return judge_means(m.rows, lambda r: r[value], lambda r: scale * target(r, **c), labels, tol, method, ctx,
                           relative=relative)

    generated = constant_mutations(consts) or (Mutation(f"target times {1 + 2 * tol:g}", {"scale": 1 + 2 * tol}),)
    return assemble(id=id, where=where, statement=statement, kind="identity", measure=sampling, judge=judge,
                    constants=consts, generated=generated, mutations=mutations, **fields)


@helper
def band_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, target: Callable,
               labels: tuple, tol: float, method: str, constants: Mapping[str, Named] | None = None,
               relative: bool = False, mutations=(), **fields):
    """Per row, |E[row[value]] - target(row, **constants)| <= tol (times |target| if
    ``relative``): a statement that itself allows the band ("within 0.05"). Fails only
    when a row's interval lies outside the band, holds when every one lies inside
    (:func:`theory.judges.judge_means` with ``within``). Mutations: each wrong value of
    each constant; without constants, the target moved by 3 tol (the band moved past
    itself)."""
    consts = _constants(constants, reserved=("shift",))

    def judge(m, ctx, shift=0.0, **given):
        check_constants(given, consts)
        c = _floats(given)

        def moved(r):
            t = target(r, **c)
            return t + shift * (abs(t) if relative else 1.0)

        return judge_means(m.rows, lambda r: r[value], moved, labels, tol, method, ctx, relative=relative,
                           within=True)

    generated = constant_mutations(consts) or (Mutation(f"target moved by {3 * tol:g}", {"shift": 3 * tol}),)
    return assemble(id=id, where=where, statement=statement, kind="approximation", measure=sampling, judge=judge,
                    constants=consts, generated=generated, mutations=mutations, **fields)


def _stated(x, what: str) -> Named:
    n = x if isinstance(x, Named) else Named(x)
    if not math.isfinite(numeric(n.value)):
        raise ValueError(f"{what} must be finite, got {n.value!r}")
    return n


@helper
def exponent_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, axis: str,
                   exponent, tol: float, method: str, mutations=(), **fields):
    """The mean of row[value] scales as row.<axis>^exponent (a power law fitted to the
    row means over the ladder), within +-tol: fails only when the fitted exponent's
    interval lies outside the band (:func:`theory.judges.judge_exponent`). ``exponent``
    is a number or a :class:`Named` one with its wrong values (each a mutation); a plain
    number's mutation moves it by 4 tol."""
    stated = _stated(exponent, "exponent")

    def judge(m, ctx, exponent=stated.value):
        xs = [r.labels[axis] for r in m.rows]
        ests = [stats.estimate(r[value]) for r in m.rows]
        fit = stats.power_law(xs, [e.mean for e in ests], [e.se for e in ests], point_df=min(e.df for e in ests))
        lo, hi = fit.interval(1, ctx.alpha)
        plot = {"kind": "power_law", "xlabel": axis, "ylabel": value,
                "series": [{"label": value, "x": xs, "y": [e.mean for e in ests], "se": [e.se for e in ests],
                            "exponent": float(fit.coef[1]), "interval": [lo, hi]}]}
        return judge_exponent([({}, fit)], 1, numeric(exponent), tol, method, ctx, plot=plot)

    generated = constant_mutations({"exponent": stated}) or (
        Mutation(f"exponent {numeric(stated.value) + 4 * tol:g}", {"exponent": numeric(stated.value) + 4 * tol}),)
    return assemble(id=id, where=where, statement=statement, kind="approximation", measure=sampling, judge=judge,
                    constants={}, params={"exponent": stated.value}, generated=generated, mutations=mutations,
                    **fields)


@helper
def limit_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, target, tol: float,
                method: str, width: str = "width", error: str = "rms", order: float = 1.0, mutations=(), **fields):
    """row[value] -> target as row.<width> grows: the limit of the fitted
    mean(w) = c + a w^-order lies in target +- tol |target|, and with ``error="rms"``
    each network's RMS error decays (:func:`theory.judges.judge_limit`; holds
    approximately). ``target`` is a number or a :class:`Named` one; a plain non-zero
    number's mutation moves it by 3 tol relative (past the band)."""
    stated = _stated(target, "target")

    def judge(m, ctx, target=stated.value):
        return judge_limit(m.rows, value, numeric(target), tol, method, ctx, error=error, width=width, order=order)

    t = numeric(stated.value)
    generated = constant_mutations({"target": stated})
    if not generated:
        if t == 0:
            raise ValueError("a limit of 0 has no relative band to move past: give target=Named(0, wrong=(...))")
        generated = (Mutation(f"target {t * (1 + 3 * tol):g}", {"target": t * (1 + 3 * tol)}),)
    return assemble(id=id, where=where, statement=statement, kind="approximation", measure=sampling, judge=judge,
                    constants={}, params={"target": stated.value}, generated=generated, mutations=mutations,
                    **fields)


@helper
def bound_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, bound: Callable,
                labels: tuple, method: str, constants: Mapping[str, Named] | None = None, relation: str = "<=",
                attainable: Callable | None = None, what: str = "E[X]", mutations=(), **fields):
    """Per row, E[row[value]] <relation> bound(row, **constants), one-sided tests
    (:func:`theory.judges.judge_bounds`): rows where the bound cannot bite
    (``attainable``) are uninformative, and the evidence carries the bound's tightness
    on the worst informative row (a bound that would still hold moved by a factor 2
    prints "holds, loose"). Mutations: each wrong value of each constant, which must
    include a bound that the data refute (a tighter constant); there is no generic one,
    since how far a bound may move depends on how loose it is."""
    if relation not in ("<=", ">="):
        raise ValueError(f"relation must be '<=' or '>=', got {relation!r}")
    consts = _constants(constants)
    generated = constant_mutations(consts)
    if not generated and not mutations:
        raise ValueError(f"a bound claim needs a constant with wrong values (a tighter bound the data refute) or "
                         f"declared mutations (claim {id})")

    def judge(m, ctx, **given):
        check_constants(given, consts)
        c = _floats(given)
        return judge_bounds(m.rows, lambda r: r[value], lambda r: bound(r, **c), labels, method, ctx, claim=relation,
                            attainable=attainable, what=what)

    return assemble(id=id, where=where, statement=statement, kind="inequality", measure=sampling, judge=judge,
                    constants=consts, generated=generated, mutations=mutations, **fields)
