"""The worked external example (examples/external_paper: Glorot & Bengio 2010, a paper
package with its own pyproject.toml) registered through its entry point is found like
the built-in papers: the registry lists it, pytest collects its claims from its own
catalogue file, its claims decide as recorded and its mutations get their verdicts, and
``report --paper`` writes its report into a directory of its own. (.ci/run installs it
with pip and runs it in full: pytest in its directory, then paperchecks report.)"""
import tomllib

import pytest

from tests.support.external_paper import EXAMPLE, installed_example
from theory.core import registry

pytest_plugins = ["pytester"]


@pytest.fixture
def glorot(monkeypatch):
    with installed_example(monkeypatch):
        yield registry.paper("glorot2010")


def test_the_example_is_found_through_its_entry_point(glorot):
    assert not registry.is_builtin("glorot2010")
    assert registry.claim_file("glorot2010") == "glorot2010_checks/catalogue.py"
    assert [c.id for c in registry.claims("glorot2010")] == [
        "glorot2010.eq1.columns_printed", "glorot2010.eq15.standard_variance", "glorot2010.eq16.normalized_variance",
        "glorot2010.eq5.forward_variance"]
    assert "glorot2010" not in [p.key for p in registry.papers(builtin_only=True)]


def test_pytest_collects_the_example_from_its_catalogue_file(glorot, pytester):
    r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider", "-v",
                                     str(EXAMPLE / "glorot2010_checks" / "catalogue.py"), "-k", "not forward_variance")
    assert r.ret == 0
    r.stdout.fnmatch_lines(["*glorot2010.eq1.columns_printed FAILS AS PRINTED*",
                            "*glorot2010.eq15.standard_variance HOLDS*", "*1 fail as printed, 2 holds*"])


@pytest.mark.slow
def test_the_example_is_reported_into_a_directory_of_its_own(glorot, tmp_path):
    """report --paper KEY into a directory without a report: that paper's report alone
    (its Monte-Carlo claim takes about 20 s)."""
    from theory.cli import main

    assert main(["report", "--paper", "glorot2010", "--out", str(tmp_path / "r"), "--no-plots"]) == 0
    md = (tmp_path / "r" / "paper_checks.md").read_text()
    assert "### glorot2010.eq5.forward_variance" in md and "### arpit2019" not in md
    assert "not yet checked" in md and "no goal declared" in md


def test_the_example_keeps_the_scaffold_s_files():
    """pyproject.toml, README.md, the package's __init__ and the mutation test are what
    ``paperchecks new glorot2010`` wrote: the catalogue, its coverage map and the
    simulator are the only files a new user writes."""
    from theory.scaffold import files

    meta = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
    reference = meta["project"]["description"].removeprefix("Claims of ").removesuffix(", checked with paperchecks")
    written = files("glorot2010", reference)
    for rel in ("pyproject.toml", "README.md", "glorot2010_checks/__init__.py", "tests/test_mutations.py"):
        assert (EXAMPLE / rel).read_text() == written[rel], rel
