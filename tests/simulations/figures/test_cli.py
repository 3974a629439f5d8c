"""The figures command end to end at --quick sizes: every figure writes PNG, PDF,
data and a provenance record with seed, backend and versions."""
import json

from simulations.figures.cli import FIGURES, main


def test_quick_figures(tmp_path):
    assert main(["--quick", "--out", str(tmp_path), "--seed", "3"]) == 0
    for name in FIGURES:
        for ext in ("png", "pdf", "npz"):
            path = tmp_path / (f"{name}_data.npz" if ext == "npz" else f"{name}.{ext}")
            assert path.stat().st_size > 0, path
        prov = json.loads((tmp_path / f"{name}_provenance.json").read_text())
        assert prov["seed"] == 3 and prov["backend"]["backend"] == "numpy" and prov["numpy"]
