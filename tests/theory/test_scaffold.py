"""``paperchecks new KEY`` writes an installable paper package whose entry point the
registry follows, whose files are valid, and which refuses what it cannot create."""
import ast
import importlib.metadata
import sys
import tomllib

import pytest

from theory.cli import main
from theory.core import registry
from theory.scaffold import files, scaffold


def test_the_scaffold_declares_the_paper_s_entry_point_and_pytest_paths(tmp_path):
    root = scaffold("newpaper2024", tmp_path / "new", reference='Doe (2024), "A title"')
    meta = tomllib.loads((root / "pyproject.toml").read_text())
    points = meta["project"]["entry-points"]["paperchecks.papers"]
    assert points == {"newpaper2024": "newpaper2024_checks.catalogue:PAPER"}
    assert meta["tool"]["pytest"]["ini_options"]["testpaths"] == ["newpaper2024_checks", "tests"]
    for rel in files("newpaper2024"):
        if rel.endswith(".py"):
            ast.parse((root / rel).read_text(), rel)


def test_an_installed_scaffold_is_found_and_its_tests_run(tmp_path, monkeypatch, pytester):
    """Installed (here: on sys.path with its entry point), the scaffold's empty paper is a
    paper of the registry, and pytest in its directory runs its tests green."""
    root = scaffold("newpaper2024", tmp_path / "new")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setattr(registry, "_entry_points", lambda: (importlib.metadata.EntryPoint(
        "newpaper2024", "newpaper2024_checks.catalogue:PAPER", registry.GROUP),))
    registry.papers.cache_clear()
    try:
        assert registry.paper("newpaper2024").claims == () and not registry.is_builtin("newpaper2024")
        r = pytester.runpytest_inprocess("-p", "theory.pytest_plugin", "-p", "no:cacheprovider", str(root / "tests"))
        assert r.ret == 0
    finally:
        registry.papers.cache_clear()
        for name in [m for m in sys.modules if m.startswith("newpaper2024_checks")]:
            del sys.modules[name]


pytest_plugins = ["pytester"]


@pytest.mark.parametrize("argv,message", [
    (["new", "Bad-Key"], "KEY must be a lowercase identifier"),
    (["new", "arpit2019"], "'arpit2019' is taken"),
])
def test_new_refuses_a_bad_or_taken_key_in_one_line(argv, message, capsys, tmp_path):
    assert main(argv + ["--dir", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_new_refuses_a_directory_that_holds_files(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["new", "newpaper2024", "--dir", str(tmp_path)]) == 2
    assert "--dir must be a new or empty directory" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_new_says_what_to_type_next(tmp_path, capsys):
    assert main(["new", "newpaper2024", "--dir", str(tmp_path / "n")]) == 0
    out = capsys.readouterr().out
    assert "pip install -e ." in out and "paperchecks report --paper newpaper2024 --out report" in out
