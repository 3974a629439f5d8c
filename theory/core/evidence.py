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
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .verdicts import Verdict

__all__ = ["Evidence", "jsonable"]


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
        rows += [d for d in self.details if isinstance(d, dict) and (d.get("verdict") == "fails" or d.get("ok") is False)]
        names = [r.get(k) for r in rows for k in ("part", "label") if isinstance(r.get(k), str)]
        return list(dict.fromkeys(names))

    def to_json(self) -> dict:
        return {k: jsonable(getattr(self, k)) for k in (
            "verdict", "measured", "expected", "margin", "margin_unit", "method", "resolution", "counterexample",
            "informative", "shortfall", "settle", "sampling", "details")}


def _shortfall(self) -> float | None:
    """The shortfall set last, while the verdict is inconclusive; None otherwise (set
    before or after the verdict alike)."""
    return self.__dict__.get("_shortfall") if self.verdict == Verdict.INCONCLUSIVE else None


def _set_shortfall(self, value: float | None) -> None:
    self.__dict__["_shortfall"] = value


# read-time rule (not set-time): a judge may set the shortfall before it combines the verdict
Evidence.shortfall = property(_shortfall, _set_shortfall, doc=_shortfall.__doc__)


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
