"""Monte-Carlo simulators of wide random weight-normalized networks.

Public facade; the modules behind it each hold one piece:
backend (numpy/CuPy), row_laws (random matrices), weightnorm (WN layers),
network (forward/backward of op sequences), initializers (init schemes),
bn_chain (chains of random batch-normalized layers), iterative_orthogonalization
(the SVD-based initialization of Daneshmand et al. 2021, Eq. 6), hessian_net (residual
softmax classifiers with exact Hessian-vector products, layers in hvp_ops). The bias-free
nets of the ZeroInit and Defazio-Bottou checks live in plain_net, branch_resnet, conv,
convnet and gauss_newton.
"""
# backends
from .core.backend import Backend, cupy_available, get_backend, to_host
# random matrices
from .core.random_matrices import CONTROL_LAWS, ISOTROPIC_LAWS, ROW_LAWS, haar_orthogonal, sample_rows
# layers and networks
from .weightnorm import (INIT_SCHEMES, Tape, WNDense, WNLinear, WNResidual, backward, build_mlp, build_resnet,
                         data_dependent_init, draw_layer, effective_weight, forward, layers_of, network_flops, wn_forward,
                         wn_vjp)
# batch-norm chains
from .bn_chains import (EQ6_VARIANTS, METHODS, STARTS, VARIANTS, ChainRecord, a1_margin, batch_norm, centered_gap_floor,
                        eq6_weight, gap_from_gram, initial_representation, orthogonality_gap, simulate_chain)
# residual classifiers and their loss Hessian (ZeroInit/Fixup Table 1)
from .hessian import (TABLE1_SCHEMES, build_classifier, dense_hessian, hvp, lanczos_norm, loss_and_grad,
                          lsuv_calibrate, power_method, synthetic_batch)

__all__ = [
    "Backend", "cupy_available", "get_backend", "to_host",
    "CONTROL_LAWS", "ISOTROPIC_LAWS", "ROW_LAWS", "haar_orthogonal", "sample_rows",
    "WNLinear", "effective_weight", "wn_forward", "wn_vjp",
    "WNDense", "WNResidual", "Tape", "backward", "forward", "layers_of", "network_flops",
    "INIT_SCHEMES", "build_mlp", "build_resnet", "data_dependent_init", "draw_layer",
    "METHODS", "STARTS", "VARIANTS", "ChainRecord", "a1_margin", "batch_norm", "centered_gap_floor", "gap_from_gram",
    "initial_representation", "orthogonality_gap", "simulate_chain", "EQ6_VARIANTS", "eq6_weight",
    "TABLE1_SCHEMES", "build_classifier", "dense_hessian", "hvp", "lanczos_norm", "loss_and_grad", "lsuv_calibrate",
    "power_method", "synthetic_batch",
]
