"""Monte-Carlo simulators of wide random weight-normalized networks.

Public facade; the modules behind it each hold one piece:
backend (numpy/CuPy), row_laws (random matrices), weightnorm (WN layers),
network (forward/backward of op sequences), initializers (init schemes),
bn_chain (chains of random batch-normalized layers), iterative_orthogonalization
(the SVD-based initialization of Daneshmand et al. 2021, Eq. 6).
"""
# backends
from .backend import Backend, cupy_available, get_backend, to_host
# random matrices
from .row_laws import CONTROL_LAWS, ISOTROPIC_LAWS, ROW_LAWS, haar_orthogonal, sample_rows
# layers and networks
from .weightnorm import WNLinear, effective_weight, wn_forward, wn_vjp
from .network import Dense, Residual, Tape, backward, forward, layers_of, network_flops
# initializers
from .initializers import INIT_SCHEMES, build_mlp, build_resnet, data_dependent_init, draw_layer
# batch-norm chains
from .bn_chain import (METHODS, STARTS, VARIANTS, ChainRecord, a1_margin, batch_norm, centered_gap_floor, gap_from_gram,
                       initial_representation, orthogonality_gap, simulate_chain)
from .iterative_orthogonalization import EQ6_VARIANTS, eq6_weight

__all__ = [
    "Backend", "cupy_available", "get_backend", "to_host",
    "CONTROL_LAWS", "ISOTROPIC_LAWS", "ROW_LAWS", "haar_orthogonal", "sample_rows",
    "WNLinear", "effective_weight", "wn_forward", "wn_vjp",
    "Dense", "Residual", "Tape", "backward", "forward", "layers_of", "network_flops",
    "INIT_SCHEMES", "build_mlp", "build_resnet", "data_dependent_init", "draw_layer",
    "METHODS", "STARTS", "VARIANTS", "ChainRecord", "a1_margin", "batch_norm", "centered_gap_floor", "gap_from_gram",
    "initial_representation", "orthogonality_gap", "simulate_chain", "EQ6_VARIANTS", "eq6_weight",
]
