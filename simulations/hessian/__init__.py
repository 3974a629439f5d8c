"""Residual softmax classifiers and the spectral norm of their loss Hessian (ZeroInit/Fixup
submission, Table 1, Sec. 4.1): layers with exact Hessian-vector products by the
R-operator (``layers``), the Table 1 models with their loss, gradient and Hessian-vector
product and LSUV (``classifiers``), and the power method, Lanczos and the dense Hessian
(``spectral``)."""
# layers with R-operator passes
# classifiers
from .classifiers import TABLE1_SCHEMES, build_classifier, hvp, loss_and_grad, lsuv_calibrate, synthetic_batch
from .layers import (
                     BatchNorm,
                     Linear,
                     ReLU,
                     ResidualBlock,
                     Scale,
                     Shift,
                     parameters,
                     run_backward,
                     run_forward,
                     set_parameters,
)

# spectral methods
from .spectral import dense_hessian, lanczos_norm, power_method

__all__ = [
    "BatchNorm", "Linear", "ReLU", "ResidualBlock", "Scale", "Shift", "parameters", "run_backward", "run_forward",
    "set_parameters",
    "TABLE1_SCHEMES", "build_classifier", "hvp", "loss_and_grad", "lsuv_calibrate", "synthetic_batch",
    "dense_hessian", "lanczos_norm", "power_method",
]
