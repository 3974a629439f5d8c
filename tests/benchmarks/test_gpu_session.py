"""The GPU session's plan (``benchmarks/gpu_session.py``): its steps run the commands the
README names, write under the chosen directory only, and refuse to start without a GPU.
Nothing here needs a GPU; the session itself is run on one."""
import importlib
import sys
from pathlib import Path

import pytest

from simulations import cupy_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
session = importlib.import_module("gpu_session")


def test_plan_covers_claims_figures_tests_and_benchmarks(tmp_path):
    plan = session.steps(tmp_path, workers=16)
    assert list(plan) == ["info", "tests", "claims", "figures", "bench_1024", "bench_4096"]
    argv = {name: " ".join(cmd) for name, (cmd, _) in plan.items()}
    assert "pytest theory --backend cupy" in argv["claims"] and "-n 16" in argv["claims"]
    assert "pytest tests -m gpu" in argv["tests"] and "-n 8" in argv["tests"]
    assert f"--out {tmp_path / 'figures'}" in argv["figures"]
    assert "--size 1.024 --networks 8" in argv["bench_1024"]
    assert all(f"--only={case}" in argv["bench_4096"] for case in session.WN_BN_4096)
    for cmd, limit in plan.values():
        assert 0 < limit <= 600  # each fits one call of the lent machine
        assert all(str(tmp_path) in part for part in cmd if part.startswith("/") and "json" in part)


def test_dry_run_prints_the_plan(tmp_path, capsys):
    assert session.main(["--out", str(tmp_path / "s"), "--only", "claims", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("claims (limit 600 s):") and out.count("\n") == 1
    assert not (tmp_path / "s").exists()


@pytest.mark.skipif(cupy_available(), reason="checks the refusal on a machine without a GPU")
def test_refuses_to_start_without_a_gpu(tmp_path, capsys):
    assert session.main(["--out", str(tmp_path / "s")]) == 2
    assert "no CUDA device" in capsys.readouterr().err and not (tmp_path / "s").exists()


def test_bad_arguments_stop_with_an_error(tmp_path):
    for argv in (["--out", str(tmp_path), "--workers", "0"], ["--out", str(tmp_path), "--only", "everything"], []):
        with pytest.raises(SystemExit):
            session.main(argv)
