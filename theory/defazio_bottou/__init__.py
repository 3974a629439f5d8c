"""Defazio & Bottou, scaling factors and geometric initialization: the sympy
second-moment calculus (calculus), its exact checks (exact_claims) and the claim
catalogue (catalogue)."""
from .calculus import INITS, State, gamma_extrinsic, gamma_intrinsic, layer_gammas, varsigma
from .catalogue import CLAIMS

__all__ = ["CLAIMS", "INITS", "State", "gamma_extrinsic", "gamma_intrinsic", "layer_gammas", "varsigma"]
