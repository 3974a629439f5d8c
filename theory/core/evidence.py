"""What a check found: the verdict and the numbers behind it.

``margin`` is a signed distance to the decision boundary in ``margin_unit`` (negative
unless the claim holds); ``resolution`` says what the check could detect;
``informative`` is False when the check could not have failed where it ran (a bound
above the quantity's largest possible value); ``shortfall`` is the
resolution reached over the resolution the claim needs (above 1: underpowered); it
describes an inconclusive verdict only, so it reads None while the verdict is decided,
whatever the order in which the two were set;
``settle`` says what would decide an inconclusive verdict; ``sampling`` (filled by the runner) records the sequential
looks; ``plot`` holds the data of the claim's evidence plot.

``tightness`` (bound claims) says how far a bound stands from what the data allow:
``factor``, the factor by which the bound could move towards the data and still hold
on the worst informative row (1 is tight), that ``row``, and ``loose`` when the factor
is at least :data:`LOOSE_FACTOR` (the verdict line then reads "holds, loose"; see
:func:`bound_tightness`). ``follows`` (proof steps) says whether the step follows from
the printed steps it cites (:attr:`theory.core.claims.Claim.derivation`).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .verdicts import Verdict

__all__ = ["Evidence", "jsonable", "LOOSE_FACTOR", "bound_tightness"]

#: A bound that would still hold moved by this factor towards the data is loose.
LOOSE_FACTOR = 2.0


@dataclass
class Evidence:
    verdict: Verdict
    measured: Any
    expected: Any
    method: str
    resolution: Any
    margin: float | None = None
    margin_unit: str = ""
    counterexample: Any = None
    details: list = field(default_factory=list)
    informative: bool | None = None
    shortfall: float | None = None
    settle: str | None = None
    sampling: dict | None = None
    plot: dict | None = None
    tightness: dict | None = None
    follows: dict | None = None

    def fail_part(self, counterexample: dict, replace: bool = False) -> None:
        """Fail this evidence on one more part of the statement: the verdict becomes
        fails (which hides the shortfall), and
        ``counterexample`` (a dict naming the failed ``part``) is recorded unless an
        earlier part already gave one (the first failing part is the one shown) or
        ``replace`` (an exact counterexample shown before a statistical one); a replaced
        counterexample stays listed as a failing row of ``details`` (unless it is one
        already), so :meth:`failed_parts` still names its part.

        >>> ev = Evidence(Verdict.INCONCLUSIVE, 1.0, 1.0, "m", "r", shortfall=3.0)
        >>> ev.fail_part({"part": "a stated zero", "value": 0.5})
        >>> ev.verdict.value, ev.shortfall, ev.counterexample["part"]
        ('fails', None, 'a stated zero')
        >>> ev.fail_part({"part": "another"}); ev.counterexample["part"]
        'a stated zero'
        >>> ev.fail_part({"part": "an exact row"}, replace=True); ev.counterexample["part"]
        'an exact row'
        >>> ev.failed_parts()
        ['an exact row', 'a stated zero']
        """
        if not isinstance(counterexample, dict) or "part" not in counterexample:
            raise ValueError(f"counterexample must be a dict naming the failed 'part', got {counterexample!r}")
        self.verdict = Verdict.FAILS
        if replace and isinstance(self.counterexample, dict) and self.counterexample not in self.details:
            self.details.append({**self.counterexample, "verdict": "fails"})
        if replace or self.counterexample is None:
            self.counterexample = counterexample

    def name_part(self, part: str, replace: bool = False, otherwise: dict | None = None) -> None:
        """Name the failed ``part`` first in the counterexample (a dict, or ``otherwise``
        when there is none; nothing happens when neither is a dict). A part the
        counterexample already names is kept unless ``replace``.

        >>> ev = Evidence(Verdict.FAILS, 1.0, 0.0, "m", "r", counterexample={"n": 3})
        >>> ev.name_part("Eq. 2"); ev.counterexample
        {'part': 'Eq. 2', 'n': 3}
        >>> ev.name_part("Eq. 3"); ev.counterexample["part"]
        'Eq. 2'
        >>> ev.name_part("Eq. 3", replace=True); ev.counterexample
        {'part': 'Eq. 3', 'n': 3}
        """
        shown = self.counterexample if isinstance(self.counterexample, dict) else otherwise
        if isinstance(shown, dict):
            rest = {k: v for k, v in shown.items() if k != "part"}
            self.counterexample = {"part": part if replace or "part" not in shown else shown["part"], **rest}

    def failed_parts(self) -> list:
        """The names of the parts this evidence failed on: the counterexample's ``part``
        or ``label`` and those of every failing row of ``details`` (``verdict`` "fails" or
        ``ok`` False), in order, without repeats.

        >>> ev = Evidence(Verdict.FAILS, 1.0, 0.0, "m", "r", counterexample={"part": "a zero"},
        ...               details=[{"label": "sympy step", "ok": False}, {"label": "other", "ok": True}])
        >>> ev.failed_parts()
        ['a zero', 'sympy step']
        """
        rows = [self.counterexample] if isinstance(self.counterexample, dict) else []
        rows += [d for d in self.details
                 if isinstance(d, dict) and (d.get("verdict") == "fails" or d.get("ok") is False)]
        names = [r.get(k) for r in rows for k in ("part", "label") if isinstance(r.get(k), str)]
        return list(dict.fromkeys(names))

    def to_json(self) -> dict:
        return {k: jsonable(getattr(self, k)) for k in (
            "verdict", "measured", "expected", "margin", "margin_unit", "method", "resolution", "counterexample",
            "informative", "shortfall", "settle", "sampling", "tightness", "follows", "details")}

    @property
    def loose(self) -> bool:
        """A bound that holds with room of :data:`LOOSE_FACTOR` or more."""
        return bool(self.tightness and self.tightness.get("loose"))


def _shortfall(self) -> float | None:
    """The shortfall set last, while the verdict is inconclusive; None otherwise (set
    before or after the verdict alike)."""
    return self.__dict__.get("_shortfall") if self.verdict == Verdict.INCONCLUSIVE else None


def _set_shortfall(self, value: float | None) -> None:
    self.__dict__["_shortfall"] = value


# read-time rule (not set-time): a judge may set the shortfall before it combines the verdict
Evidence.shortfall = property(_shortfall, _set_shortfall, doc=_shortfall.__doc__)


def bound_tightness(limit: float, bound: float, claim: str, row: dict | None = None) -> dict:
    """How tight the bound ``bound`` is against ``limit``, the data's limit on the
    bounded side (an upper confidence limit, or the largest value, for a ``<=`` claim;
    a lower one, or the smallest, for ``>=``). Both positive: ``factor`` is the ratio
    (bound / limit for ``<=``, limit / bound for ``>=``), the factor by which the bound
    could move towards the data and still hold; otherwise the ratio has no meaning and
    ``factor`` is None with the absolute ``gap`` alone. ``loose`` when factor >=
    :data:`LOOSE_FACTOR`.

    >>> bound_tightness(0.1, 1.25, "<=")
    {'factor': 12.5, 'gap': 1.15, 'loose': True, 'row': None}
    >>> bound_tightness(0.9, 1.0, "<=", {"depth": 3})["loose"]
    False
    >>> bound_tightness(-0.5, 0.5, ">=")["factor"] is None
    True
    """
    if claim not in ("<=", ">=", "<", ">"):
        raise ValueError(f"claim must be one of '<=', '>=', '<', '>', got {claim!r}")
    upper = claim.startswith("<")
    gap = float(bound - limit) if upper else float(limit - bound)
    factor = None
    if limit > 0 and bound > 0 and math.isfinite(limit) and math.isfinite(bound):
        factor = float(bound / limit) if upper else float(limit / bound)
    return {"factor": factor, "gap": round(gap, 12), "loose": factor is not None and factor >= LOOSE_FACTOR,
            "row": row}


def jsonable(x):
    """``x`` with numpy scalars, enums and non-finite floats made JSON-safe."""
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return jsonable(x.tolist())
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else str(x)
    if isinstance(x, enum.Enum):
        return x.value
    if x is None or isinstance(x, (int, str)):
        return x
    return str(x)
