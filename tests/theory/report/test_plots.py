"""Evidence plots (theory/report/plots.py): written per claim with plot data; the plots
of claims that left the catalogue are removed."""
from theory.report.plots import EVIDENCE_DIR, write_plots


def test_write_plots_draws_and_removes_stale_ones(tmp_path):
    stale = tmp_path / EVIDENCE_DIR / "gone.renamed_claim.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    plot = {"kind": "means", "rows": [{"label": "row", "mean": 1.0, "interval": [0.9, 1.1], "target": 1.0,
                                       "band": [0.95, 1.05]}]}
    paths = write_plots([{"id": "p.kept", "verdict": "holds", "plot": plot}, {"id": "p.exact", "verdict": "holds"}],
                        tmp_path)
    assert paths == {"p.kept": (EVIDENCE_DIR / "p.kept.png").as_posix()}
    assert (tmp_path / EVIDENCE_DIR / "p.kept.png").stat().st_size > 0 and not stale.exists()


def test_long_row_labels_are_not_cut(tmp_path):
    """The forest plots' row labels fit in the image (they were cut on the left): the
    leftmost columns of pixels are background."""
    import numpy as np
    from matplotlib import image

    from theory.report.plots import draw

    label = "init=proposed_orthogonal, layer=20, a long label that must stay whole"
    plot = {"kind": "means", "rows": [{"label": label, "mean": 1.0, "interval": [0.9, 1.1], "target": 1.0,
                                       "band": [0.95, 1.05]}] * 3}
    draw("p.long", "holds", plot, tmp_path / "p.png")
    pixels = image.imread(tmp_path / "p.png")[..., :3]
    assert np.all(pixels[:, :3] > 0.95)
