"""Defazio & Bottou, scaling factors and geometric initialization: the sympy
second-moment calculus (calculus), its exact checks (exact_claims), Theorem 1 on
random MLPs (montecarlo, mc_judges), Theorem 2 and Figures 1-2 (hessian_checks,
hessian_judges) and the claim catalogue (catalogue)."""
from dataclasses import replace

from .catalogue import PAPER

PAPER = replace(PAPER, coverage_goal=0.95)  # the share of checkable items checked, enforced by the tests

__all__ = ["PAPER"]
