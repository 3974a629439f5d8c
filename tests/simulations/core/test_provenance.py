"""Provenance: the dirty flag tells whether the code differs from its commit; rewriting
a generated output (a figure, the report) does not count."""
import importlib
import subprocess

import pytest

prov = importlib.import_module("simulations.core.provenance")


def _repo(tmp_path):
    def git(*a):
        subprocess.run(["git", *a], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "f.png").write_text("a")
    (tmp_path / "code.py").write_text("x = 1\n")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    return tmp_path


def test_generated_outputs_do_not_make_the_tree_dirty(tmp_path, monkeypatch):
    if subprocess.run(["git", "--version"], capture_output=True).returncode:
        pytest.skip("git not available")
    root = _repo(tmp_path)
    monkeypatch.setattr(prov, "_ROOT", root)
    assert prov.git_state()["dirty"] is False
    (root / "figures" / "f.png").write_text("b")
    assert prov.git_state()["dirty"] is False
    (root / "code.py").write_text("x = 2\n")
    assert prov.git_state()["dirty"] is True


def test_a_run_records_its_starting_commit_and_is_dirty_when_the_code_changed_during_it(tmp_path, monkeypatch):
    """A long run takes the state when it starts: a commit or an edit made while it runs
    marks it dirty (its later processes may have imported the new code), and it keeps
    the commit it started at; a generated output rewritten meanwhile does not count."""
    if subprocess.run(["git", "--version"], capture_output=True).returncode:
        pytest.skip("git not available")
    root = _repo(tmp_path)
    monkeypatch.setattr(prov, "_ROOT", root)
    start = prov.git_state()
    (root / "figures" / "f.png").write_text("b")
    assert prov.state_since(start) == start
    (root / "code.py").write_text("x = 2\n")
    assert prov.state_since(start) == {"commit": start["commit"], "dirty": True}
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "edit"], cwd=root,
                   check=True, capture_output=True)
    assert prov.git_state()["dirty"] is False  # clean at the new commit, yet the run saw the old code
    assert prov.state_since(start) == {"commit": start["commit"], "dirty": True}
    assert prov.provenance(start)["dirty"] is True and prov.provenance(start)["commit"] == start["commit"]
