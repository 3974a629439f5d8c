"""Bias-free ReLU networks (ZeroInit/Fixup submission; Defazio & Bottou): dense and
convolutional sequential nets through one forward/backward pass, including the strided
LeNet (``sequential``), the convolutions (``conv``), residual nets with m-layer branches
and SGD (``resnet``), and per-sample Gauss-Newton blocks (``gauss_newton``)."""
# sequential nets: MLPs and convnets
# convolutions
from .conv import conv2d, conv2d_backward_input, conv2d_weight_grad, conv_output_size, patches

# Gauss-Newton blocks
from .gauss_newton import (
                         block_frobenius_sq,
                         jacobian_grams,
                         mean_sq_singular_values,
                         output_jacobians,
                         scaling_vs_hessian,
)

# residual nets with m-layer branches
from .resnet import (
                         BRANCH_SCHEMES,
                         branch_inits,
                         draw_branch_resnet,
                         draw_resnet,
                         resnet_backward,
                         resnet_forward,
                         sgd_step,
                         zeroinit_branch_scale,
)
from .sequential import (
                         WEIGHT_INITS,
                         draw_mlp,
                         draw_net,
                         layer_geometry,
                         lenet_spec,
                         mlp_backward,
                         mlp_forward,
                         mlp_spec,
                         net_backward,
                         net_forward,
                         param_count,
                         softmax_xent,
                         weight_variance,
)

__all__ = [
    "WEIGHT_INITS", "draw_mlp", "draw_net", "layer_geometry", "lenet_spec", "mlp_backward", "mlp_forward", "mlp_spec",
    "net_backward", "net_forward", "param_count", "softmax_xent", "weight_variance",
    "conv2d", "conv2d_backward_input", "conv2d_weight_grad", "conv_output_size", "patches",
    "BRANCH_SCHEMES", "branch_inits", "draw_branch_resnet", "draw_resnet", "resnet_backward", "resnet_forward",
    "sgd_step", "zeroinit_branch_scale",
    "block_frobenius_sq", "jacobian_grams", "mean_sq_singular_values", "output_jacobians", "scaling_vs_hessian",
]
