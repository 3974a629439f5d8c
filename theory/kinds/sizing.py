"""How many replicates a Monte-Carlo claim needs: a rule of thumb for sizing
:func:`~theory.kinds.sampled.grid_sampling` before the first run.

A mean or band claim (:func:`~theory.kinds.sampled.mean_claim`,
:func:`~theory.kinds.sampled.band_claim`) holds only when every row's interval lies
inside its band. The runner judges a claim at the looks of its :class:`Sampling`
(``first`` blocks, doubling up to ``budget``: :func:`theory.stats.plan_looks`), each look
at ``CLAIM_ALPHA / (ALPHA_GUARD * looks)`` (:mod:`theory.stats.sequential`), and the judge splits that
over the rows (Bonferroni: :meth:`theory.core.context.JudgeContext.split`), so each row's
two-sided interval is ``mean +- q se`` with q the normal quantile of alpha_row / 2. With
the true mean at the target, the interval lies inside target +- h (h the band's
half-width: ``tol |target|`` for a relative tolerance) with probability ``POWER`` when

    (q + z) sd / sqrt(n) <= h,   z the normal quantile of (1 + POWER) / 2,

that is n >= ((q + z) sd / h)^2 replicates per row at the last look, sd the standard
deviation of one replicate. A wrong constant that moves the target by d is rejected with
probability POWER when d >= (q + z') sd / sqrt(n), z' the quantile of POWER (the
report's *resolution*). The normal quantile stands in for Student's t (thousands of
replicates); skewed replicates need somewhat more (the report states the skewness).

At a claim's alpha of 1e-3 (given here; the default is the runner's,
:data:`theory.stats.CLAIM_ALPHA`), a coefficient of variation of 0.4, a 5% band and
4 grid points at the default budget:

>>> s = replicates_for(sd=0.4, halfwidth=0.05, rows=4, claim_alpha=1e-3)
>>> s.looks, f"{s.alpha_per_row:.1e}", round(s.critical, 2), s.replicates, s.per_block
(5, '2.5e-05', 4.21, 2198, 138)
"""
from __future__ import annotations

import math
from typing import NamedTuple

from scipy import stats as st

from .. import stats
from .base import helper

__all__ = ["Sizing", "replicates_for"]


class Sizing(NamedTuple):
    """The looks of the sampling, each row's alpha at a look, its two-sided critical
    value, the replicates per row needed at the last look and the ``replicates`` per
    block of :func:`~theory.kinds.sampled.grid_sampling` that give them at ``budget``."""

    looks: int
    alpha_per_row: float
    critical: float
    replicates: int
    per_block: int


@helper
def replicates_for(*, sd: float, halfwidth: float, rows: int, first: int = 1, budget: int = 16,
                   growth: float = 2.0, claim_alpha: float | None = None, power: float = stats.POWER) -> Sizing:
    """The replicates per row for a band of half-width ``halfwidth`` to hold with
    probability ``power`` when the true mean is at the target (module text), given ``sd``
    (one replicate's standard deviation, in the units of ``halfwidth``; a relative band
    takes the coefficient of variation and ``tol``), ``rows`` (the grid's points), the
    sampling's ``first``, ``budget`` and ``growth`` (:func:`grid_sampling`'s defaults)
    and the claim's alpha (default: :data:`theory.stats.CLAIM_ALPHA`, the runner's)."""
    for name, v in (("sd", sd), ("halfwidth", halfwidth)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
    if not (isinstance(rows, int) and rows >= 1):
        raise ValueError(f"rows must be an integer >= 1, got {rows!r}")
    if not 0 < power < 1:
        raise ValueError(f"power must be in (0, 1), got {power!r}")
    plan = stats.plan_looks(first, budget, 1.0, growth)
    alpha = plan.alpha(stats.CLAIM_ALPHA if claim_alpha is None else claim_alpha) / rows
    q = float(st.norm.isf(alpha / 2))
    n = math.ceil(((q + float(st.norm.ppf((1 + power) / 2))) * sd / halfwidth) ** 2)
    return Sizing(plan.looks, alpha, q, n, math.ceil(n / plan.blocks[-1]))
