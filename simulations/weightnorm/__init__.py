"""Weight-normalized ReLU MLPs and ResNets (Arpit, Campos & Bengio 2019): WN layers with
hand-written vector-Jacobian products (``layers``), networks as op lists with one
forward and one backward loop in log space (``network``), and the initialization
schemes the paper compares (``init``)."""
# layers
# initialization schemes
from .init import INIT_SCHEMES, WN_HAAR_METHODS, build_mlp, build_resnet, data_dependent_init, draw_layer
from .layers import FactoredWeight, WNLinear, effective_weight, times_weight, times_weight_t, wn_forward, wn_vjp

# networks
from .network import Tape, WNDense, WNResidual, backward, forward, layers_of, network_flops

__all__ = [
    "FactoredWeight", "WNLinear", "effective_weight", "times_weight", "times_weight_t", "wn_forward", "wn_vjp",
    "Tape", "WNDense", "WNResidual", "backward", "forward", "layers_of", "network_flops",
    "INIT_SCHEMES", "WN_HAAR_METHODS", "build_mlp", "build_resnet", "data_dependent_init", "draw_layer",
]
