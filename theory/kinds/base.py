"""What every claim helper shares: named constants and the mutations they generate,
measurement names that are the same in every process, and the claim's assembly.

A statement's constant is declared once, with the plausible wrong values a reader could
put in its place (a misremembered factor, an exponent off by one, the neighbouring
index): :class:`Named`. Its value is a judge parameter, so each wrong value is a
mutation of the same claim, judged on the same (cached) measurement, and the
statement-side callables of the helpers receive the constants as keyword arguments.

>>> muts = constant_mutations({"c": Named("1/3", wrong=("1/2", 1))})
>>> [(m.name, dict(m.params), m.expect.value) for m in muts]
[('c = 1/2', {'c': '1/2'}, 'fails'), ('c = 1', {'c': 1}, 'fails')]
>>> numeric("1/3"), numeric("columns"), numeric(0.25)
(0.3333333333333333, 'columns', 0.25)
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import sympy as sp

from ..core import Claim, Mutation, Verdict

__all__ = ["Named", "constant_mutations", "constant_params", "check_constants", "numeric", "exact",
           "named_measure", "assemble", "helper", "CLAIM_FIELDS"]

#: The :class:`~theory.core.claims.Claim` fields every helper passes through as given
#: (``**fields``); the others (id, kind, measure, judge, params, mutations) it builds itself.
CLAIM_FIELDS = ("recorded", "note", "severity", "impact", "corrects", "slow", "cites", "derivation")


@dataclass(frozen=True)
class Named:
    """A constant of a statement (``value``: a number, an exact text such as "1/3", a
    sympy number, or a form's name such as "columns") and the plausible wrong values
    its mutations substitute (each must fail), with ``labels`` naming what a wrong value
    means where its text alone does not (``{"odd": "parity labels swapped"}``; keys are
    the wrong values as text)."""

    value: Any
    wrong: tuple = ()
    labels: Mapping = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "wrong", tuple(self.wrong))
        if any(_same(w, self.value) for w in self.wrong):
            raise ValueError(f"wrong values must differ from the value {self.value!r}, got {self.wrong!r}")
        stray = sorted(set(map(str, self.labels)) - set(map(str, self.wrong)))
        if stray:
            raise ValueError(f"labels must name wrong values, {[str(w) for w in self.wrong]}; got {stray}")

    def mutation_name(self, name: str, wrong) -> str:
        label = {str(k): v for k, v in self.labels.items()}.get(str(wrong))
        return f"{name} = {wrong}" + (f" ({label})" if label else "")


def _same(a, b) -> bool:
    try:
        return bool(a == b) or str(a) == str(b)
    except TypeError:
        return False


def _constants(constants: Mapping[str, Named | Any] | None, reserved=()) -> dict:
    out = {}
    for name, c in (constants or {}).items():
        if not name.isidentifier() or name in reserved:
            raise ValueError(f"a constant's name must be an identifier other than {sorted(reserved)}, got {name!r}")
        out[name] = c if isinstance(c, Named) else Named(c)
    return out


def constant_mutations(constants: Mapping[str, Named]) -> tuple:
    """One mutation per wrong value of each constant, expecting fails."""
    return tuple(Mutation(c.mutation_name(name, w), {name: w}) for name, c in _constants(constants).items()
                 for w in c.wrong)


def constant_params(constants: Mapping[str, Named]) -> dict:
    """The judge parameters of the constants: their stated values."""
    return {name: c.value for name, c in _constants(constants).items()}


def check_constants(given: Mapping[str, Any], constants: Mapping[str, Named]) -> None:
    """A judge's keyword arguments must be constants of the statement (a mutation naming
    another would otherwise be ignored and pass for a check that failed)."""
    unknown = sorted(set(given) - set(constants))
    if unknown:
        raise TypeError(f"unknown parameters {unknown}; the statement's constants are {sorted(constants)}")


def exact(value):
    """``value`` as an exact sympy number when it is one (text "1/3", a float that rounds a
    simple number: :func:`theory.judges.exact_constant`), else ``value`` itself (a form's name)."""
    from ..judges import exact_constant

    if isinstance(value, (str, int, float, sp.Basic)) and not isinstance(value, bool):
        try:
            e = exact_constant(value)
        except (sp.SympifyError, TypeError, ValueError):
            return value
        if isinstance(e, sp.Basic) and e.is_number:
            return e
    return value


def numeric(value):
    """``value`` as a float when it is a number (exact text included), else itself."""
    e = exact(value)
    if isinstance(e, sp.Basic):
        x = float(e)
        if not math.isfinite(x):
            raise ValueError(f"a constant must be finite, got {value!r}")
        return x
    return value


def helper(fn: Callable) -> Callable:
    """A claim helper that refuses a keyword it does not take in one line naming itself and
    every field it accepts (its own parameters, then :data:`CLAIM_FIELDS` where it passes
    ``**fields`` on), instead of a TypeError from deep inside ``Claim``.

    >>> @helper
    ... def demo_claim(*, id, tol, **fields):
    ...     return id
    >>> demo_claim(id="x.y", tol=1, method="MC")
    Traceback (most recent call last):
    ...
    TypeError: demo_claim() got unknown field ['method']; it accepts id, tol, recorded, note, severity, impact, \
corrects, slow, cites, derivation
    """
    sig = inspect.signature(fn)
    own = [n for n, p in sig.parameters.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)]
    passes_on = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())
    accepted = own + [f for f in CLAIM_FIELDS if passes_on and f not in own]

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        unknown = sorted(set(kwargs) - set(accepted))
        if unknown:
            raise TypeError(f"{fn.__name__}() got unknown field{'s' if len(unknown) > 1 else ''} {unknown}; it accepts "
                            f"{', '.join(accepted)}")
        return fn(*args, **kwargs)

    return checked


def named_measure(fn: Callable, helper: str, claim_id: str) -> Callable:
    """``fn`` renamed after its claim, so that the measurement's name (its xdist group and
    cache key's name) differs between claims and is the same in every process."""
    fn.__qualname__ = fn.__name__ = f"{helper}.{claim_id}"
    return fn


def assemble(*, id: str, where: str, statement: str, kind: str, measure, judge, constants: Mapping[str, Named],
             generated: tuple, mutations=(), params: Mapping[str, Any] | None = None,
             recorded: Verdict = Verdict.HOLDS, **fields) -> Claim:
    """The claim: the constants' values as its params, the generated mutations followed by
    the declared ones, and every other field (note, severity, impact, corrects, slow,
    cites, derivation) as given."""
    return Claim(id=id, where=where, statement=statement, kind=kind, recorded=recorded, measure=measure, judge=judge,
                 params={**constant_params(constants), **(params or {})},
                 mutations=tuple(generated) + tuple(mutations), **fields)
