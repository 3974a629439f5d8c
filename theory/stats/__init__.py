"""Statistics for Monte-Carlo acceptance, in one place.

Means and differences (:mod:`.means`: Student-t, Welch; Hall's skewness correction in
:mod:`.skewness`, the tests' resolution in :mod:`.power`), means of bounded variables
(:mod:`.bounded`: empirical-Bernstein limits, for any law on a known range), fits (:mod:`.fits`: one
weighted least-squares helper with residual degrees of freedom), counts
(:mod:`.counts`: chi-square goodness of fit, exact binomial intervals) and the
sequential schedule of looks (:mod:`.sequential`).

``CLAIM_ALPHA`` is the false-alarm probability of one Monte-Carlo claim: the
probability that its check says ``fails`` although the statement is true (and that it
says ``holds`` although the statement is outside its tolerance band). It is fixed per
claim, so adding a claim never changes another claim's verdicts or numbers; the
family-wise bound of a paper or of the catalogue is the number of its Monte-Carlo
claims times ``CLAIM_ALPHA`` (union bound), and the report prints it.
"""
from .bounded import bernstein_limits
from .counts import binomial_interval, detectable_noncentrality, goodness_of_fit
from .fits import LACK_OF_FIT_ALPHA, Fit, limit, power_law, wls
from .means import (MeanEstimate, TestResult, TooFewReplicates, difference, distance_lower_bound, estimate,
                    inequality_verdict, mean_at_least, mean_at_most, mean_equals, mean_within, shortfall, variance_less)
from .power import POWER, detectable_deviation, t_quantile
from .sequential import LookPlan, plan_looks

#: False-alarm probability of one Monte-Carlo claim (all its looks and rows together).
CLAIM_ALPHA = 1e-6

__all__ = [
    "CLAIM_ALPHA", "POWER", "LACK_OF_FIT_ALPHA", "bernstein_limits",
    "MeanEstimate", "TestResult", "TooFewReplicates", "estimate", "difference", "distance_lower_bound",
    "detectable_deviation", "t_quantile", "shortfall",
    "mean_equals", "mean_within", "mean_at_most", "mean_at_least", "inequality_verdict", "variance_less",
    "Fit", "wls", "power_law", "limit",
    "goodness_of_fit", "detectable_noncentrality", "binomial_interval",
    "LookPlan", "plan_looks",
]
