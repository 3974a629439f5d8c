"""Sequential Monte Carlo: a fixed schedule of looks with the alpha spent evenly over it.

A claim draws its replicates in blocks and is judged at looks fixed in advance: ``first``
blocks, then growth by ``growth`` up to ``budget`` blocks (both times ``--mc-scale``),
stopping at the first decided look. Each look's tests run at ``claim_alpha / (ALPHA_GUARD
* looks)`` (Bonferroni), so by the union bound a claim whose tests exceed their levels by at
most ``ALPHA_GUARD`` keeps ``claim_alpha`` whatever the stopping rule (docs/statistics.md
says why this design and not confidence sequences).

>>> p = plan_looks(first=2, budget=32, scale=1.0)
>>> p.blocks, p.looks
((2, 4, 8, 16, 32), 5)
>>> plan_looks(first=2, budget=32, scale=0.01).blocks
(1,)
>>> f"{p.alpha(1e-3):.1e}"
'1.0e-04'
"""
from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["ALPHA_GUARD", "LookPlan", "plan_looks"]

#: The claim's alpha over the sum of its tests' levels: the factor by which a test may exceed
#: its level (theory.calibration.rates measures it) with the claim keeping its alpha.
ALPHA_GUARD = 2


@dataclass(frozen=True)
class LookPlan:
    """Cumulative numbers of blocks at each look."""

    blocks: tuple

    @property
    def looks(self) -> int:
        return len(self.blocks)

    def alpha(self, claim_alpha: float) -> float:
        """The level each look's tests run at: the claim's alpha over the guard, split
        evenly over the looks."""
        return claim_alpha / (ALPHA_GUARD * self.looks)


def plan_looks(first: int, budget: int, scale: float, growth: float = 2.0) -> LookPlan:
    """Looks at ``first * scale`` blocks, growing by ``growth`` up to ``budget * scale``
    (at least one block; the budget never below the first look)."""
    if not (isinstance(first, int) and isinstance(budget, int) and 1 <= first <= budget):
        raise ValueError(f"first and budget must be integers with 1 <= first <= budget, got {first}, {budget}")
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a finite number > 0, got {scale!r}")
    if not growth > 1:
        raise ValueError(f"growth must be > 1, got {growth!r}")
    lo = max(1, math.ceil(first * scale - 1e-9))
    hi = max(lo, math.ceil(budget * scale - 1e-9))
    looks = [lo]
    while looks[-1] < hi:
        looks.append(min(hi, max(looks[-1] + 1, math.ceil(looks[-1] * growth - 1e-9))))
    return LookPlan(tuple(looks))
