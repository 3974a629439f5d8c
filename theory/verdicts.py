"""Verdicts and the rules that combine them, and :class:`TooFewReplicates`: the types
that the tests of :mod:`theory.stats` return and raise, shared by every layer. The
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
from typing import Iterable

__all__ = ["Verdict", "DECIDED", "combine", "band_verdict", "decided", "TooFewReplicates"]


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
