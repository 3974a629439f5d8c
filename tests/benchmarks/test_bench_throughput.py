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

from simulations import build_mlp, get_backend, layers_of
from simulations.core.random_matrices import reflector_draw_shapes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
bench = importlib.import_module("bench_throughput")


def test_doctests():
    assert doctest.testmod(bench).failed == 0


@pytest.mark.parametrize("init, method", [("proposed_he", "reflectors"), ("proposed_orthogonal", "reflectors"),
                                          ("proposed_orthogonal", "householder")])
def test_draw_floor_draws_what_the_sampler_draws(init, method):
    """The floor times as many normals as the layers' directions consume: fan_in x fan_out
    for Gaussian directions and for QR of a Gaussian matrix, Stewart's blocks for
    ``reflectors`` (more than the p k - k (k - 1) / 2 kept entries)."""
    ops = build_mlp(get_backend(seed=0), [30, 50, 20], init, haar_method=method)
    for layer in layers_of(ops):
        p, k = max(layer.fan_in, layer.fan_out), min(layer.fan_in, layer.fan_out)
        shapes = bench._normals_of(layer, init, method)
        if "orthogonal" in init and method == "reflectors":
            assert shapes == reflector_draw_shapes(1, p, k)
        else:
            assert sum(int(np.prod(s)) for s in shapes) == layer.fan_in * layer.fan_out


def test_measure_reports_fractions_and_a_ceiling_above_nothing(capsys):
    """Every row carries its fractions; where the case times its own draws, the ceiling is
    in (0, 1] and follows from the row's own numbers."""
    rows = bench.measure("numpy", "float64", ["wn_mlp_he", "wn_mlp_orthogonal", "bn_chain_gram"], size=0.04)
    assert [r["name"] for r in rows] == ["wn_mlp_he", "wn_mlp_orthogonal", "bn_chain_gram"]
    for r in rows:
        assert r["run_fraction"] > 0 and r["end_to_end_fraction"] > 0
        assert 0 < r["ceiling_fraction"] <= 1
        assert r["ceiling_fraction"] == bench.ceiling_fraction(r["useful_flops"], r.get("sampler_flops", 0.0),
                                                               r["draw_floor_s"], r["peak"])
    assert rows[1]["sampler_flops"] > 0 and "ceiling" in capsys.readouterr().out


def test_size_must_be_positive():
    with pytest.raises(SystemExit):
        bench.main(["--size", "0"])
