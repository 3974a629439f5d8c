"""Small helpers for the common kinds of claim, so that a new paper's catalogue reads
as data: an exact identity (sympy), a mean that equals a prediction (Monte Carlo), and
a scaling exponent (Monte Carlo over a ladder of widths or depths).

Each returns a :class:`~theory.core.claims.Claim`; the statement's constants are the
judge's ``params``, so the declared mutations perturb them.

>>> import sympy as sp
>>> n = sp.Symbol("n", positive=True)
>>> c = identity_claim(id="demo.square", where="Eq. 1", statement="(n+1)^2 = n^2 + 2n + 1",
...                    lhs=lambda: (n + 1) ** 2, rhs=lambda: n**2 + 2 * n + 1)
>>> from theory.core import evaluate
>>> evaluate(c).verdict.value, evaluate(c, offset=1).verdict.value
('holds', 'fails')
"""
from __future__ import annotations

import math
from typing import Callable

import sympy as sp

from . import stats
from .core import Claim, Mutation, Sampling, Verdict
from .judges import judge_exact, judge_exponent, judge_means

__all__ = ["identity_claim", "mean_claim", "exponent_claim"]


def identity_claim(*, id: str, where: str, statement: str, lhs: Callable[[], sp.Expr], rhs: Callable[[], sp.Expr],
                   recorded: Verdict = Verdict.HOLDS, mutations=None, corrects: str | None = None,
                   note: str = "") -> Claim:
    """lhs() - rhs() simplifies to 0 (sympy). The built-in mutation adds ``offset`` = 1
    to the right side, which must then fail."""
    def measure(ctx):
        return {"lhs": lhs(), "rhs": rhs()}

    def judge(m, ctx, offset=0):
        diff = sp.simplify(m["lhs"] - m["rhs"] - offset)
        return judge_exact([{"label": statement, "ok": diff == 0, "measured": str(sp.simplify(m["lhs"])),
                             "expected": str(sp.simplify(m["rhs"] + offset)),
                             "counterexample": {"lhs - rhs": str(diff)}}], "sympy simplify", "exact")

    muts = mutations if mutations is not None else (Mutation("right side + 1", {"offset": 1}),)
    return Claim(id=id, where=where, statement=statement, kind="identity", recorded=recorded, measure=measure,
                 judge=judge, mutations=muts, corrects=corrects, note=note)


def mean_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, target: Callable,
               labels: tuple, tol: float, method: str, recorded: Verdict = Verdict.HOLDS, mutations=None,
               corrects: str | None = None, slow: bool = False, note: str = "") -> Claim:
    """Per row of the sampled record, E[row[value]] = scale * target(row), within +-tol
    (relative). The built-in mutation scales the target by 1 + 2 tol (twice the band)."""
    def judge(m, ctx, scale=1.0):
        return judge_means(m.rows, lambda r: r[value], lambda r: scale * target(r), labels, tol, method, ctx)

    muts = mutations if mutations is not None else (Mutation(f"target times {1 + 2 * tol:g}", {"scale": 1 + 2 * tol}),)
    return Claim(id=id, where=where, statement=statement, kind="identity", recorded=recorded, measure=sampling,
                 judge=judge, mutations=muts, corrects=corrects, slow=slow, note=note)


def exponent_claim(*, id: str, where: str, statement: str, sampling: Sampling, value: str, axis: str,
                   exponent: float, tol: float, method: str, recorded: Verdict = Verdict.HOLDS, mutations=None,
                   corrects: str | None = None, slow: bool = False, note: str = "") -> Claim:
    """The mean of row[value] scales as row.<axis>^exponent (power-law fit of the row
    means over the ladder), within +-tol. The built-in mutation moves the exponent by
    4 tol."""
    def judge(m, ctx, exponent=exponent):
        xs = [r.labels[axis] for r in m.rows]
        ests = [stats.estimate(r[value]) for r in m.rows]
        fit = stats.power_law(xs, [e.mean for e in ests], [e.se for e in ests], point_df=min(e.df for e in ests))
        lo, hi = fit.interval(1, ctx.alpha)
        plot = {"kind": "power_law", "xlabel": axis, "ylabel": value,
                "series": [{"label": value, "x": xs, "y": [e.mean for e in ests], "se": [e.se for e in ests],
                            "exponent": float(fit.coef[1]), "interval": [lo, hi]}]}
        return judge_exponent([({}, fit)], 1, exponent, tol, method, ctx, plot=plot)

    muts = mutations if mutations is not None else (Mutation(f"exponent {exponent + 4 * tol:g}",
                                                             {"exponent": exponent + 4 * tol}),)
    if not math.isfinite(exponent):
        raise ValueError(f"exponent must be finite, got {exponent!r}")
    return Claim(id=id, where=where, statement=statement, kind="approximation", recorded=recorded, measure=sampling,
                 judge=judge, mutations=muts, corrects=corrects, slow=slow, note=note)
