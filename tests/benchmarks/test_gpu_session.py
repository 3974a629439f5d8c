"""The GPU session (``benchmarks/gpu_session.py``): its steps run the commands the README
names on this checkout, write under the chosen directory only, are stopped whole past
their limit, and the session refuses to start without a GPU.
Nothing here needs a GPU; the session itself is run on one."""
import importlib
import sys
import time
from pathlib import Path

import pytest

from simulations import cupy_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
session = importlib.import_module("gpu_session")


def test_plan_covers_claims_figures_tests_and_benchmarks(tmp_path):
    plan = session.steps(tmp_path, workers=16)
    assert list(plan) == ["info", "tests", "claims", "figures", "bench_1024", "bench_4096", "bench_haar"]
    argv = {name: " ".join(cmd) for name, (cmd, _) in plan.items()}
    assert "pytest theory --backend cupy" in argv["claims"] and "-n 16" in argv["claims"]
    assert "pytest tests -m gpu" in argv["tests"] and "-n 8" in argv["tests"]
    assert f"--out {tmp_path / 'figures'}" in argv["figures"]
    assert "--size 1.024 --networks 8" in argv["bench_1024"]
    assert all(f"--only={case}" in argv["bench_4096"] for case in session.WN_BN_4096)
    assert "bench_haar.py --backend cupy" in argv["bench_haar"]
    for cmd, limit in plan.values():
        assert 0 < limit < 600  # each fits one 10-minute call of the lent machine, with time to spare
        assert all(str(tmp_path) in part for part in cmd if part.startswith("/") and "json" in part)


def test_dry_run_prints_the_plan(tmp_path, capsys):
    assert session.main(["--out", str(tmp_path / "s"), "--only", "claims", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("claims (limit 540 s):") and out.count("\n") == 1
    assert not (tmp_path / "s").exists()


@pytest.mark.skipif(cupy_available(), reason="checks the refusal on a machine without a GPU")
def test_refuses_to_start_without_a_gpu(tmp_path, capsys):
    assert session.main(["--out", str(tmp_path / "s")]) == 2
    assert "no CUDA device" in capsys.readouterr().err and not (tmp_path / "s").exists()


def test_bad_arguments_stop_with_an_error(tmp_path):
    for argv in (["--out", str(tmp_path), "--workers", "0"], ["--out", str(tmp_path), "--only", "everything"], []):
        with pytest.raises(SystemExit):
            session.main(argv)


def test_a_step_runs_on_this_checkout_and_writes_only_its_log(tmp_path):
    show = "import os, simulations; print(os.environ['HYPOTHESIS_PROFILE'], simulations.__file__)"
    row = session.run_step("show", [sys.executable, "-c", show], 60, tmp_path)
    assert row["returncode"] == 0 and [p.name for p in tmp_path.iterdir()] == ["show.log"]
    profile, where = (tmp_path / "show.log").read_text().split()
    assert profile == "ci" and Path(where).parent.parent == session.ROOT


def test_a_step_past_its_limit_is_stopped_with_its_children(tmp_path):
    """A step that started a child of its own (as pytest-xdist does) is killed whole."""
    spawn = ("import subprocess, sys, time; "
             "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
             f"open({str(tmp_path / 'pid')!r}, 'w').write(str(c.pid)); time.sleep(60)")
    row = session.run_step("slow", [sys.executable, "-c", spawn], 2, tmp_path)
    assert row["returncode"] == "timeout" and row["seconds"] < 30
    pid = int((tmp_path / "pid").read_text())
    for _ in range(50):  # the kill is asynchronous: the child may take a moment to go
        status = Path(f"/proc/{pid}/status")
        if not status.exists() or "\nState:\tZ" in status.read_text():
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the step's child {pid} outlived the step")
