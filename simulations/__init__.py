"""Monte-Carlo simulators of random deep networks at initialization, numpy and CuPy from
one code path (the array namespace is read from the arrays), one package per model
family. Every public name is importable from here. One replicate is one independent
network; every forward says what it applies at its last layer.

Every simulator, with the statement it was built for:

- :func:`build_mlp`, :func:`forward`, :func:`backward` (``weightnorm``): weight-normalized
  ReLU MLPs, log-norms of activations and errors; every layer rectified, the last too.
  Arpit, Campos & Bengio (2019), Eq. 1-2 and Theorems 1-2 (norm preservation under the
  proposed init), Figure 1 (left).
- :func:`build_resnet` (``weightnorm``) with the same forward/backward: WN ResNets,
  blocks h + alpha FC2(ReLU(FC1 h)), no ReLU after the sum. Arpit et al. (2019), Eq. 6-8,
  Theorems 3-4 (with alpha = 1/sqrt(B), forward and backward norms grow by a factor c in
  [sqrt 2, sqrt e]), Figure 1 (right), Sec. 4-5.
- :func:`haar_orthogonal`, :func:`sample_rows`, :func:`haar_factor` (``core``): Haar and
  isotropic random rows, Haar factors applied unformed. Arpit et al. (2019), Theorems
  1-2 (random rows of the weight matrices) and the orthogonal inits at large widths;
  Daneshmand et al. (2021), orthogonal matrices of its checks.
- :func:`simulate_chain`, :func:`initial_representation`, :func:`a1_margin`
  (``bn_chains``): chains H_{l+1} = BN(W_l phi(H_l)) / sqrt(d) (vanilla and ReLU
  variants), the orthogonality gap V(H_l) of Eq. 2, Assumption A1. Daneshmand, Joudaki &
  Bach (2021), Eq. 1-2, Theorem 1 and Corollary 3 (V decays geometrically), Figures
  1-3 and 6.
- :func:`eq6_weight` (``bn_chains``): the iterative orthogonalization of Sec. 5.2, Eq. 6,
  as printed and its orthogonal readings.
- :func:`draw_mlp`, :func:`mlp_forward`, :func:`mlp_backward`, :func:`net_forward`,
  :func:`net_backward`, :func:`softmax_xent` (``relu_nets.sequential``): bias-free ReLU
  MLPs and convnets, a ReLU after every layer but the last (the output is the last
  pre-activation). ZeroInit/Fixup submission (2019), Prop. 1 and Theorems 1-2
  (positively homogeneous nets, gradient lower bounds); Defazio & Bottou, Theorem 1
  (the scaling factors of MLPs) and the strided LeNet of Sec. 5.1 (:func:`lenet_spec`,
  :func:`conv2d`).
- :func:`draw_resnet`, :func:`draw_branch_resnet`, :func:`resnet_forward`,
  :func:`resnet_backward`, :func:`sgd_step` (``relu_nets.resnet``): residual nets
  x -> s_out (x + scale_l F_l(x)) with m-layer branches (no ReLU after a branch's last
  layer or after the sum), one branch scale or one per block. ZeroInit/Fixup submission,
  Eq. 2 (variance growth), the design principles and ZeroInit of Sec. 3, the 1/2-scaling
  recurrence of the related work; per-block scales eta_l for residual nets whose l-th
  branch is scaled.
- :func:`scaling_vs_hessian`, :func:`jacobian_grams`, :func:`output_jacobians`
  (``relu_nets.gauss_newton``): per-sample Gauss-Newton blocks. Defazio & Bottou, Sec.
  5.1, Theorem 2, Figures 1-2.
- :func:`build_classifier`, :func:`loss_and_grad`, :func:`hvp`, :func:`lanczos_norm`,
  :func:`power_method`, :func:`lsuv_calibrate` (``hessian``): pre-activation residual
  softmax classifiers ending in a bias-free linear layer (logits), exact Hessian-vector
  products, LSUV. ZeroInit/Fixup submission, Table 1 (the loss Hessian's spectral norm
  under each initialization), Sec. 4.1.

Figures: ``simulations.figures`` (``python -m simulations.figures``). Shared by all:
:mod:`simulations.core` (backends and random streams, the array namespace and dtype
policy, validation, random matrices with the one Haar sampler).

PYTEST_DONT_REWRITE (pytest marks this distribution's packages for assertion rewriting, the
claims plugin being its pytest11 entry point; this module is left as it is).

>>> import simulations
>>> be = simulations.get_backend(seed=0)
>>> ops = simulations.build_mlp(be, [4, 8, 8], "proposed_orthogonal", n_networks=3)
>>> simulations.forward(ops, be.normal((3, 5, 4))).log_norms.shape
(3, 5, 3)
"""
from . import bn_chains, core, hessian, relu_nets, weightnorm

# batch-normalized chains (Daneshmand et al. 2021)
from .bn_chains import (
                   EQ6_VARIANTS,
                   METHODS,
                   STARTS,
                   VARIANTS,
                   ChainRecord,
                   a1_margin,
                   batch_norm,
                   centered_gap_floor,
                   eq6_weight,
                   gap_from_gram,
                   gaussian_pair_singular_values,
                   initial_representation,
                   orthogonality_gap,
                   simulate_chain,
)

# core: backends, array namespace and dtype policy, random matrices
from .core import (
                   CONTROL_LAWS,
                   HAAR_METHODS,
                   ISOTROPIC_LAWS,
                   ROW_LAWS,
                   Backend,
                   HaarFactor,
                   array_namespace,
                   cupy_available,
                   get_backend,
                   haar_factor,
                   haar_orthogonal,
                   sample_rows,
                   stream_key,
                   to_host,
)

# residual classifiers and their loss Hessian (ZeroInit/Fixup Table 1)
from .hessian import (
                   TABLE1_SCHEMES,
                   BatchNorm,
                   Linear,
                   ReLU,
                   ResidualBlock,
                   Scale,
                   Shift,
                   build_classifier,
                   dense_hessian,
                   hvp,
                   lanczos_norm,
                   loss_and_grad,
                   lsuv_calibrate,
                   parameters,
                   power_method,
                   run_backward,
                   run_forward,
                   set_parameters,
                   synthetic_batch,
)

# bias-free ReLU nets (ZeroInit/Fixup, Defazio & Bottou)
from .relu_nets import (
                   BRANCH_SCHEMES,
                   WEIGHT_INITS,
                   block_frobenius_sq,
                   branch_inits,
                   conv2d,
                   conv2d_backward_input,
                   conv2d_weight_grad,
                   conv_output_size,
                   draw_branch_resnet,
                   draw_mlp,
                   draw_net,
                   draw_resnet,
                   jacobian_grams,
                   layer_geometry,
                   lenet_spec,
                   mean_sq_singular_values,
                   mlp_backward,
                   mlp_forward,
                   mlp_spec,
                   net_backward,
                   net_forward,
                   output_jacobians,
                   param_count,
                   patches,
                   resnet_backward,
                   resnet_forward,
                   scaling_vs_hessian,
                   sgd_step,
                   softmax_xent,
                   weight_variance,
                   zeroinit_branch_scale,
)

# weight-normalized MLPs and ResNets (Arpit et al. 2019)
from .weightnorm import (
                   INIT_SCHEMES,
                   WN_HAAR_METHODS,
                   FactoredWeight,
                   Tape,
                   WNDense,
                   WNLinear,
                   WNResidual,
                   backward,
                   build_mlp,
                   build_resnet,
                   data_dependent_init,
                   draw_layer,
                   effective_weight,
                   forward,
                   layers_of,
                   network_flops,
                   times_weight,
                   times_weight_t,
                   wn_forward,
                   wn_vjp,
)

__all__ = [
    "Backend", "array_namespace", "cupy_available", "get_backend", "stream_key", "to_host",
    "CONTROL_LAWS", "HAAR_METHODS", "ISOTROPIC_LAWS", "ROW_LAWS", "haar_orthogonal", "sample_rows",
    "HaarFactor", "haar_factor",
    *weightnorm.__all__, *bn_chains.__all__, *relu_nets.__all__, *hessian.__all__,
]
