"""Chains of random batch-normalized layers (Daneshmand et al. 2021): the chain with its
exact Gram-law sampler and per-layer records (``chain``), and the SVD-based iterative
orthogonalization of their Sec. 5.2, Eq. 6 (``eq6``)."""
# chains
from .chain import (
                    METHODS,
                    STARTS,
                    VARIANTS,
                    ChainRecord,
                    a1_margin,
                    batch_norm,
                    centered_gap_floor,
                    gap_from_gram,
                    gaussian_pair_singular_values,
                    initial_representation,
                    orthogonality_gap,
                    simulate_chain,
)

# iterative orthogonalization (Eq. 6)
from .eq6 import EQ6_VARIANTS, eq6_weight

__all__ = [
    "METHODS", "STARTS", "VARIANTS", "ChainRecord", "a1_margin", "batch_norm", "centered_gap_floor", "gap_from_gram",
    "initial_representation", "orthogonality_gap", "simulate_chain", "gaussian_pair_singular_values",
    "EQ6_VARIANTS", "eq6_weight",
]
