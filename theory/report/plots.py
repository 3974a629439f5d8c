"""Evidence plots: one small PNG per Monte-Carlo or scaling claim, drawn from the
``plot`` data its judge returns, written next to the report (``figures/evidence/``)
and shown in the claim's section of paper_checks.md (and embedded in paper_checks.html).

Kinds: ``means`` (measured over predicted, with intervals and the tolerance band),
``bounds`` (measured over the bound, uninformative rows grey), ``limit`` (mean vs
width with the fitted limit, and the RMS error on log axes with its fitted slope),
``power_law`` (a quantity vs width or depth on log axes with the fitted exponent).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["EVIDENCE_DIR", "draw", "plot_path", "write_plots"]

EVIDENCE_DIR = Path("figures") / "evidence"


def _means(ax, p):
    rows = p["rows"]
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows):
        t = r["target"] if r["target"] else 1.0
        lo, hi = (v / t for v in r["interval"])
        blo, bhi = (v / t for v in r["band"])
        ax.fill_betweenx([yi - 0.35, yi + 0.35], blo, bhi, color="tab:green", alpha=0.15, lw=0)
        ax.errorbar(r["mean"] / t, yi, xerr=[[max(r["mean"] / t - lo, 0.0)], [max(hi - r["mean"] / t, 0.0)]], fmt="o",
                    color="k", ms=3)
    ax.axvline(1.0, color="tab:green", lw=1)
    ax.set_yticks(y, [r["label"] for r in rows], fontsize=6)
    ax.set_xlabel("measured / predicted (interval; band = tolerance)")


def _bounds(ax, p):
    rows = p["rows"]
    y = np.arange(len(rows))[::-1]
    for yi, r in zip(y, rows):
        b = r["bound"] if r["bound"] else 1.0
        lo, hi = (v / b for v in r["interval"])
        c = "k" if r["informative"] else "0.6"
        ax.errorbar(r["mean"] / b, yi, xerr=[[max(r["mean"] / b - lo, 0)], [max(hi - r["mean"] / b, 0)]], fmt="o",
                    color=c, ms=3)
        if r.get("attainable") is not None:
            ax.plot(r["attainable"] / b, yi, "|", color="tab:red", ms=8)
    ax.axvline(1.0, color="tab:blue", lw=1)
    ax.set_yticks(y, [r["label"] for r in rows], fontsize=6)
    ax.set_xscale("log")
    ax.set_xlabel("measured / bound (grey: uninformative row; red: largest attainable / bound)")


def _limit(fig, p):
    ax = fig.add_subplot(1, 2 if p.get("rms") else 1, 1)
    w = np.asarray(p["widths"], float)
    m, s = np.asarray(p["means"]), np.asarray(p["ses"])
    ax.errorbar(w, m, yerr=3 * s, fmt="o", color="k", ms=3, label="mean +- 3 se")
    ww = np.geomspace(w.min(), w.max() * 4, 50)
    ax.plot(ww, p["limit"] + p["slope"] * ww ** (-p["order"]), color="tab:blue", lw=1, label="fit c + a w^-order")
    ax.axhspan(*p["band"], color="tab:green", alpha=0.15, label="target band")
    ax.axhline(p["target"], color="tab:green", lw=1)
    ax.set_xscale("log")
    ax.set_xlabel("width")
    ax.legend(fontsize=6)
    if p.get("rms"):
        ax2 = fig.add_subplot(1, 2, 2)
        ax2.loglog(w, p["rms"], "o", color="k", ms=3)
        if p.get("rms_exponent") is not None:
            c = np.exp(np.mean(np.log(p["rms"]) - p["rms_exponent"] * np.log(w)))
            ax2.loglog(w, c * w ** p["rms_exponent"], color="tab:blue", lw=1,
                       label=f"slope {p['rms_exponent']:.2f}")
            ax2.legend(fontsize=6)
        ax2.set_xlabel("width")
        ax2.set_ylabel("RMS error of single networks")


def _power_law(ax, p):
    for s in p["series"]:
        x, y = np.asarray(s["x"], float), np.asarray(s["y"], float)
        yerr = 3 * np.asarray(s["se"]) if s.get("se") is not None else None
        ax.errorbar(x, y, yerr=yerr, fmt="o", ms=3, label=s["label"])
        if s.get("exponent") is not None:
            c = np.exp(np.mean(np.log(y) - s["exponent"] * np.log(x)))
            lo, hi = s.get("interval", (s["exponent"], s["exponent"]))
            ax.plot(x, c * x ** s["exponent"], lw=1, label=f"fit {s['exponent']:.3f} [{lo:.3f}, {hi:.3f}]")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(p.get("xlabel", "width"))
    ax.set_ylabel(p.get("ylabel", ""))
    ax.legend(fontsize=6)


def draw(claim_id: str, verdict: str, plot: dict, path: Path) -> None:
    """Draw one evidence plot to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kind = plot["kind"]
    n_rows = len(plot.get("rows", ())) or 4
    fig = plt.figure(figsize=(7, max(2.4, 0.22 * n_rows + 1.0)))
    if kind == "limit":
        _limit(fig, plot)
    else:
        ax = fig.add_subplot(1, 1, 1)
        {"means": _means, "bounds": _bounds, "power_law": _power_law}[kind](ax, plot)
    fig.suptitle(f"{claim_id}: {verdict.replace('_', ' ')}", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    # "tight" grows the canvas to every label: tight_layout alone cut long row labels on the left
    fig.savefig(path, dpi=90, bbox_inches="tight", pad_inches=0.08, metadata={"Software": "paperchecks theory.report"})
    plt.close(fig)


def plot_path(claim_id: str) -> Path:
    """Where a claim's evidence plot lives, relative to the report's directory."""
    return EVIDENCE_DIR / f"{claim_id}.png"


def write_plots(records: list, root: Path) -> dict:
    """Draw the plot of every record that has one, and remove every other plot (of a
    claim renamed or removed, or whose record no longer has plot data; ``records`` is
    always the whole catalogue); returns {claim id: relative path}."""
    out = {}
    for r in records:
        if r.get("plot"):
            rel = plot_path(r["id"])
            draw(r["id"], r["verdict"], r["plot"], Path(root) / rel)
            out[r["id"]] = rel.as_posix()
    for stale in sorted((Path(root) / EVIDENCE_DIR).glob("*.png")):
        if stale.stem not in out:
            stale.unlink()
    return out
