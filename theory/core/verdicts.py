"""Verdicts and the rules that combine them: defined in the lowest layer,
:mod:`theory.verdicts`, and re-exported here."""
from ..verdicts import DECIDED, Verdict, band_verdict, combine, decided

__all__ = ["Verdict", "DECIDED", "combine", "band_verdict", "decided"]
