"""The figures command end to end at --quick sizes: every figure writes PNG, PDF,
data and a provenance record with seed, backend and versions; every figure's data also
comes out of the strict device stand-in."""
import json

import numpy as np
import pytest

from simulations.figures.cli import FIGURES, main


def test_quick_figures(tmp_path):
    assert main(["--quick", "--out", str(tmp_path), "--seed", "3"]) == 0
    for name in FIGURES:
        for ext in ("png", "pdf", "npz"):
            path = tmp_path / (f"{name}_data.npz" if ext == "npz" else f"{name}.{ext}")
            assert path.stat().st_size > 0, path
        prov = json.loads((tmp_path / f"{name}_provenance.json").read_text())
        assert prov["seed"] == 3 and prov["backend"]["backend"] == "numpy" and prov["numpy"]


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_quick_figure_data_on_the_strict_device(strict_cupy, name):
    """Every figure's computation runs on the strict device stand-in (no implicit host
    conversion, no numpy operand) and returns host arrays."""
    mod = FIGURES[name]
    data = mod.compute(seed=1, backend=strict_cupy, **{**mod.DEFAULTS, **mod.QUICK})
    assert data and all(isinstance(v, np.ndarray) for v in data.values())
