"""Daneshmand, Joudaki & Bach (2021), "Batch normalization orthogonalizes representations
in deep random networks": closed forms (formulas), exact checks (exact_claims),
Monte-Carlo measurements (montecarlo) and their judges (mc_judges: bounds;
figure_judges: figures and trends), and the claim catalogue (catalogue)."""
from .catalogue import PAPER

__all__ = ["PAPER"]
