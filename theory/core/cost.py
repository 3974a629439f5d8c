"""What a run will cost, said before it starts, and its progress while it draws.

A Monte-Carlo claim draws at most the last look of its plan, ``budget * --mc-scale``
blocks (:func:`theory.stats.sequential.plan_looks`); the claims that judge one
measurement (one ``Sampling.draw``) share its blocks, so a measurement costs the most
any of its claims may draw. Its seconds per block come from the last report
(``paper_checks.json``: the seconds its claims took over the blocks they drew there), so
the estimate is an upper bound at that machine's speed on one core: claims stop at the
first look that decides them. Exact claims cost what they cost there, whatever the scale.

A run above the default scale (:data:`ANNOUNCE_ABOVE`) prints :func:`announcement` first;
:class:`ProgressExecutor` shows the blocks drawn as they come (tqdm). Above
:data:`~theory.core.context.MAX_SCALE` a run is refused (:class:`~theory.core.context.RunContext`).

>>> from theory.core.registry import get
>>> est = estimate([get("daneshmand2021.fig1.vanilla_rises")], 1000.0)
>>> est.blocks, est.default_blocks
(4000, 4)
>>> announcement(est, 1000.0).startswith("--mc-scale 1000: up to about 4,000 blocks")
True
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Estimate", "estimate", "announcement", "duration", "ProgressExecutor", "ANNOUNCE_ABOVE", "REPORT_JSON"]

#: Runs at a scale above this say their estimate before they start.
ANNOUNCE_ABOVE = 1.0
#: The committed report, whose seconds and blocks time the estimate.
REPORT_JSON = Path(__file__).resolve().parents[2] / "paper_checks.json"


@dataclass(frozen=True)
class Estimate:
    """Blocks at most (``blocks``; ``default_blocks`` at scale 1) and seconds at most, on
    one core at the last report's speed (None when no claim was timed there);
    ``untimed``: how many measurements the report does not time."""

    blocks: int
    default_blocks: int
    seconds: float | None
    untimed: int
    claims: int


def _report_rows(path) -> dict:
    try:
        return {r["id"]: r for r in json.loads(Path(path).read_text())["claims"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def estimate(claims, scale: float, report=None) -> Estimate:
    """The cost of running ``claims`` at Monte-Carlo ``scale`` (module text)."""
    rows = _report_rows(report or REPORT_JSON)
    by_draw: dict = {}
    exact_seconds, timed = 0.0, False
    claims = list(claims)
    for c in claims:
        row = rows.get(c.id) or {}
        seconds = row.get("seconds")
        if not c.monte_carlo:
            if isinstance(seconds, (int, float)):
                exact_seconds += seconds
                timed = True
            continue
        m = by_draw.setdefault(c.measure.draw, {"blocks": 0, "default": 0, "seconds": 0.0, "drawn": 0, "timed": False})
        m["blocks"] = max(m["blocks"], c.measure.plan(scale).blocks[-1])
        m["default"] = max(m["default"], c.measure.plan(1.0).blocks[-1])
        drawn = ((row.get("evidence") or {}).get("sampling") or {}).get("blocks")
        if isinstance(seconds, (int, float)) and isinstance(drawn, int) and drawn > 0:
            m["seconds"] += seconds
            m["drawn"] = max(m["drawn"], drawn)
            m["timed"] = True
    total = exact_seconds
    for m in by_draw.values():
        if m["timed"]:
            total += m["seconds"] / m["drawn"] * m["blocks"]
            timed = True
    return Estimate(blocks=sum(m["blocks"] for m in by_draw.values()),
                    default_blocks=sum(m["default"] for m in by_draw.values()),
                    seconds=total if timed else None, untimed=sum(not m["timed"] for m in by_draw.values()),
                    claims=len(claims))


def duration(seconds: float) -> str:
    """Seconds in the largest unit that keeps the number readable.

    >>> duration(0.2), duration(42.4), duration(5400), duration(3 * 86400), duration(2e10)
    ('under a second', '42 seconds', '1.5 hours', '3 days', '634 years')
    """
    if seconds < 1:
        return "under a second"
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size if unit != "hours" else seconds >= size:
            value = seconds / size
            return f"{value:,.0f} {unit}" if value >= 10 or value == round(value) else f"{value:.1f} {unit}"
    return f"{seconds:.0f} seconds"


def announcement(est: Estimate, scale: float) -> str:
    """One line: the blocks and the time a run at ``scale`` may take."""
    what = f"{est.claims} claim{'s' if est.claims != 1 else ''}"
    line = (f"--mc-scale {scale:g}: up to about {est.blocks:,} blocks of Monte-Carlo draws for {what} "
            f"({est.default_blocks:,} at --mc-scale 1)")
    if est.seconds is not None:
        line += f", an estimated {duration(est.seconds)} on one core at the last report's timings"
        if est.untimed:
            line += f" (plus {est.untimed} measurement{'s' if est.untimed != 1 else ''} it does not time)"
    return line + "; claims stop early once decided (Ctrl-C stops the run)"


class ProgressExecutor:
    """An executor (``map``) that draws with ``inner`` (None: in this process) and moves
    a tqdm bar of ``total`` blocks as blocks come back (on a terminal only: a log gets no
    updates); ``drawn`` counts them either way; the numbers do not change."""

    def __init__(self, total: int, inner=None, desc: str = "Monte-Carlo blocks"):
        from tqdm import tqdm

        self.inner = inner
        self.drawn = 0
        self.bar = tqdm(total=total, desc=desc, unit="block", disable=None)  # a bar only on a terminal

    def map(self, fn, *iterables):
        results = (self.inner.map if self.inner is not None else map)(fn, *iterables)
        for result in results:
            self.drawn += 1
            self.bar.update()
            yield result

    def close(self) -> None:
        self.bar.close()


def worth_announcing(scale: float) -> bool:
    """Whether a run at ``scale`` says its estimate first (above :data:`ANNOUNCE_ABOVE`)."""
    return math.isfinite(scale) and scale > ANNOUNCE_ABOVE
