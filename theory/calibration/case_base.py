"""What every calibration case shares: the :class:`Case` record, the truths, and the
synthetic claim that runs a case's draw and judge through the catalogue's sequential
runner (:mod:`.cases` holds the core judges' cases, :mod:`.figure_cases` those of the
papers' figure judges)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..core import Claim, Mutation, Sampling, Verdict

__all__ = ["TRUTHS", "Case", "synthetic_claim"]

TRUTHS = ("true", "underpowered", "false_1x", "false_3x", "outside_band")


@dataclass(frozen=True)
class Case:
    """One judge under calibration: ``claim(truth, alpha)`` builds the synthetic claim."""

    name: str
    judge: str
    description: str
    claim: Callable[[str, float], Claim]
    truths: tuple = TRUTHS


def synthetic_claim(name, draw, judge, first, budget, params=None) -> Claim:
    """The claim ``calibration.<name>``: ``draw(ctx, block)`` sampled in blocks from
    ``first`` up to ``budget`` by the sequential runner, judged by ``judge(m, ctx)``."""
    return Claim(id=f"calibration.{name}", where="synthetic", statement=name, kind="identity",
                 recorded=Verdict.HOLDS, measure=Sampling(draw=draw, first=first, budget=budget), judge=judge,
                 params=params or {}, mutations=(Mutation("-", {}),))
