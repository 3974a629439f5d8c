"""Verdicts, the rules that combine them and that read them off an interval (against a
band, :func:`band_verdict`, or a bound, :func:`inequality_verdict`), how far an interval is
from deciding (:func:`shortfall`), and :class:`TooFewReplicates`: the types that the tests
of :mod:`theory.stats` return and raise, shared by every layer. The
lowest module of ``theory``: it imports nothing of it (:mod:`theory.core` re-exports it).

The burden of proof: ``fails`` only when the data reject the statement at the stated
alpha; ``holds`` only when an interval lies inside the statement's tolerance band;
everything else is ``inconclusive``.

>>> band_verdict(0.98, 1.01, 0.95, 1.05).value
'holds'
>>> band_verdict(1.06, 1.2, 0.95, 1.05).value
'fails'
>>> band_verdict(0.9, 1.01, 0.95, 1.05).value
'inconclusive'
>>> combine([Verdict.HOLDS, Verdict.INCONCLUSIVE]).value
'inconclusive'
"""
from __future__ import annotations

import enum
import math
from typing import Iterable

__all__ = ["Verdict", "DECIDED", "combine", "band_verdict", "inequality_verdict", "shortfall", "decided",
           "TooFewReplicates"]


class TooFewReplicates(ValueError):
    """A test was asked of fewer replicates than it needs (no variance to estimate, or
    fewer than the calibrated minimum, :data:`theory.stats.means.MIN_REPLICATES`): the
    sequential runner does not judge that look; it draws more, or says
    ``inconclusive`` when its budget is spent."""


class Verdict(str, enum.Enum):
    HOLDS = "holds"
    HOLDS_APPROXIMATELY = "holds_approximately"
    FAILS = "fails"
    INCONCLUSIVE = "inconclusive"

    def __str__(self) -> str:
        return self.value

    @property
    def words(self) -> str:
        """The verdict as words (``holds approximately``)."""
        return self.value.replace("_", " ")


#: Verdicts that settle a claim; a sequential check stops at the first of these.
DECIDED = frozenset({Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS})


def decided(v: Verdict) -> bool:
    return v in DECIDED


def combine(verdicts: Iterable[Verdict], ok: Verdict = Verdict.HOLDS) -> Verdict:
    """fails if any part fails; else inconclusive if any part is; else ``ok``."""
    vs = list(verdicts)
    if Verdict.FAILS in vs:
        return Verdict.FAILS
    if Verdict.INCONCLUSIVE in vs or not vs:
        return Verdict.INCONCLUSIVE
    return ok


def band_verdict(lo: float, hi: float, band_lo: float, band_hi: float, ok: Verdict = Verdict.HOLDS) -> Verdict:
    """A confidence interval [lo, hi] against the band a claim allows: ``ok`` when the
    interval lies inside, fails when it misses the band entirely, inconclusive otherwise."""
    if lo >= band_lo and hi <= band_hi:
        return ok
    if hi < band_lo or lo > band_hi:
        return Verdict.FAILS
    return Verdict.INCONCLUSIVE


def inequality_verdict(lower: float, upper: float, bound: float, claim: str,
                       ok: Verdict = Verdict.HOLDS) -> Verdict:
    """Verdict of the claim ``value <claim> bound`` (claim one of ``<=``, ``<``, ``>=``,
    ``>``) from one-sided (1 - alpha) limits ``lower`` and ``upper`` of the value: ``ok``
    when the interval shows it, fails when the interval shows the opposite."""
    if claim in (">=", ">"):  # -value < -bound
        return inequality_verdict(-upper, -lower, -bound, "<" + claim[1:], ok)
    if claim not in ("<=", "<"):
        raise ValueError(f"claim must be one of '<=', '<', '>=', '>', got {claim!r}")
    if upper < bound or (claim == "<=" and upper == bound):
        return ok
    return Verdict.FAILS if lower > bound or (claim == "<" and lower == bound) else Verdict.INCONCLUSIVE


def shortfall(estimate: float, interval, target: float, band=None, kind: str = "equals") -> float:
    """How many times too wide ``interval`` is to decide a test if ``estimate`` stays
    where it is (at most 1 once decided): on each side, the interval's extent from the
    estimate over the distance it must clear on that side. ``kind``: "equals" (decided by
    holding inside ``band`` or by failing at ``target``, whichever needs less), "within"
    (by the end facing the band edge), "bound" (by the end facing the bound ``target``).
    An estimate on the edge (or on the bound) gives inf: no sample size settles it.

    >>> round(shortfall(0.9, (0.7, 1.1), 1.0, (0.8, 1.2), "within"), 6)  # 0.7 must reach 0.8: 0.2 over 0.1
    2.0
    >>> round(shortfall(1.1, (1.05, 1.4), 1.0, kind="bound"), 6)  # the lower end faces the bound
    0.5
    """
    check = ("equals", "within", "bound")
    if kind not in check:
        raise ValueError(f"kind must be one of {check}, got {kind!r}")
    est, (lo, hi) = estimate, interval

    def ratio(extent, room):
        return extent / room if room > 0 else math.inf

    def facing(edge):  # the end on the side of ``edge`` must not reach past it
        return ratio(hi - est, edge - est) if edge >= est else ratio(est - lo, est - edge)

    if kind == "bound":
        return facing(target)
    b_lo, b_hi = band
    inside = b_lo < est < b_hi
    hold = max(ratio(est - lo, est - b_lo), ratio(hi - est, b_hi - est)) if inside else math.inf
    if kind == "within":
        return hold if inside else (facing(b_hi) if est >= b_hi else facing(b_lo))
    return min(hold, facing(target)) if est != target else hold
