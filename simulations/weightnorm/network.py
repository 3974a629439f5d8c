"""Networks as sequences of ops, with one forward and one backward loop.

An MLP (Arpit et al. 2019, Eq. 1) is a list of ``WNDense(layer, relu=True)`` ops; a
ResNet (Eq. 6) is a list of ``WNResidual`` ops ``h + alpha * FC2(ReLU(FC1(h)))``,
with optional ``WNDense(relu=False)`` projection shortcuts between stages.

Norms are tracked in log space: with ``renormalize=True`` every op's output is
divided by its norm and the log-norm is accumulated, which is exact for
positively homogeneous networks (zero biases) and keeps 10,000-block stacks
finite. The backward pass renormalizes the error vector the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.namespace import array_namespace, safe_log
from ..core.validation import check_finite, entry_point
from .layers import WNLinear, bias_flags, effective_weight, l2_norms, wn_forward, wn_vjp

__all__ = ["WNDense", "WNResidual", "Tape", "forward", "backward", "network_flops", "layers_of"]


@dataclass
class WNDense:
    """``h -> ReLU(WN(h))`` (or the identity activation when ``relu=False``)."""

    layer: WNLinear
    relu: bool = True


@dataclass
class WNResidual:
    """``h -> h + alpha * FC2(ReLU(FC1(h)))`` (Arpit et al. 2019, Eq. 6; appendix A.2)."""

    fc1: WNLinear
    fc2: WNLinear
    alpha: float = 1.0


@dataclass
class Tape:
    """What the backward pass needs, plus the forward log-norms.

    ``log_norms`` has shape (N, batch, len(ops) + 1): entry k is log||h^k||, with
    h^0 the input.
    """

    caches: list = field(default_factory=list)
    log_norms: Any = None
    output: Any = None
    renormalized: bool = False


def layers_of(ops) -> list[WNLinear]:
    """All weight-normalized layers of a network, in forward order."""
    out = []
    for op in ops:
        out.extend([op.layer] if isinstance(op, WNDense) else [op.fc1, op.fc2])
    return out


def _check_activations(name: str, a, layer, side: str) -> None:
    """``a`` must be (N, batch, n) with n the layer's fan-in (``side="in"``) or fan-out,
    and N the layer's number of networks or 1 (either side broadcasts)."""
    n = layer.fan_in if side == "in" else layer.fan_out
    N = layer.shape[0]
    shape = tuple(getattr(a, "shape", ()))
    if len(shape) != 3 or shape[-1] != n or (shape[0] not in (1, N) and N != 1):
        raise ValueError(f"{name} must have shape (N, batch, {n}) with N = {N} networks (or 1), got shape {shape}")


@entry_point
def forward(ops, x, xp=None, renormalize: bool = False) -> Tape:
    """Run ``x`` of shape (N, batch, n0) through ``ops``; record log-norms. Each op applies
    what it declares, the last one included: a ``WNDense`` its ReLU unless ``relu=False``
    (:func:`~simulations.weightnorm.build_mlp` rectifies every layer, the last too), a
    ``WNResidual`` h + alpha FC2(ReLU(FC1 h)) with no ReLU after the sum; ``tape.output``
    is the last op's output as it applied it. ``x`` must be finite (a ValueError names it
    otherwise)."""
    xp = xp or array_namespace(x)
    if ops:
        _check_activations("x", x, layers_of(ops)[0], "in")
    check_finite("x", x)
    flags = bias_flags(layers_of(ops), xp)
    if renormalize and any(flags):
        raise ValueError("renormalize=True needs zero biases (a positively homogeneous network)")
    bias = iter(flags)  # in layers_of order: a block's fc1, then its fc2
    tape = Tape(renormalized=renormalize)
    h = x
    norm = l2_norms(h, xp)
    logs = [safe_log(norm, xp)]
    if renormalize:
        h = h / xp.where(norm == 0, 1, norm)[..., None]
    for op in ops:
        if isinstance(op, WNDense):
            w = effective_weight(op.layer, xp)
            a = wn_forward(op.layer, h, xp, weight=w, bias=next(bias))
            mask = a > 0 if op.relu else None
            tape.caches.append((h, w, mask))
            h = xp.maximum(a, 0, out=a) if op.relu else a
        else:
            w1 = effective_weight(op.fc1, xp)
            w2 = effective_weight(op.fc2, xp)
            a1 = wn_forward(op.fc1, h, xp, weight=w1, bias=next(bias))
            mask = a1 > 0
            z = xp.maximum(a1, 0, out=a1)
            tape.caches.append((h, w1, mask, z, w2))
            f = wn_forward(op.fc2, z, xp, weight=w2, bias=next(bias))
            if op.alpha != 1.0:
                f *= op.alpha
            f += h
            h = f
        norm = l2_norms(h, xp)
        if renormalize:  # h is this op's own new array: divide in place
            logs.append(logs[-1] + safe_log(norm, xp))
            h /= xp.where(norm == 0, 1, norm)[..., None]
        else:
            logs.append(safe_log(norm, xp))
    tape.log_norms = xp.stack(logs, axis=-1)
    tape.output = h
    return tape


@entry_point
def backward(ops, tape: Tape, error, xp=None, params: bool = False):
    """Backpropagate ``error = dl/dh^L`` (shape (N, batch, n_L), finite) through ``ops``.

    Returns ``(log_grad_norms, grads)``: ``log_grad_norms[..., k]`` is
    log||dl/dh^k|| for k = 0..len(ops); ``grads`` is a list (one dict per WN layer,
    forward order) when ``params=True``, else ``None``.
    """
    if params and tape.renormalized:
        raise ValueError("params=True needs a tape recorded with renormalize=False")
    xp = xp or array_namespace(error)
    if ops:
        _check_activations("error", error, layers_of(ops)[-1], "out")
    check_finite("error", error)
    delta = error
    norm = l2_norms(delta, xp)
    logs = [safe_log(norm, xp)]
    if tape.renormalized:
        delta = delta / xp.where(norm == 0, 1, norm)[..., None]
    grads: list = []
    for op, cache in zip(reversed(ops), reversed(tape.caches)):
        if isinstance(op, WNDense):
            h, w, mask = cache
            d_a = delta * mask if op.relu else delta
            delta, g = wn_vjp(op.layer, h, d_a, xp, params=params, weight=w)
            grads.append(g)
        else:
            h, w1, mask, z, w2 = cache
            d_z, g2 = wn_vjp(op.fc2, z, op.alpha * delta, xp, params=params, weight=w2)
            d_h, g1 = wn_vjp(op.fc1, h, d_z * mask, xp, params=params, weight=w1)
            delta = delta + d_h
            grads.extend([g2, g1])
        norm = l2_norms(delta, xp)
        if tape.renormalized:  # delta is this op's own new array: divide in place
            logs.append(logs[-1] + safe_log(norm, xp))
            delta /= xp.where(norm == 0, 1, norm)[..., None]
        else:
            logs.append(safe_log(norm, xp))
    log_norms = xp.stack(logs[::-1], axis=-1)
    return log_norms, (grads[::-1] if params else None)


def network_flops(ops, batch: int, n_networks: int = 1, backward_pass: bool = True) -> float:
    """Matrix-multiply flops (2*m*n*k) of one forward (+ input-gradient backward) pass."""
    per = sum(2.0 * l.fan_in * l.fan_out for l in layers_of(ops)) * batch * n_networks
    return per * (2 if backward_pass else 1)
