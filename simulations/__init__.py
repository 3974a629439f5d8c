"""Monte-Carlo simulators of random deep networks at initialization, numpy and CuPy from
one code path, one package per model family. Every public name is importable from here.

Paper -> module:

- Arpit, Campos & Bengio (2019), weight norm and ResNets (``arpit2019``):
  :mod:`simulations.weightnorm` (``layers``: WN layer and its VJP, Eq. 1-2;
  ``network``: MLP/ResNet forward and backward in log space, Eq. 6; ``init``: the
  schemes of Sec. 3-5 and App. A), random rows of Theorems 1-2 in
  :mod:`simulations.core.random_matrices`; Figure 1 in ``figures.arpit2019_fig1``.
- Daneshmand et al. (2021), batch norm orthogonalizes (``daneshmand2021``):
  :mod:`simulations.bn_chains` (``chain``: Eq. 1-2, the Gram-law sampler, A1;
  ``eq6``: Sec. 5.2, Eq. 6); Figures 1-3 in ``figures.daneshmand2021_fig*``.
- ZeroInit/Fixup submission (2019) (``zeroinit2019``): :mod:`simulations.relu_nets`
  (``sequential``: p.h. MLPs and softmax cross-entropy, Prop. 1, Theorems 1-2;
  ``resnet``: m-layer branches, Eq. 2, the Sec. 3 principles and SGD, the 1/2-scaling
  recurrence) and :mod:`simulations.hessian` (Table 1 classifiers, Hessian norms by
  the R-operator, LSUV).
- Defazio & Bottou, scaling factors and geometric init (``defazio_bottou``):
  :mod:`simulations.relu_nets` (``sequential``: MLPs of Theorem 1 and the strided LeNet;
  ``conv``; ``gauss_newton``: Theorem 2, Figures 1-2); figures in
  ``figures.defazio_bottou_*``.

Shared by all: :mod:`simulations.core` (backends and random streams, the array
namespace and dtype policy, validation, random matrices with the one Haar sampler).

>>> import simulations
>>> be = simulations.get_backend(seed=0)
>>> ops = simulations.build_mlp(be, [4, 8, 8], "proposed_orthogonal", n_networks=3)
>>> simulations.forward(ops, be.normal((3, 5, 4))).log_norms.shape
(3, 5, 3)
"""
from . import bn_chains, core, hessian, relu_nets, weightnorm
# core: backends, array namespace and dtype policy, random matrices
from .core import (CONTROL_LAWS, HAAR_METHODS, ISOTROPIC_LAWS, ROW_LAWS, Backend, HaarFactor, array_namespace,
                   cupy_available, get_backend, haar_factor, haar_orthogonal, sample_rows, stream_key, to_host)
# weight-normalized MLPs and ResNets (Arpit et al. 2019)
from .weightnorm import (INIT_SCHEMES, WN_HAAR_METHODS, FactoredWeight, Tape, WNDense, WNLinear, WNResidual,
                         backward, build_mlp, build_resnet, data_dependent_init, draw_layer, effective_weight, forward,
                         layers_of, network_flops, times_weight, times_weight_t, wn_forward, wn_vjp)
# batch-normalized chains (Daneshmand et al. 2021)
from .bn_chains import (EQ6_VARIANTS, METHODS, STARTS, VARIANTS, ChainRecord, a1_margin, batch_norm, centered_gap_floor,
                        eq6_weight, gap_from_gram, gaussian_pair_singular_values, initial_representation,
                        orthogonality_gap, simulate_chain)
# bias-free ReLU nets (ZeroInit/Fixup, Defazio & Bottou)
from .relu_nets import (BRANCH_SCHEMES, WEIGHT_INITS, block_frobenius_sq, branch_inits, conv2d, conv2d_backward_input,
                        conv2d_weight_grad, conv_output_size, draw_branch_resnet, draw_mlp, draw_net, draw_resnet,
                        jacobian_grams, layer_geometry, lenet_spec, mean_sq_singular_values, mlp_backward, mlp_forward,
                        mlp_spec, net_backward, net_forward, output_jacobians, param_count, patches, resnet_backward,
                        resnet_forward, scaling_vs_hessian, sgd_step, softmax_xent, weight_variance,
                        zeroinit_branch_scale)
# residual classifiers and their loss Hessian (ZeroInit/Fixup Table 1)
from .hessian import (TABLE1_SCHEMES, BatchNorm, Linear, ReLU, ResidualBlock, Scale, Shift, build_classifier,
                      dense_hessian, hvp, lanczos_norm, loss_and_grad, lsuv_calibrate, parameters, power_method,
                      run_backward, run_forward, set_parameters, synthetic_batch)

__all__ = [
    "Backend", "array_namespace", "cupy_available", "get_backend", "stream_key", "to_host",
    "CONTROL_LAWS", "HAAR_METHODS", "ISOTROPIC_LAWS", "ROW_LAWS", "haar_orthogonal", "sample_rows",
    "HaarFactor", "haar_factor",
    *weightnorm.__all__, *bn_chains.__all__, *relu_nets.__all__, *hessian.__all__,
]
