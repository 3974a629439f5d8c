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

An installed paper that does not load (any exception importing its module or building
its ``Paper``, an entry point that names no ``Paper`` of its key, a key another paper
has) is left out, alone: the other papers load and run, and :func:`load_errors` gives
one line for it, naming the entry point, its distribution, the exception and where in
the paper's package it was raised. :func:`paper` of its key raises that line
(:class:`PaperLoadError`); the pytest plugin reports it as a collection error of the
paper's claim file, or in its summary when that file is not collected. A built-in paper
that does not load is the suite's own defect and raises.
"""
from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import pkgutil
import traceback
from functools import lru_cache
from pathlib import Path, PurePosixPath

from .claims import CLAIM_FILE, Claim, Paper

__all__ = ["papers", "paper", "claims", "get", "ids", "origin", "claim_file", "papers_in_file", "is_builtin",
           "load_errors", "broken_in_file", "distribution", "UnknownClaimError", "UnknownPaperError",
           "PaperLoadError", "GROUP"]

#: The entry-point group through which an installed distribution registers its papers.
GROUP = "paperchecks.papers"
#: Sub-packages of ``theory`` that are machinery, not papers.
_MACHINERY = frozenset({"core", "stats", "report", "calibration"})
#: key -> (origin in words, claim file) of every paper found by the last discovery.
_WHERE: dict = {}
#: key -> the entry point's distribution (name, version, source folder) of every installed paper.
_DIST: dict = {}


class UnknownClaimError(KeyError):
    """A claim id that is not in the catalogue; the message lists the closest ids."""

    def __str__(self) -> str:
        return self.args[0]


class UnknownPaperError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


class PaperLoadError(UnknownPaperError):
    """The key of an installed paper that does not load (:func:`load_errors`)."""


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


def _first_line(exc: BaseException, top: str) -> str:
    """``Type: first line of the message`` and where in the package ``top`` it was raised
    (the innermost frame in a file under a folder named ``top``)."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    if isinstance(exc, SyntaxError):  # its message names the file and line already
        return text
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if top in Path(f.filename).parts]
    if not frames:
        return text
    parts = Path(frames[-1].filename).parts
    inside = "/".join(parts[len(parts) - 1 - parts[::-1].index(top):])
    return f"{text} (at {inside}:{frames[-1].lineno})"


def _load(ep, builtin_keys) -> Paper:
    """The Paper of entry point ``ep``; an exception (one line) when it does not load or
    is not a Paper of its key in a module file."""
    try:
        declared = ep.load()
    except Exception as exc:  # noqa: BLE001 - any failure of a third-party import is reported in one line
        raise ValueError(f"does not load: {_first_line(exc, ep.module.split('.')[0])}") from exc
    module = importlib.import_module(ep.module)
    if not isinstance(declared, Paper) or declared.key != ep.name:
        raise ValueError(f"must point at a Paper with key {ep.name!r}, got {declared!r:.80}")
    if hasattr(module, "__path__") or not getattr(module, "__file__", None):
        raise ValueError("must name the module file that defines PAPER (e.g. 'pkg.catalogue:PAPER'), not a package: "
                         "pytest collects the paper's claims from that file")
    if declared.key in builtin_keys:
        raise ValueError("has the key of a built-in paper; keys must be unique")
    ids = [c.id for c in declared.claims]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ValueError(f"declares claim ids twice: {twice}")
    return declared


def _installed(builtin_keys=frozenset()) -> tuple:
    """(the installed papers that load, {key: (one-line message, claim file)} of those
    that do not: they are left out, :func:`load_errors`)."""
    found, broken = [], {}
    for ep in _entry_points():
        d = getattr(ep, "dist", None)
        dist = getattr(d, "name", None)
        where = f"entry point {ep.name} = {ep.value!r} of group {GROUP}" + (f" (distribution {dist})" if dist else "")
        file = PurePosixPath(*ep.module.split(".")).as_posix() + ".py"
        if ep.name in {p.key for p in found}:
            broken.setdefault(ep.name, (f"paper {ep.name}: {where} has the key of another installed paper; keys "
                                         "must be unique", file))
            continue
        try:
            declared = _load(ep, builtin_keys)
        except Exception as exc:  # noqa: BLE001 - one paper's failure must not stop the others
            why = (str(exc).splitlines() or [repr(exc)])[0]
            broken[ep.name] = (f"paper {ep.name}: {where} {why}", file)
            continue
        _WHERE[declared.key] = (where, file)
        _DIST[declared.key] = {"distribution": dist, "version": getattr(d, "version", None),
                               "source": _source_folder(ep.module)}
        found.append(declared)
    return found, broken


def _source_folder(module: str) -> str | None:
    """The folder of the top-level package of ``module`` (for its git state)."""
    import sys

    top = sys.modules.get(module.split(".")[0])
    paths = list(getattr(top, "__path__", ()) or ())
    return str(Path(paths[0])) if paths else None


@lru_cache(maxsize=None)
def _discover(builtin_only: bool) -> tuple:
    """(every paper that loads, ordered by key; {key: (message, claim file)} of the
    installed ones that do not), found afresh after ``papers.cache_clear()``."""
    builtin = _builtin()
    installed, broken = ([], {}) if builtin_only else _installed(frozenset(p.key for p in builtin))
    out = tuple(sorted(builtin + installed, key=lambda p: p.key))
    seen: dict = {}
    for p in out:
        for c in p.claims:
            if c.id in seen:
                raise ValueError(f"claim id {c.id!r} is declared twice")
            seen[c.id] = c
    return out, broken


def papers(builtin_only: bool = False) -> tuple:
    """Every paper (only the built-in ones with ``builtin_only``), ordered by key; an
    installed paper that does not load is left out (:func:`load_errors`)."""
    return _discover(builtin_only)[0]


papers.cache_clear = _discover.cache_clear  # the discovery is cached; tests and a new install clear it


def paper(key: str) -> Paper:
    __tracebackhide__ = True  # pytest: a paper that does not load shows as its one line, not as registry frames
    for p in papers():
        if p.key == key:
            return p
    broken = _discover(False)[1]
    if key in broken:
        raise PaperLoadError(broken[key][0])
    raise UnknownPaperError(f"paper must be one of {[p.key for p in papers()]}, got {key!r}")


def claims(paper_key: str | None = None, builtin_only: bool = False) -> tuple:
    """Every claim (of one paper, if ``paper_key``; of the built-in papers only, with
    ``builtin_only``), in catalogue order."""
    __tracebackhide__ = True
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


def load_errors() -> dict:
    """{key: one-line message} of every installed paper that does not load (left out of
    :func:`papers`; the others load and run)."""
    return {k: v[0] for k, v in sorted(_discover(False)[1].items())}


def broken_in_file(path) -> dict:
    """{key: message} of the papers that do not load whose claim file is the file at
    ``path`` (matched like :func:`papers_in_file`)."""
    text = PurePosixPath(str(path).replace("\\", "/")).as_posix()
    return {k: msg for k, (msg, file) in sorted(_discover(False)[1].items())
            if text == file or text.endswith("/" + file)}


def distribution(key: str) -> dict | None:
    """The distribution of installed paper ``key``: {"distribution": name, "version",
    "source": the folder of its top-level package}; None for a built-in paper."""
    paper(key)
    return dict(_DIST[key]) if key in _DIST else None
