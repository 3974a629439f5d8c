"""What every calibration case shares: the :class:`Case` record, the truths, and the
synthetic claim that runs a case's draw and judge through the catalogue's sequential
runner (:mod:`.cases` holds the core judges' cases; each paper's own cases are in its
package, ``theory/<paper>/calibration_cases.py``)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy import integrate, optimize
from scipy import stats as st

from ..core import Claim, Mutation, Sampling, Verdict
from ..stats import POWER

__all__ = ["TRUTHS", "Case", "synthetic_claim", "birge_resolution"]

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


def birge_resolution(se: float, alpha: float, dof: int) -> float:
    """Deviation of a fitted coefficient that a two-sided level-alpha test detects with
    probability ``POWER`` when, as in :func:`theory.stats.fits.wls`, the standard error is
    scaled by the Birge ratio sqrt(max(1, chi2_dof / dof)): the power averaged over the
    chi-square law of the residuals (normal coefficient, many replicates per point). The
    branch where ``wls``'s lack-of-fit pre-test rejects (Student t on the residual degrees
    of freedom, probability 0.01) is treated like the other, which overstates the power
    by at most about 0.01; the measured power of the case is what the report shows."""
    crit = float(st.norm.isf(alpha / 2))

    def power(d):
        def inner(q):
            b = math.sqrt(max(1.0, q / dof))
            return float(st.norm.sf(crit * b - d / se)) * float(st.chi2.pdf(q, dof))
        return integrate.quad(inner, 0, dof, limit=200)[0] + integrate.quad(inner, dof, np.inf, limit=200)[0]

    return float(optimize.brentq(lambda d: power(d) - POWER, 0.0, (crit + 40) * se))
