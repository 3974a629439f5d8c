"""Exact claims in a few lines: a sympy identity, a named constant, and an mpmath
evaluation over a grid at two precisions (the statement's two sides, or a bound with
its tightness).

>>> import sympy as sp
>>> n = sp.Symbol("n", positive=True)
>>> c = constant_claim(id="demo.uniform", where="Eq. 15", statement="n Var[U(-1/sqrt n, 1/sqrt n)] = 1/3",
...                    value=lambda: n * (1 / sp.sqrt(n)) ** 2 / 3, constant="1/3", wrong=("1/2", 1))
>>> from theory.core import evaluate
>>> evaluate(c).verdict.value, [(m.name, evaluate(c, **m.params).verdict.value) for m in c.mutations]
('holds', [('constant = 1/2', 'fails'), ('constant = 1', 'fails')])
"""
from __future__ import annotations

import itertools
from typing import Callable, Mapping, Sequence

import mpmath
import sympy as sp

from ..core import Mutation, Verdict
from ..core.claims import AtPrecision
from ..core.evidence import bound_tightness
from ..judges import judge_exact, tightest
from .base import Named, _constants, assemble, check_constants, constant_mutations, exact, helper, named_measure

__all__ = ["identity_claim", "constant_claim", "precision_claim", "grid_points", "RESOLUTION"]

#: The resolution mutation of a two-precision equality: the right side moved by 10^-(dps - 10)
#: relative, five digits above the tolerance 10^-(dps - 5) at every precision.
RESOLUTION = AtPrecision(lambda dps: f"1e-{dps - 10}", "10^-(dps - 10)")


@helper
def identity_claim(*, id: str, where: str, statement: str, lhs: Callable[[], sp.Expr], rhs: Callable[..., sp.Expr],
                   constants: Mapping[str, Named] | None = None, mutations=(), **fields):
    """lhs() - rhs(**constants) simplifies to 0 (sympy). The left side is the measurement
    (computed and simplified once, in the cached measurement); the right side is the
    statement, built from its named constants, each wrong value of which is a mutation.
    Without constants the generated mutation adds 1 to the right side.

    >>> import sympy as sp
    >>> n = sp.Symbol("n", positive=True)
    >>> c = identity_claim(id="demo.square", where="Eq. 1", statement="(n+1)^2 = n^2 + k n + 1",
    ...                    lhs=lambda: (n + 1) ** 2, rhs=lambda k: n**2 + k * n + 1,
    ...                    constants={"k": Named(2, wrong=(1, 4))})
    >>> from theory.core import evaluate
    >>> evaluate(c).verdict.value, [evaluate(c, **m.params).verdict.value for m in c.mutations]
    ('holds', ['fails', 'fails'])
    """
    consts = _constants(constants, reserved=("offset",))

    def measure(ctx):  # the left side and its simplified form, once (the mutations reuse them)
        left = sp.sympify(lhs())
        return {"lhs": left, "shown": str(sp.simplify(left))}

    def judge(m, ctx, offset=0, **given):
        check_constants(given, consts)
        right = sp.sympify(rhs(**{k: exact(v) for k, v in given.items()})) + offset
        diff = sp.simplify(m["lhs"] - right)
        return judge_exact([{"label": statement, "ok": diff == 0, "measured": m["shown"],
                             "expected": str(sp.simplify(right)), "counterexample": {"lhs - rhs": str(diff)}}],
                           "sympy simplify", "exact")

    generated = constant_mutations(consts) if consts else (Mutation("right side + 1", {"offset": 1}),)
    return assemble(id=id, where=where, statement=statement, kind="identity",
                    measure=named_measure(measure, "identity_claim", id), judge=judge, constants=consts,
                    generated=generated, mutations=mutations, **fields)


@helper
def constant_claim(*, id: str, where: str, statement: str, value: Callable[[], sp.Expr], constant, wrong: tuple,
                   name: str = "constant", mutations=(), **fields):
    """value() equals the named constant exactly (sympy); each of ``wrong`` (plausible
    misprints or misremembered values) is a mutation that must fail. A constant given as
    text ("1/3") or a float that rounds a simple number is read exactly."""
    return identity_claim(id=id, where=where, statement=statement, lhs=value, rhs=lambda **c: c[name],
                          constants={name: Named(constant, wrong)}, mutations=mutations, **fields)


def grid_points(grid: Mapping[str, Sequence] | Sequence[Mapping]) -> tuple:
    """The points of a grid: a sequence of dicts as given, or every combination of a dict
    of value lists (in order).

    >>> grid_points({"a": (1, 2), "b": (3,)})
    ({'a': 1, 'b': 3}, {'a': 2, 'b': 3})
    """
    if isinstance(grid, Mapping):
        names = list(grid)
        points = tuple(dict(zip(names, combo)) for combo in itertools.product(*(tuple(grid[k]) for k in names)))
    else:
        points = tuple(dict(p) for p in grid)
    if not points:
        raise ValueError(f"grid must have at least one point, got {grid!r}")
    return points


def _mpf(value):
    """A constant at the working precision: an exact number as an mpf, anything else as given."""
    e = exact(value)
    if isinstance(e, sp.Basic):
        return mpmath.mpf(sp.N(e, mpmath.mp.dps + 5))
    return value


@helper
def precision_claim(*, id: str, where: str, statement: str, grid, lhs: Callable[..., object],
                    rhs: Callable[..., object], relation: str = "=", constants: Mapping[str, Named] | None = None,
                    shared: Callable[..., Mapping] | None = None, resolution: bool = True, mutations=(), **fields):
    """lhs(**point) <relation> rhs(**point, **constants) at every point of ``grid``
    (:func:`grid_points`), each side evaluated with mpmath at the run's two precisions
    (``ctx.precisions``: dps and dps + 20). Both precisions must agree on each side to
    the tolerance 10^-(dps - 5) (relative to max(1, |value|)); then the statement is
    judged at the higher one to that tolerance: ``=`` within it, ``<=``/``>=`` up to it.
    A point where the precisions disagree decides nothing: the claim is then
    inconclusive (raise dps), never failed by rounding.

    The left side is the measurement (computed once per precision, cached); the right
    side is the statement, from its named constants (exact numbers reach it as mpf at
    the working precision; a form's name as given), evaluated once per precision for
    each setting of the constants (the resolution mutation reuses the stated one). Work
    that does not depend on the constants (a fixed point, an integral both sides use)
    goes in ``shared(**point)``, a dict computed once per point and precision in the
    measurement and passed to ``lhs`` and ``rhs`` as keyword arguments: a mutation then
    recomputes only what the constants change. Generated mutations: each wrong value of
    each constant, and for ``=`` (unless ``resolution`` is False) the right side moved by
    10^-(dps - 10) relative (:data:`RESOLUTION`), which shows the comparison resolves
    beyond double precision. A bound (``<=``, ``>=``) reports its tightness
    (:func:`theory.core.evidence.bound_tightness`, tightest point).
    """
    if relation not in ("=", "<=", ">="):
        raise ValueError(f"relation must be one of '=', '<=', '>=', got {relation!r}")
    points = grid_points(grid)
    consts = _constants(constants, reserved=("shift",))
    stated: dict = {}  # (dps, constants) -> rhs at every point: each setting evaluated once (the sides are exact)

    def measure(ctx):
        left, common = {}, {}
        for dps in ctx.precisions:
            with mpmath.workdps(dps):
                common[dps] = [dict(shared(**p)) if shared is not None else {} for p in points]
                left[dps] = [mpmath.mpmathify(lhs(**p, **c)) for p, c in zip(points, common[dps])]
        return {"lhs": left, "shared": common}

    def right_side(dps, common, given):
        key = (dps, tuple(sorted((k, repr(v)) for k, v in given.items())))
        if key not in stated:
            with mpmath.workdps(dps):
                c = {k: _mpf(v) for k, v in given.items()}
                stated[key] = [mpmath.mpmathify(rhs(**p, **s, **c)) for p, s in zip(points, common)]
        return stated[key]

    def judge(measured, ctx, shift=0, **given):
        check_constants(given, consts)
        lo, hi = ctx.precisions
        m, right = measured["lhs"], {}
        for dps in (lo, hi):
            with mpmath.workdps(dps):
                right[dps] = [b * (1 + mpmath.mpf(shift)) for b in right_side(dps, measured["shared"][dps], given)]
        checks, undecided, tight = [], [], []
        with mpmath.workdps(hi):
            tol = mpmath.mpf(10) ** (5 - lo)
            for i, p in enumerate(points):
                a, b = m[hi][i], right[hi][i]
                agree = all(abs(s[lo][i] - s[hi][i]) <= tol * max(1, abs(s[hi][i])) for s in (m, right))
                if not agree:
                    undecided.append(p)
                    continue
                scale = tol * max(1, abs(b))
                gap = a - b if relation != ">=" else b - a
                ok = abs(gap) <= scale if relation == "=" else gap <= scale
                digits = float(mpmath.log10(scale / abs(gap))) if relation == "=" and gap != 0 else None
                if relation != "=":
                    tight.append(bound_tightness(float(a), float(b), relation, p))
                checks.append({"label": f"{_where(p)} at {lo} and {hi} digits", "ok": bool(ok),
                               "measured": mpmath.nstr(a, 20), "expected": f"{relation} {mpmath.nstr(b, 20)}",
                               "counterexample": {**p, "lhs": mpmath.nstr(a, 20), "rhs": mpmath.nstr(b, 20)},
                               **({"margin_digits": digits} if digits is not None else {})})
        method = (f"mpmath at {lo} and {hi} digits over {len(points)} grid points, the two precisions agreeing to "
                  f"10^-{lo - 5} (relative)")
        if not checks:
            checks = [{"label": "no point where the two precisions agree", "ok": True, "measured": None,
                       "expected": statement, "informative": False}]
        ev = judge_exact(checks, method, f"tolerance 10^-{lo - 5} relative to max(1, |rhs|)")
        if undecided and ev.verdict != Verdict.FAILS:
            ev.verdict = Verdict.INCONCLUSIVE
            ev.settle = (f"the two precisions disagree at {len(undecided)} points (first {undecided[0]}): rerun at "
                         "a higher dps or evaluate those points more stably")
        if tight:
            ev.tightness = tightest(tight)
        return ev

    generated = constant_mutations(consts)
    if relation == "=" and resolution:
        generated += (Mutation("right side x (1 + 10^-(dps - 10))", {"shift": RESOLUTION}),)
    return assemble(id=id, where=where, statement=statement, kind="identity" if relation == "=" else "inequality",
                    measure=named_measure(measure, "precision_claim", id), judge=judge, constants=consts,
                    generated=generated, mutations=mutations, **fields)


def _where(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "the point"
