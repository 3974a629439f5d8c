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
