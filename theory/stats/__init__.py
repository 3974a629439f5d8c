"""Statistics for Monte-Carlo acceptance, in one place: the lowest layer of ``theory``.

Verdicts (:mod:`.verdicts`), means and differences (:mod:`.means`: Student t with Hall's
skewness correction (:mod:`.skewness`), Welch; their resolution in :mod:`.power`), means
of bounded variables (:mod:`.bounded`: empirical-Bernstein limits), fits (:mod:`.fits`:
weighted least squares), counts (:mod:`.counts`: chi-square goodness of fit, exact
binomial intervals) and the sequential schedule of looks (:mod:`.sequential`).

``CLAIM_ALPHA`` is the false-alarm probability of one Monte-Carlo claim: the
probability that its check says ``fails`` although the statement is true (or ``holds``
although it is outside its tolerance band), all its looks and rows together. The tests
run at ``CLAIM_ALPHA / ALPHA_GUARD`` split over the looks and then by each judge over its
rows and parts (Bonferroni); every test puts half its level in each tail. The claim keeps
``CLAIM_ALPHA`` when each test's false-alarm rate is at most ``ALPHA_GUARD`` times its
level: the calibration (docs/statistics.md) counts the rates at ``CALIBRATED_LEVEL`` (the
guarded alpha split over 100 looks, rows and parts) on replicate laws as skewed as the
catalogue's, from ``MIN_REPLICATES`` replicates per sample of a mean test or point of a
limit and ``MIN_POINT_REPLICATES`` per point of another fit, below which the tests refuse
to decide.
"""
from ..verdicts import DECIDED, TooFewReplicates, Verdict, band_verdict, combine, decided
from .bounded import bernstein_limits
from .counts import binomial_interval, goodness_of_fit
from .fits import LACK_OF_FIT_ALPHA, MIN_POINT_REPLICATES, Fit, limit, power_law, wls, wls_batch
from .means import (
                    MIN_REPLICATES,
                    MeanEstimate,
                    TestResult,
                    difference,
                    distance_lower_bound,
                    estimate,
                    inequality_verdict,
                    mean_at_least,
                    mean_at_most,
                    mean_equals,
                    mean_within,
                    shortfall,
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
    "LACK_OF_FIT_ALPHA",
    "Verdict", "DECIDED", "combine", "band_verdict", "decided", "TooFewReplicates", "bernstein_limits",
    "MeanEstimate", "TestResult", "estimate", "difference", "distance_lower_bound", "detectable_deviation",
    "t_quantile", "shortfall", "mean_equals", "mean_within", "mean_at_most", "mean_at_least", "inequality_verdict",
    "Fit", "wls", "wls_batch", "power_law", "limit", "goodness_of_fit",
    "binomial_interval", "LookPlan", "plan_looks",
    "MedianDifference", "median_difference",
]
