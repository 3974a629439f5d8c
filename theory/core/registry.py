"""Papers are discovered, not listed, from two places:

- built in: every sub-package of ``theory`` whose ``__init__`` defines ``PAPER`` (a
  :class:`~theory.core.claims.Paper` whose key is the package's name);
- installed: every entry point of the group ``paperchecks.papers`` (:data:`GROUP`) of an
  installed distribution, named by the paper's key and pointing at the ``PAPER`` of the
  module that defines it, e.g. in the paper's own ``pyproject.toml``::

      [project.entry-points."paperchecks.papers"]
      glorot2010 = "glorot2010_checks.catalogue:PAPER"

Adding a paper is adding its package (or installing one); nothing else is edited by hand.
The pytest plugin collects a paper's claims from its *claim file* (:func:`claim_file`):
``theory/catalogue.py`` for the built-in papers, the entry point's module file for an
installed one, so ``pytest`` in the paper's own repository collects its claims.

The suite's catalogue (its full report, its committed-report tests) is the built-in
papers (``papers(builtin_only=True)``); everything else (``list``, ``check``,
``report --paper``, the mutation and catalogue tests, the pytest plugin) sees the
installed papers too.
"""
from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import pkgutil
from functools import lru_cache
from pathlib import PurePosixPath

from .claims import CLAIM_FILE, Claim, Paper

__all__ = ["papers", "paper", "claims", "get", "ids", "origin", "claim_file", "papers_in_file", "is_builtin",
           "UnknownClaimError", "UnknownPaperError", "GROUP"]

#: The entry-point group through which an installed distribution registers its papers.
GROUP = "paperchecks.papers"
#: Sub-packages of ``theory`` that are machinery, not papers.
_MACHINERY = frozenset({"core", "stats", "report", "calibration"})
#: key -> (origin in words, claim file) of every paper found by the last discovery.
_WHERE: dict = {}


class UnknownClaimError(KeyError):
    """A claim id that is not in the catalogue; the message lists the closest ids."""

    def __str__(self) -> str:
        return self.args[0]


class UnknownPaperError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


def _entry_points() -> tuple:
    """The installed entry points of :data:`GROUP` (a seam for tests)."""
    return tuple(importlib.metadata.entry_points(group=GROUP))


def _builtin() -> list:
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
        _WHERE[declared.key] = (f"built in (theory.{info.name})", CLAIM_FILE)
        found.append(declared)
    return found


def _installed() -> list:
    found = []
    for ep in _entry_points():
        dist = getattr(getattr(ep, "dist", None), "name", None)
        where = f"entry point {ep.name} = {ep.value!r} of group {GROUP}" + (f" (distribution {dist})" if dist else "")
        try:
            declared = ep.load()
        except Exception as exc:  # noqa: BLE001 - any failure of a third-party import is reported in one line
            raise ValueError(f"{where} does not load: {type(exc).__name__}: {exc}") from exc
        module = importlib.import_module(ep.module)
        if not isinstance(declared, Paper) or declared.key != ep.name:
            raise ValueError(f"{where} must point at a Paper with key {ep.name!r}, got {declared!r:.80}")
        if hasattr(module, "__path__") or not getattr(module, "__file__", None):
            raise ValueError(f"{where} must name the module file that defines PAPER (e.g. 'pkg.catalogue:PAPER'), "
                             f"not a package: pytest collects the paper's claims from that file")
        _WHERE[declared.key] = (where, PurePosixPath(*ep.module.split(".")).as_posix() + ".py")
        found.append(declared)
    return found


@lru_cache(maxsize=None)
def papers(builtin_only: bool = False) -> tuple:
    """Every paper (only the built-in ones with ``builtin_only``), ordered by key."""
    builtin = _builtin()
    keys = {p.key for p in builtin}
    installed = [] if builtin_only else _installed()
    clash = sorted(p.key for p in installed if p.key in keys)
    if clash:
        raise ValueError(f"installed papers {clash} have the key of a built-in paper; keys must be unique")
    out = tuple(sorted(builtin + installed, key=lambda p: p.key))
    if len({p.key for p in out}) != len(out):
        raise ValueError(f"two installed papers share a key: {sorted(p.key for p in out)}")
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


def claims(paper_key: str | None = None, builtin_only: bool = False) -> tuple:
    """Every claim (of one paper, if ``paper_key``; of the built-in papers only, with
    ``builtin_only``), in catalogue order."""
    if paper_key is not None:
        return paper(paper_key).claims
    return tuple(c for p in papers(builtin_only) for c in p.claims)


def ids(builtin_only: bool = False) -> list:
    return [c.id for c in claims(builtin_only=builtin_only)]


def get(claim_id: str) -> Claim:
    for c in claims():
        if c.id == claim_id:
            return c
    close = difflib.get_close_matches(claim_id, ids(), n=3, cutoff=0.4)
    hint = f"; closest: {', '.join(close)}" if close else "; list them with: python -m theory list"
    raise UnknownClaimError(f"claim id {claim_id!r} is not in the catalogue{hint}")


def is_builtin(key: str) -> bool:
    """Whether paper ``key`` is one of the suite's own (a package of ``theory``)."""
    return key in {p.key for p in papers(builtin_only=True)}


def origin(key: str) -> str:
    """Where paper ``key`` was found, in words (the package, or the entry point and its
    distribution)."""
    paper(key)
    return _WHERE[key][0]


def claim_file(key: str) -> str:
    """The file (a path relative to a source root) pytest collects paper ``key``'s claims
    from: ``theory/catalogue.py`` for a built-in paper (and for a key that is no paper's,
    such as a test's), the module file its entry point names for an installed one."""
    papers()
    return _WHERE[key][1] if key in _WHERE else CLAIM_FILE


def papers_in_file(path) -> tuple:
    """The keys of the papers whose claims pytest collects from the file at ``path``
    (matched by the end of its path, so an editable install, a plain one and a
    ``src/`` layout all match)."""
    text = PurePosixPath(str(path).replace("\\", "/")).as_posix()
    return tuple(p.key for p in papers() if text == claim_file(p.key) or text.endswith("/" + claim_file(p.key)))
