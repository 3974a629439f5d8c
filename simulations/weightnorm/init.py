"""Initialization schemes for weight-normalized MLPs and ResNets.

Names (``init=``):

- ``"he"``: He-Gaussian directions, ``g = 1`` (Arpit et al. 2019, appendix A.1 (1)).
- ``"proposed_orthogonal"``: Haar-orthogonal directions,
  ``g = sqrt(gamma * fan_in / fan_out)`` (Sec. 3 and 4 "Implementation details";
  gamma = 2 before a ReLU, 1/B_k on a block's last layer, 1 otherwise).
- ``"proposed_he"``: Gaussian directions with the proposed gains (A.1 (3)).
- ``"backward_gain"``: Haar-orthogonal directions with ``g = sqrt(2)`` before a ReLU
  (the backward-pass gain of Theorem 2).
- ``"pytorch_default"``: ``v ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` (PyTorch's
  ``nn.Linear`` default) and ``g_i = ||v_i||`` (``torch.nn.utils.weight_norm``; Sec. 5.1).
- ``"data_dependent"``: Salimans & Kingma (2016): ``v ~ N(0, 0.05^2)``, then per layer
  ``g = 1/sigma``, ``b = -mu/sigma`` from the pre-activation statistics of a batch.
- ``"hanin_stagewise"``: as proposed, but the last layer of block b of a stage
  gets ``g = 0.9^b`` (Sec. 5.1).
"""
from __future__ import annotations

import math

from ..core.backend import Backend
from ..core.haar_factor import haar_factor
from ..core.random_matrices import HAAR_METHODS, haar_orthogonal
from ..core.validation import check_choice, check_finite, check_int, check_real, check_widths, entry_point
from .layers import WNLinear, wn_forward
from .network import WNDense, WNResidual, layers_of

__all__ = ["INIT_SCHEMES", "WN_HAAR_METHODS", "draw_layer", "build_mlp", "build_resnet", "data_dependent_init"]

INIT_SCHEMES = (
    "he", "proposed_orthogonal", "proposed_he", "backward_gain",
    "pytorch_default", "data_dependent", "hanin_stagewise",
)
_DIRECTIONS = {
    "he": "gaussian", "proposed_orthogonal": "orthogonal", "proposed_he": "gaussian",
    "backward_gain": "orthogonal", "pytorch_default": "pytorch_uniform",
    "data_dependent": "gaussian", "hanin_stagewise": "orthogonal",
}
#: Constructions of orthogonal directions: those of :func:`simulations.core.haar_orthogonal`,
#: and ``"factored"``: the ``reflectors`` draw (same stream, same law) kept as a
#: :class:`~simulations.core.HaarFactor` and applied unformed in layers with
#: fan_out <= fan_in (unit rows); a layer with fan_out > fan_in forms V, since WN
#: divides by its row norms.
WN_HAAR_METHODS = HAAR_METHODS + ("factored",)


def draw_layer(be: Backend, n_networks: int, fan_in: int, fan_out: int,
               directions: str, gain, haar_method: str | None = None) -> WNLinear:
    """One WN layer for ``n_networks`` networks; ``gain`` is a number or ``"row_norm"``;
    ``haar_method`` picks the construction of orthogonal directions, one of
    :data:`WN_HAAR_METHODS` (the backend's default when None)."""
    xp = be.xp
    shape = (n_networks, fan_out, fan_in)
    if haar_method is not None:
        check_choice("haar_method", haar_method, WN_HAAR_METHODS)
    if gain != "row_norm":
        gain = check_real("gain", gain)
    factor = None
    if directions == "orthogonal" and haar_method == "factored" and fan_out <= fan_in:
        factor, v = haar_factor(be, n_networks, fan_out, fan_in), None
    elif directions == "orthogonal" and haar_method == "factored":
        # WN divides by V's row norms: form V, the factor's dense() from the same stream
        v = haar_orthogonal(be, n_networks, fan_out, fan_in, "reflectors")
    elif directions == "orthogonal":
        v = haar_orthogonal(be, n_networks, fan_out, fan_in, haar_method)
    elif directions == "pytorch_uniform":
        bound = 1.0 / math.sqrt(fan_in)
        v = be.uniform(shape, -bound, bound)
    else:  # Gaussian; He's variance 2/fan_in (the scale is removed by WN anyway)
        v = be.normal(shape)
        v *= math.sqrt(2.0 / fan_in)  # in place: the same numbers without a second array
    if gain == "row_norm":
        g = xp.sqrt(xp.sum(v * v, axis=-1))
    else:
        g = xp.full((n_networks, fan_out), float(gain), dtype=be.dtype)
    b = xp.zeros((n_networks, fan_out), dtype=be.dtype)
    return WNLinear(v=v, g=g, b=b, factor=factor)


def _gain(init: str, fan_in: int, fan_out: int, gamma: float):
    if init in ("he", "data_dependent"):
        return 1.0
    if init == "pytorch_default":
        return "row_norm"
    if init == "backward_gain":
        return math.sqrt(2.0) if gamma == 2 else 1.0
    return math.sqrt(gamma * fan_in / fan_out)


@entry_point
def build_mlp(be: Backend, widths, init: str, n_networks: int = 1, data=None,
              haar_method: str | None = None) -> list:
    """A weight-normalized ReLU MLP with ``widths = [n_0, n_1, ..., n_L]``.

    ``data`` (shape (N, batch, n_0)) is required for ``init="data_dependent"``;
    ``haar_method`` as in :func:`draw_layer`.
    """
    widths = check_widths("widths", widths)
    if len(widths) < 2:
        raise ValueError("widths must hold at least 2 entries (input and one layer)")
    check_choice("init", init, INIT_SCHEMES)
    n_networks = check_int("n_networks", n_networks, low=1)
    ops = [WNDense(draw_layer(be, n_networks, a, b, _DIRECTIONS[init], _gain(init, a, b, 2.0), haar_method))
           for a, b in zip(widths[:-1], widths[1:])]
    if init == "data_dependent":
        data_dependent_init(be, ops, _require_data(be, data))
    return ops


@entry_point
def build_resnet(be: Backend, dims, blocks, hidden, init: str, n_networks: int = 1,
                 data=None, alpha: float | None = None, haar_method: str | None = None) -> list:
    """A multi-stage WN ResNet.

    ``dims = [d_0, d_1, ..., d_K]``: stage k maps d_{k-1} -> d_k with a projection
    shortcut (a WN linear layer, gamma = 1) when the dimension changes, followed by
    ``blocks[k-1]`` residual blocks ``h + alpha FC2(ReLU(FC1 h))`` whose hidden width is
    ``hidden[k-1]`` (an int, or a list with one width per block).

    The proposed scheme absorbs alpha into FC2's gain (gamma = 1/B_k, Sec. 4), so
    ``alpha`` defaults to 1 for every scheme; pass it to study Eq. 6 directly.
    ``haar_method`` as in :func:`draw_layer`.
    """
    dims = check_widths("dims", dims)
    blocks = check_widths("blocks", blocks, low=1)
    check_choice("init", init, INIT_SCHEMES)
    n_networks = check_int("n_networks", n_networks, low=1)
    if alpha is not None:
        alpha = check_real("alpha", alpha)
    if len(blocks) != len(dims) - 1 or len(hidden) != len(blocks):
        raise ValueError("dims must have one more entry than blocks, and hidden one per stage")
    direc = _DIRECTIONS[init]
    ops: list = []
    for k, n_blocks in enumerate(blocks):
        d_in, d = dims[k], dims[k + 1]
        if d_in != d:
            ops.append(WNDense(draw_layer(be, n_networks, d_in, d, direc, _gain(init, d_in, d, 1.0), haar_method),
                               relu=False))
        widths = hidden[k] if hasattr(hidden[k], "__iter__") else [hidden[k]] * n_blocks
        widths = check_widths(f"hidden[{k}]", widths)
        if len(widths) != n_blocks:
            raise ValueError(f"hidden[{k}] must list {n_blocks} widths, got {len(widths)}")
        for b, w in enumerate(widths, start=1):
            fc1 = draw_layer(be, n_networks, d, w, direc, _gain(init, d, w, 2.0), haar_method)
            g2 = 0.9**b if init == "hanin_stagewise" else _gain(init, w, d, 1.0 / n_blocks)
            fc2 = draw_layer(be, n_networks, w, d, direc, g2, haar_method)
            ops.append(WNResidual(fc1, fc2, 1.0 if alpha is None else float(alpha)))
    if init == "data_dependent":
        data_dependent_init(be, ops, _require_data(be, data))
    return ops


def _require_data(be: Backend, data):
    if data is None:
        raise ValueError("init='data_dependent' needs data: an array of shape (N, batch, n_0)")
    check_finite("data", data)
    return be.asarray(data)


def _normalize_layer(layer: WNLinear, h, xp):
    """Set g, b so the layer's pre-activations have zero mean, unit variance over the batch."""
    layer.g[...] = 1.0
    layer.b[...] = 0.0
    t = wn_forward(layer, h, xp, bias=False)
    mu = xp.mean(t, axis=1)
    sigma = xp.std(t, axis=1)
    sigma = xp.where(sigma == 0, 1, sigma)
    layer.g[...] = 1.0 / sigma
    layer.b[...] = -mu / sigma
    return (t - mu[:, None, :]) / sigma[:, None, :]


@entry_point
def data_dependent_init(be: Backend, ops, data) -> None:
    """Salimans & Kingma's data-dependent init, layer by layer, in place, from the batch
    ``data`` (N, batch, n_0), finite."""
    xp = be.xp
    check_finite("data", data)
    for layer in layers_of(ops):
        layer.v *= 0.05 / math.sqrt(2.0 / layer.fan_in)  # v ~ N(0, 0.05^2)
    h = data
    for op in ops:
        if isinstance(op, WNDense):
            a = _normalize_layer(op.layer, h, xp)
            h = a * (a > 0) if op.relu else a
        else:
            a1 = _normalize_layer(op.fc1, h, xp)
            f = _normalize_layer(op.fc2, a1 * (a1 > 0), xp)
            h = h + op.alpha * f
