"""The throughput benchmark (``benchmarks/bench_throughput.py``) at a tiny size: its
doctests, and the bookkeeping behind its fractions (the flops it divides by and the
draws it times as a floor). Nothing here asserts a speed: speed is measured by running
the benchmark itself."""
import doctest
import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from simulations import get_backend
from simulations.figures import arpit2019_fig1 as fig1
from simulations.weightnorm.init import draw_layer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
bench = importlib.import_module("bench_throughput")
timing = importlib.import_module("timing")


def test_doctests():
    assert doctest.testmod(bench).failed == 0


@pytest.mark.parametrize("init, method", [("proposed_he", "reflectors"), ("proposed_orthogonal", "reflectors"),
                                          ("proposed_orthogonal", "householder"), ("proposed_orthogonal", "factored")])
def test_draw_floor_draws_what_the_sampler_draws(init, method):
    """Drawing the shapes the floor times from a twin of a layer's stream consumes that
    stream exactly as drawing the layer does: the next draws of both agree (a shape too
    few, too many or of another size leaves the twin elsewhere in the stream)."""
    for fan_in, fan_out in ((30, 50), (50, 20), (200, 200)):
        be, twin = get_backend(seed=6), get_backend(seed=6)
        layer = draw_layer(be, 3, fan_in, fan_out, "orthogonal" if "orthogonal" in init else "gaussian", 1.0,
                           haar_method=method)
        for shape in bench._normals_of(layer, init, method):
            twin.normal(shape)
        np.testing.assert_array_equal(be.normal((4,)), twin.normal((4,)))


def test_measure_reports_fractions_under_their_ceiling(monkeypatch, capsys):
    """Every row carries its fractions; where the case times its draws, the ceiling follows
    from the row's own numbers and bounds the end-to-end fraction (the draws and the flops
    run one after the other). The peak comes from a small product here (lower than the
    machine's, which raises both fractions alike)."""
    monkeypatch.setattr(bench, "matmul_peak", lambda be: timing.matmul_peak(be, n=400, reps=2))
    names = ["wn_mlp_he", "wn_mlp_orthogonal", "bn_chain_gram", "wn_mlp_orthogonal_side_by_side",
             "wn_mlp_orthogonal_factored"]
    rows = bench.measure("numpy", "float64", names, size=0.04)
    assert [r["name"] for r in rows] == names
    for r in rows[:3] + rows[4:]:
        assert r["run_fraction"] > 0 and r["end_to_end_fraction"] > 0
        assert r["ceiling_fraction"] == bench.ceiling_fraction(r["useful_flops"], r.get("sampler_flops", 0.0),
                                                               r["draw_floor_s"], r["peak"])
        assert r["end_to_end_fraction"] <= r["ceiling_fraction"] <= 1, r
    assert rows[1]["sampler_flops"] > 0 and "ceiling" in capsys.readouterr().out
    bn = rows[2]  # the dense chain's products over the Gram chain's time: d / (2 n) times its own flops
    d, n, depth = int(512 * 0.04), 16, 50
    assert bn["dense_flops"] == 64 * depth * 2.0 * d * d * n
    assert bn["dense_equivalent_fraction"] == pytest.approx(bn["dense_flops"] / bn["run_s"] / bn["peak"])
    assert "dense_equivalent_fraction" not in rows[0]
    # factored: the first layer (500 -> 1000 scaled) is formed, the 19 square ones are not
    width = int(1000 * 0.04)
    formed, kept = bench.haar_flops("reflectors", width, width // 2), bench.haar_flops("factored", width, width)
    assert rows[4]["sampler_flops"] == pytest.approx(formed + 19 * kept)
    side = rows[3]  # 2 networks per thread: twice the flops of one network per thread
    assert side["workers"] == fig1.default_workers("numpy")
    assert side["useful_flops"] == pytest.approx(2 * side["workers"] * rows[1]["useful_flops"])
    assert side["sampler_flops"] == pytest.approx(2 * side["workers"] * rows[1]["sampler_flops"])
    assert side["draw_s"] == 0 and side["end_to_end_fraction"] > 0
    assert "run_fraction" not in side and "ceiling_fraction" not in side  # overlapped: neither applies


def test_side_by_side_networks_draw_from_their_own_streams(monkeypatch):
    """Every network of both repetitions draws from a stream of its own."""
    keys = []

    def record(be, *args):
        keys.append(be.key)
        return 1.0, 0.0, 0.0, 0.0, []
    monkeypatch.setattr(bench, "_wn", record)
    bench.CASES["wn_mlp_he_side_by_side"](get_backend(seed=0), 0.04)
    assert len(keys) == len(set(keys)) == 2 * 2 * fig1.default_workers("numpy")


def test_size_must_be_positive():
    with pytest.raises(SystemExit):
        bench.main(["--size", "0"])


def test_networks_batch_the_wn_and_bn_cases(monkeypatch):
    """``--networks N``: N times the flops (network and sampler) in the cases that batch,
    one network elsewhere; the normals timed as the floor are drawn for all N."""
    monkeypatch.setattr(bench, "matmul_peak", lambda be: timing.matmul_peak(be, n=200, reps=1))
    names = ["wn_mlp_orthogonal", "bn_chain_gram", "relu_mlp_ensemble"]
    one, three = (bench.measure("numpy", "float64", names, size=0.04, networks=n) for n in (1, 3))
    for a, b in zip(one[:2], three[:2]):
        assert b["networks"] == 3 and b["useful_flops"] == pytest.approx(3 * a["useful_flops"])
        assert b.get("sampler_flops", 0.0) == pytest.approx(3 * a.get("sampler_flops", 0.0))
    assert one[0]["sampler_flops"] > 0
    assert "networks" not in three[2] and three[2]["useful_flops"] == one[2]["useful_flops"]
    layer = draw_layer(get_backend(seed=0), 3, 20, 20, "orthogonal", 1.0)
    assert all(shape[0] == 3 for shape in bench._normals_of(layer, "proposed_orthogonal", "reflectors"))


def test_networks_must_be_a_positive_integer():
    for bad in ("0", "-2", "1.5"):
        with pytest.raises(SystemExit):
            bench.main(["--networks", bad])


@pytest.mark.parametrize("dtype, networks", [("float32", 2), ("float64", 1)])
def test_every_case_runs_on_the_strict_device(strict_cupy, monkeypatch, dtype, networks):
    """Every case, in both dtypes, batched (as the session's ``bench_1024`` step) and not
    (as ``bench_4096``), through the strict CuPy stand-in (no implicit host conversion, no
    numpy operand): a host/device slip in a benchmark shows here, not on lent device time.
    The peak comes from a small product (the session's is 8192 on a device)."""
    monkeypatch.setattr(bench, "matmul_peak", lambda be: timing.matmul_peak(be, n=256, reps=1))
    names = list(bench.CASES)
    rows = bench.measure(strict_cupy, dtype, names, size=0.04, networks=networks)
    assert [r["name"] for r in rows] == names
    assert all((r["backend"], r["dtype"]) == ("cupy", dtype) and r["end_to_end_fraction"] > 0 for r in rows)
    assert all(r["networks"] == networks for r in rows if r["name"] in bench.BATCHED)
