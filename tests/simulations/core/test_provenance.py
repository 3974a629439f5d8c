"""Provenance: the dirty flag tells whether the code differs from its commit; rewriting
a generated output (a figure, the report) does not count."""
import importlib
import shutil
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
    if shutil.which("git") is None:
        pytest.skip("git not available")
    root = _repo(tmp_path)
    monkeypatch.setattr(prov, "_ROOT", root)
    assert prov.git_state()["dirty"] is False
    (root / "figures" / "f.png").write_text("b")
    assert prov.git_state()["dirty"] is False
    (root / "code.py").write_text("x = 2\n")
    assert prov.git_state()["dirty"] is True


def test_a_run_records_its_starting_commit_and_is_dirty_when_the_code_changed_during_it(tmp_path, monkeypatch):
    """A long run takes the state when it starts and keeps that commit: an edit of code or
    a commit of code made while it runs marks it dirty (its later processes may have
    imported the new code); generated outputs rewritten or committed meanwhile do not
    count; a start git cannot resolve gives None."""
    if shutil.which("git") is None:
        pytest.skip("git not available")
    root = _repo(tmp_path)
    monkeypatch.setattr(prov, "_ROOT", root)

    def commit(message):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", message], cwd=root,
                       check=True, capture_output=True)

    start = prov.git_state()
    (root / "figures" / "f.png").write_text("b")
    commit("a regenerated output")
    assert prov.state_since(start) == start and prov.git_state()["commit"] != start["commit"]
    (root / "code.py").write_text("x = 2\n")
    assert prov.state_since(start) == {"commit": start["commit"], "dirty": True}
    commit("an edit of code")
    assert prov.git_state()["dirty"] is False  # clean at the new commit, yet the run saw the old code
    assert prov.state_since(start) == {"commit": start["commit"], "dirty": True}
    assert prov.provenance(start)["dirty"] is True and prov.provenance(start)["commit"] == start["commit"]
    assert prov.state_since({"commit": "0" * 40, "dirty": False})["dirty"] is None  # an unknown commit


def test_a_figure_records_the_commit_it_started_at(tmp_path, monkeypatch):
    """make_figure takes the state before computing: a commit of code landing meanwhile
    leaves the starting commit in the provenance, marked dirty."""
    from simulations.figures.cli import make_figure
    from tests.support.moving_git import START, moving_git_state
    moving_git_state(monkeypatch)
    prov_record = make_figure("daneshmand2021_fig1", tmp_path, quick=True)
    assert (prov_record["commit"], prov_record["dirty"]) == (START["commit"], True)


def test_untracked_files_in_the_code_packages_make_a_run_dirty(tmp_path, monkeypatch):
    """A new paper package not yet added to git is code the commit lacks: an untracked
    file under theory/ or simulations/ makes the tree dirty, at the start or made during
    a run; an ignored file there (a __pycache__) and an untracked file elsewhere do not."""
    if shutil.which("git") is None:
        pytest.skip("git not available")
    root = _repo(tmp_path)
    (root / ".gitignore").write_text("__pycache__/\n")
    (root / "theory").mkdir()
    (root / "theory" / "__init__.py").write_text("")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, capture_output=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "code"], cwd=root,
                   check=True, capture_output=True)
    monkeypatch.setattr(prov, "_ROOT", root)
    start = prov.git_state()
    assert start["dirty"] is False
    (root / "notes.txt").write_text("scratch")
    (root / "theory" / "__pycache__").mkdir()
    (root / "theory" / "__pycache__" / "x.pyc").write_text("")
    assert prov.git_state()["dirty"] is False and prov.state_since(start)["dirty"] is False
    (root / "theory" / "newpaper").mkdir()
    (root / "theory" / "newpaper" / "__init__.py").write_text("CLAIMS = ()\n")
    assert prov.git_state()["dirty"] is True  # untracked at the start of a run
    assert prov.state_since(start) == {"commit": start["commit"], "dirty": True}  # made during it
    (root / "simulations").mkdir()
    (root / "theory" / "newpaper" / "__init__.py").unlink()
    (root / "simulations" / "new.py").write_text("")
    assert prov.git_state()["dirty"] is True


def test_a_figure_records_its_whole_command_line(tmp_path, monkeypatch):
    """The provenance's command reruns the figure as it was made: --quick and every --set
    it took (not one it does not have), and the output folder."""
    import json

    from simulations.figures.cli import main
    assert main(["--only", "daneshmand2021_fig1", "--quick", "--seed", "5", "--set", "runs=3", "--set", "eps=0.01",
                 "--out", str(tmp_path)]) == 0
    record = json.loads((tmp_path / "daneshmand2021_fig1_provenance.json").read_text())
    assert record["command"] == (f"python -m simulations.figures --only daneshmand2021_fig1 --seed 5 --backend numpy "
                                 f"--quick --set runs=3 --set eps=0.01 --out {tmp_path}")
    assert record["settings"]["runs"] == 3 and record["settings"]["eps"] == 0.01
