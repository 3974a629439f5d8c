"""``paperchecks new KEY``: a paper package of its own, outside this repository.

It writes a directory (``KEY-checks`` by default) holding an installable distribution
that registers the paper through the entry point group ``paperchecks.papers``
(:mod:`theory.core.registry`), so that once installed (``pip install -e DIR``) the
paper is found like the built-in ones: ``pytest`` in that directory runs one item per
claim and the mutation test, ``paperchecks list --paper KEY``, ``check ID`` and
``report --paper KEY --out DIR`` see it.

Written (with ``pkg = KEY_checks``)::

    pyproject.toml          the distribution, its entry point and pytest's paths
    README.md               the commands
    pkg/__init__.py         re-exports PAPER
    pkg/catalogue.py        PAPER: the claims (empty; the helpers of theory.kinds shown)
    pkg/coverage.py         COVERAGE: the paper's items (empty; reasons shown)
    tests/test_mutations.py every mutation of the paper gets its declared verdict

Nothing is claimed until the user writes a claim: the catalogue and the coverage map
start empty, with the shapes to copy in comments (docs/adding_a_paper.md walks through
a worked example).
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

__all__ = ["add_parser", "run", "scaffold", "files", "KEY_PATTERN"]

#: A paper key: the pytest marker, the report's anchor and every claim id's prefix.
KEY_PATTERN = re.compile(r"[a-z][a-z0-9_]*\Z")

_PYPROJECT = '''[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "0.1.0"
description = "Claims of {reference}, checked with paperchecks"
requires-python = ">=3.11"
dependencies = ["paperchecks"]

# paperchecks finds the paper through this entry point: KEY = "<module that defines PAPER>:PAPER";
# pytest collects its claims from that module's file.
[project.entry-points."paperchecks.papers"]
{key} = "{pkg}.catalogue:PAPER"

[tool.setuptools]
packages = ["{pkg}"]

[tool.pytest.ini_options]
testpaths = ["{pkg}", "tests"]
addopts = "-p no:cacheprovider"
'''

_README = '''# {dist}

Claims of {reference}, checked with paperchecks (docs/adding_a_paper.md in the paperchecks repository).

```bash
pip install -e .                             # registers the paper (entry point paperchecks.papers)
pytest                                       # one item per claim (status: the verdict) and every mutation
paperchecks check {key}.ID                   # one claim's evidence
paperchecks report --paper {key} --out report  # report/paper_checks.md and .json for this paper
```
'''

_INIT = '''"""{reference_doc}: its claims, checked with paperchecks."""
from .catalogue import PAPER

__all__ = ["PAPER"]
'''

_CATALOGUE = '''"""{claims_of_doc}, declared once, as data.

Each claim says where it is printed, what it states, how it is checked and which
plausible wrong statements (mutations) must fail on the same data. The helpers of
theory.kinds build the common shapes from named constants, for instance::

    from theory.kinds import Named, constant_claim, precision_claim, mean_claim, grid_sampling, reading

    constant_claim(id="{key}.eq1.name", where="Sec. 2, Eq. 1", statement="<as printed>",
                   value=lambda: <sympy expression>, constant="1/3", wrong=("1/2", "2/3"))

A claim that fails as printed is declared with reading(<corrected claim>, printed=...,
severity=..., impact=...), which returns the printed claim and its corrected twin.
"""
from theory.core import Paper

from .coverage import COVERAGE

CLAIMS = ()

REFERENCE = {reference_py}

PAPER = Paper(key="{key}", reference=REFERENCE, claims=CLAIMS, coverage=COVERAGE, left_out=())
'''

_COVERAGE = '''"""{items_of_doc}, in the paper's order, with the
claims that check it or the reason it is not checked (theory.core.coverage.REASONS):
an item still to do is Item(..., reason="not_yet_checked"), counted as unchecked and
listed in the report. Declare Paper(coverage_goal=0.95) in catalogue.py to have the
goal enforced once the map is complete.

    Item("Eq. 1", "Sec. 2", "equation", "<one-line summary>", claims=("{key}.eq1.name",)),
    Item("Theorem 2", "Sec. 3", "theorem", "<one-line summary>", reason="not_yet_checked"),
"""
from theory.core.coverage import Item  # noqa: F401 - the map's items

COVERAGE = ()
'''

_TEST = '''"""Every check of the paper can fail: each mutation of each claim (a wrong constant, the
printed form substituted into a corrected claim) gets its declared verdict on the claim's
own data, and every claim that does not fail as printed has a mutation that fails."""
import pytest

from theory.core import RunContext, Verdict, evaluate, registry

CLAIMS = registry.claims("{key}")


@pytest.mark.parametrize("claim,mutation", [pytest.param(c, m, id=f"{{c.id}}::{{m.name}}")
                                            for c in CLAIMS for m in c.mutations])
def test_mutation_gets_its_verdict(claim, mutation):
    assert evaluate(claim, RunContext(), **mutation.params).verdict == mutation.expect


def test_every_claim_can_fail():
    assert [c.id for c in CLAIMS if c.recorded != Verdict.FAILS
            and not any(m.expect == Verdict.FAILS and not m.mirror for m in c.mutations)] == []


def test_failing_claims_say_how_much_they_matter_and_corrections_reject_the_printed_form():
    assert [c.id for c in CLAIMS if c.recorded == Verdict.FAILS and not c.severity] == []
    assert [c.id for c in CLAIMS if c.corrects and not any(m.printed for m in c.mutations)] == []
'''


def _python_text(text: str, width: int = 90) -> str:
    """``text`` as a Python string expression, in pieces at most ``width`` wide.

    >>> _python_text("a b", 2)
    "('a '\\n             'b')"
    """
    pieces = textwrap.wrap(text, width)
    if len(pieces) < 2:
        return repr(text)
    return "(" + "\n             ".join(repr(p + " ") for p in pieces[:-1]) + "\n             " + repr(pieces[-1]) + ")"


def files(key: str, reference: str | None = None) -> dict:
    """The scaffold of paper ``key``: relative path -> text."""
    if not isinstance(key, str) or not KEY_PATTERN.match(key):
        raise ValueError(f"KEY must be a lowercase identifier (a letter, then letters, digits or _), got {key!r}")
    pkg = f"{key}_checks"
    ref = " ".join((reference or f"{key} (set the reference in {pkg}/catalogue.py)").replace('"', "'").split())

    def doc(text):  # a docstring's first lines, at most 88 characters wide
        return "\n".join(textwrap.wrap(text, 88))

    fields = {"key": key, "pkg": pkg, "dist": f"{key.replace('_', '-')}-checks", "reference": ref,
              "reference_doc": doc(ref), "claims_of_doc": doc(f"The claims of {ref}"),
              "items_of_doc": doc(f"Every numbered or displayed item of {ref}"),
              "reference_py": _python_text(ref)}
    return {"pyproject.toml": _PYPROJECT.format(**fields), "README.md": _README.format(**fields),
            f"{pkg}/__init__.py": _INIT.format(**fields), f"{pkg}/catalogue.py": _CATALOGUE.format(**fields),
            f"{pkg}/coverage.py": _COVERAGE.format(**fields), "tests/test_mutations.py": _TEST.format(**fields)}


def scaffold(key: str, directory: Path | str | None = None, reference: str | None = None) -> Path:
    """Write the scaffold of paper ``key`` into ``directory`` (default ``KEY-checks``),
    which must not exist or be empty, and refuse a key that a paper already has. Returns
    the directory."""
    from .core.registry import papers

    written = files(key, reference)  # validates the key
    if key in {p.key for p in papers()}:
        raise ValueError(f"KEY must be a new paper's key; {key!r} is taken (paperchecks list shows the papers)")
    root = Path(directory if directory is not None else f"{key.replace('_', '-')}-checks")
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise ValueError(f"--dir must be a new or empty directory, got {str(root)!r}")
    for rel, text in written.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def add_parser(sub) -> None:
    """The ``new`` subcommand of the CLI (:mod:`theory.cli`)."""
    p = sub.add_parser("new", help="scaffold a paper package of its own (installable; found through an entry point)")
    p.add_argument("key", metavar="KEY", help="the paper's key: claim-id prefix, pytest marker (e.g. glorot2010)")
    p.add_argument("--dir", default=None, help="directory to create (default: KEY-checks)")
    p.add_argument("--reference", default=None, help="the paper's reference (authors, year, title)")
    p.set_defaults(run=run)


def run(args) -> int:
    """Write the scaffold and say what to type next; a one-line error (status 2) otherwise."""
    import sys

    try:
        root = scaffold(args.key, args.dir, args.reference)
    except ValueError as e:
        print(f"paperchecks: error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {len(files(args.key))} files under {root}/; next:\n  cd {root} && pip install -e . && pytest\n"
          f"  paperchecks report --paper {args.key} --out report")
    return 0
