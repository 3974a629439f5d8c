"""The worked example of docs/adding_a_paper.md runs: copied into the catalogue it is
discovered with no other edit, its claims decide and their mutations fail, pytest
collects it under its own marker, and the guide shows the package's real code."""
import re
import shutil
import sys
from pathlib import Path

import pytest

import theory
from theory.core import Verdict, evaluate, registry

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example_paper" / "he2015"


@pytest.fixture
def he2015(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "he2015")
    theory.__path__.append(str(tmp_path))
    registry.papers.cache_clear()
    try:
        yield registry.paper("he2015")
    finally:
        theory.__path__.remove(str(tmp_path))
        registry.papers.cache_clear()
        for name in [m for m in sys.modules if m.startswith("theory.he2015")]:
            del sys.modules[name]


def test_a_new_paper_is_discovered_and_checked(he2015):
    assert [c.id for c in registry.claims("he2015")] == ["he2015.eq7.relu_half", "he2015.eq10.forward"]
    for c in he2015.claims:
        assert evaluate(c).verdict == Verdict.HOLDS, c.id
        assert all(evaluate(c, **m.params).verdict == m.expect for m in c.mutations), c.id


def test_the_guide_shows_the_package_code():
    guide = (ROOT / "docs" / "adding_a_paper.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", guide, flags=re.S)
    assert blocks == [(EXAMPLE / "__init__.py").read_text(), (EXAMPLE / "catalogue.py").read_text()]


pytest_plugins = ["pytester"]


def test_pytest_collects_it_under_its_own_marker(he2015, pytester):
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", str(ROOT / "theory" / "catalogue.py"),
                                     "-m", "he2015", "-v", "-p", "no:cacheprovider", "--strict-markers")
    assert r.ret == 0
    r.stdout.fnmatch_lines(["*he2015.eq7.relu_half HOLDS*", "*he2015.eq10.forward HOLDS*"])
