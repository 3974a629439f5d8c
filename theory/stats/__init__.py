"""Statistics for Monte-Carlo acceptance, one layer above :mod:`theory.verdicts`: means and
Welch differences (:mod:`.means`: Student t with Hall's skewness correction,
:mod:`.skewness`; their resolution, :mod:`.power`), means of bounded variables
(:mod:`.bounded`), weighted fits (:mod:`.fits`), counts (:mod:`.counts`), differences of
medians (:mod:`.medians`) and the schedule of looks (:mod:`.sequential`).

``CLAIM_ALPHA`` bounds the probability that one Monte-Carlo claim says ``fails`` of a true
statement (or ``holds`` of one outside its band), all its looks and rows together. Its
tests run at ``CLAIM_ALPHA / ALPHA_GUARD``, split (Bonferroni) over looks, rows and parts,
half in each tail; the calibration (docs/statistics.md) shows every test's rate at most
``ALPHA_GUARD`` times its level at ``CALIBRATED_LEVEL``, from ``MIN_REPLICATES`` replicates
per mean or point of a limit and ``MIN_POINT_REPLICATES`` per point of another fit.
"""
from ..verdicts import DECIDED, TooFewReplicates, Verdict, band_verdict, combine, decided, inequality_verdict, shortfall
from .bounded import bernstein_limits
from .counts import binomial_interval, goodness_of_fit
from .fits import LACK_OF_FIT_ALPHA, MIN_POINT_REPLICATES, Fit, limit, power_law, wls, wls_batch
from .means import (
    MIN_REPLICATES,
    MeanEstimate,
    TestResult,
    difference,
    estimate,
    mean_at_least,
    mean_at_most,
    mean_equals,
    mean_within,
)
from .medians import MedianDifference, median_difference
from .power import POWER, detectable_deviation, t_quantile
from .sequential import ALPHA_GUARD, LookPlan, plan_looks

#: False-alarm probability of one Monte-Carlo claim (all its looks and rows together).
CLAIM_ALPHA = 1e-3
#: The level the calibration counts rates at: the guarded alpha split 100 ways (each tail half of it).
CALIBRATED_LEVEL = CLAIM_ALPHA / (ALPHA_GUARD * 100)

__all__ = [
    "CLAIM_ALPHA", "ALPHA_GUARD", "CALIBRATED_LEVEL", "MIN_REPLICATES", "MIN_POINT_REPLICATES", "POWER",
    "LACK_OF_FIT_ALPHA", "Verdict", "DECIDED", "combine", "decided", "band_verdict", "inequality_verdict", "shortfall",
    "TooFewReplicates", "MeanEstimate", "TestResult", "estimate", "difference", "mean_equals", "mean_within",
    "mean_at_most", "mean_at_least", "detectable_deviation", "t_quantile", "bernstein_limits", "binomial_interval",
    "goodness_of_fit", "Fit", "wls", "wls_batch", "power_law", "limit", "MedianDifference", "median_difference",
    "LookPlan", "plan_looks",
]
