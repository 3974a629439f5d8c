"""Papers are discovered, not listed: every sub-package of ``theory`` whose
``__init__`` defines ``PAPER`` (a :class:`~theory.core.claims.Paper`) is a paper of the
catalogue. Adding a paper is adding its package; nothing else is edited by hand.
"""
from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import lru_cache

from .claims import Claim, Paper

__all__ = ["papers", "paper", "claims", "get", "ids", "UnknownClaimError", "UnknownPaperError"]

#: Sub-packages of ``theory`` that are machinery, not papers.
_MACHINERY = frozenset({"core", "stats", "report", "calibration"})


class UnknownClaimError(KeyError):
    """A claim id that is not in the catalogue; the message lists the closest ids."""

    def __str__(self) -> str:
        return self.args[0]


class UnknownPaperError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


@lru_cache(maxsize=None)
def papers() -> tuple:
    """Every paper of the catalogue, ordered by key."""
    import theory

    found = []
    for info in pkgutil.iter_modules(theory.__path__):
        if not info.ispkg or info.name in _MACHINERY:
            continue
        declared = getattr(importlib.import_module(f"theory.{info.name}"), "PAPER", None)
        if declared is None:
            continue
        if not isinstance(declared, Paper) or declared.key != info.name:
            raise ValueError(f"theory.{info.name}.PAPER must be a Paper with key {info.name!r}")
        found.append(declared)
    out = tuple(sorted(found, key=lambda p: p.key))
    seen: dict = {}
    for p in out:
        for c in p.claims:
            if c.id in seen:
                raise ValueError(f"claim id {c.id!r} is declared twice")
            seen[c.id] = c
    return out


def paper(key: str) -> Paper:
    for p in papers():
        if p.key == key:
            return p
    raise UnknownPaperError(f"paper must be one of {[p.key for p in papers()]}, got {key!r}")


def claims(paper_key: str | None = None) -> tuple:
    """Every claim (of one paper, if ``paper_key``), in catalogue order."""
    if paper_key is not None:
        return paper(paper_key).claims
    return tuple(c for p in papers() for c in p.claims)


def ids() -> list:
    return [c.id for c in claims()]


def get(claim_id: str) -> Claim:
    for c in claims():
        if c.id == claim_id:
            return c
    close = difflib.get_close_matches(claim_id, ids(), n=3, cutoff=0.4)
    hint = f"; closest: {', '.join(close)}" if close else "; list them with: python -m theory list"
    raise UnknownClaimError(f"claim id {claim_id!r} is not in the catalogue{hint}")
