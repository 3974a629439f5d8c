"""Daneshmand, Joudaki & Bach (2021), "Batch normalization orthogonalizes representations
in deep random networks": closed forms (formulas), exact checks (exact_claims),
Monte-Carlo measurements (montecarlo) and their judges (mc_judges), and the claim
catalogue (catalogue)."""
from .catalogue import CLAIMS
from .formulas import (chi_mean, chi_violation_probability, corollary3_bound, theorem1_bound, w2sq_generic,
                       w2sq_given_gram)

__all__ = ["CLAIMS", "chi_mean", "chi_violation_probability", "corollary3_bound", "theorem1_bound",
           "w2sq_generic", "w2sq_given_gram"]
