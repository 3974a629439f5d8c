"""The Haar benchmark (``benchmarks/bench_haar.py``) at its ``--quick`` size: one row per
order, batch and inverse method, per shape and construction, and per shape and formation block, with the flops of
``bench_throughput.haar_flops``. Nothing here asserts a speed."""
import importlib
import json
import sys
from pathlib import Path

import pytest

from simulations.core.random_matrices import HAAR_METHODS
from simulations.core.triangular import TRIANGULAR_INVERSE_METHODS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
bench = importlib.import_module("bench_haar")
throughput = importlib.import_module("bench_throughput")


def test_quick_run_writes_every_row(tmp_path, capsys):
    out = tmp_path / "haar.json"
    assert bench.main(["--quick", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["backend"] == "numpy"
    _assert_every_quick_row(data)
    assert capsys.readouterr().out.count("\n") == 1 + len(data["rows"])


def _assert_every_quick_row(data):
    """One row per order, batch and inverse method, per shape and construction, and per
    shape and formation block, each timed, the draws with their flops."""
    assert data["peak"] > 0
    inverse = {(r["order"], r["batch"], r["method"]) for r in data["rows"] if r["table"] == "inverse"}
    assert inverse == {(n, b, m) for n in (32, 64) for b in (1, 4) for m in TRIANGULAR_INVERSE_METHODS}
    draws = [r for r in data["rows"] if r["table"] == "draw"]
    assert {(r["reps"], r["p"], r["method"]) for r in draws} == {
        (reps, p, m) for reps, p in ((1, 256), (2, 128)) for m in HAAR_METHODS + ("factored",)}
    for r in draws:
        assert r["flops"] == r["reps"] * throughput.haar_flops(r["method"], r["p"], r["p"]) and r["fraction"] > 0
    formed = {(r["reps"], r["p"], r["block"]) for r in data["rows"] if r["table"] == "formation"}
    assert formed == {(reps, p, b) for reps, p in ((1, 256), (2, 128)) for b in (16, 32)}
    assert all(r["seconds"] > 0 for r in data["rows"])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_quick_run_on_the_strict_device(strict_cupy, tmp_path, monkeypatch, dtype):
    """The GPU session's ``bench_haar`` step through the strict CuPy stand-in (every
    construction, both inverses, the formation blocks), with a small peak product."""
    timing = importlib.import_module("timing")
    monkeypatch.setattr(bench, "matmul_peak", lambda be: timing.matmul_peak(be, n=256, reps=1))
    out = tmp_path / "haar.json"
    assert bench.main(["--backend", strict_cupy, "--dtype", dtype, "--quick", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert (data["backend"], data["dtype"]) == ("cupy", dtype)
    _assert_every_quick_row(data)
