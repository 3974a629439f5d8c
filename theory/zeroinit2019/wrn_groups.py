"""A dense stand-in for the pre-activation WideResNet-d-1 of Table 1 (ZeroInit/Fixup
submission, Sec. 4.1) WITH its three groups: the closer model for the rows whose
ratio depends on what happens at a group boundary.

WRN-d-k (Zagoruyko & Komodakis 2016) has a first convolution, then three groups of
N = (d - 4)/6 pre-activation blocks of widths 16k, 32k, 64k (k = 1 here: 16, 32, 64),
then BN-ReLU, average pooling and the classifier. In a block whose input and output
widths differ (the first block of groups 2 and 3, which also downsample by stride 2)
the BN-ReLU of the block's input feeds both the branch and a 1 x 1 projection
shortcut, y = P(u) + F(u) with u = ReLU(BN(x)); every other block (group 1's first
included, 16 -> 16 at k = 1) is y = x + F(x) with F = W2 ReLU(BN(W1 ReLU(BN(x)))).
So the stream's variance restarts at each group boundary: under BatchNorm the
residual stream grows over N blocks per group, not over 3N (the flat stand-in of
:mod:`simulations.hessian`, whose 30 blocks at depth 64 let it grow 10 times longer).

The dense analogue keeps exactly that structure: a bias-free stem Linear (16 <- 16,
variance 1/16: no ReLU feeds it), groups of widths 16, 32, 64 with N blocks each, the
projection blocks at the start of groups 2 and 3, the final norm-ReLU and the
classifier; dense layers stand for the 3 x 3 convolutions (He fan-in, gain 2 after a
ReLU), and there is no spatial downsampling (no spatial axis). What it still lacks:
convolutions and images (the inputs are N(0, I_16) with random labels).

Schemes: ``batchnorm`` (BN with full-batch statistics and its affine part, as in the
flat model) and ``baseline`` / ``half_scaling`` (no normalization; the shortcut and
the branch of every block scaled by 1 or sqrt(1/2)).

>>> from simulations.core import get_backend
>>> be = get_backend(seed=0)
>>> x, y = synthetic_batch_groups(be, 2, 8)
>>> model = build_grouped(be, "batchnorm", blocks_per_group=2, classes=3, n_networks=2)
>>> [type(layer).__name__ for layer in model][:4], sum(isinstance(l, ProjectionBlock) for l in model)
(['Linear', 'ResidualBlock', 'ResidualBlock', 'ProjectionBlock'], 2)
"""
from __future__ import annotations

import math

from simulations.core.backend import Backend
from simulations.core.validation import check_choice, check_int
from simulations.hessian.layers import (
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

__all__ = ["GROUP_WIDTHS", "GROUPED_SCHEMES", "ProjectionBlock", "build_grouped", "synthetic_batch_groups"]

#: Widths of WRN-d-1's three groups (16k, 32k, 64k at k = 1); the stem maps 16 inputs to the first.
GROUP_WIDTHS = (16, 32, 64)
GROUPED_SCHEMES = ("baseline", "half_scaling", "batchnorm")


class ProjectionBlock:
    """y = s_out (P(u) + F(u)) with u = pre(x): the pre-activation block whose input
    and output widths differ. ``pre`` (norm and ReLU), ``branch`` and ``proj`` are
    layer lists; R-operator passes as in :mod:`simulations.hessian.layers` (the
    shortcut's and the branch's gradients with respect to u add up before ``pre``)."""

    def __init__(self, pre: list, branch: list, proj: list, s_out: float = 1.0):
        self.pre, self.branch, self.proj, self.s_out = pre, branch, proj, s_out

    @property
    def params(self) -> list:
        return parameters(self.pre) + parameters(self.branch) + parameters(self.proj)

    @params.setter
    def params(self, values) -> None:
        values = list(values)
        i = 0
        for part in (self.pre, self.branch, self.proj):
            k = len(parameters(part))
            set_parameters(part, values[i:i + k])
            i += k

    def _split(self, v):
        if v is None:
            return None, None, None
        a, b = len(parameters(self.pre)), len(parameters(self.branch))
        return v[:a], v[a:a + b], v[a + b:]

    def forward(self, x, rx, v, xp):
        vp, vb, vs = self._split(v)
        u, ru, c_pre = run_forward(self.pre, x, rx, vp, xp)
        f, rf, c_br = run_forward(self.branch, u, ru, vb, xp)
        s, rs, c_pr = run_forward(self.proj, u, ru, vs, xp)
        y = self.s_out * (f + s)
        ry = None
        if rf is not None or rs is not None:
            ry = self.s_out * ((0.0 if rf is None else rf) + (0.0 if rs is None else rs))
        return y, ry, (c_pre, c_br, c_pr)

    def backward(self, dy, rdy, v, cache, xp):
        vp, vb, vs = self._split(v)
        c_pre, c_br, c_pr = cache
        g = self.s_out * dy
        rg = None if rdy is None else self.s_out * rdy
        du_b, rdu_b, g_b, rg_b = run_backward(self.branch, c_br, g, rg, vb, xp)
        du_s, rdu_s, g_s, rg_s = run_backward(self.proj, c_pr, g, rg, vs, xp)
        rdu = None if rdy is None else rdu_b + rdu_s
        dx, rdx, g_p, rg_p = run_backward(self.pre, c_pre, du_b + du_s, rdu, vp, xp)
        return dx, rdx, g_p + g_b + g_s, (None if rdy is None else rg_p + rg_b + rg_s)


def synthetic_batch_groups(be: Backend, n_networks: int, batch: int, classes: int = 10):
    """Inputs N(0, I_16) of shape (N, batch, 16) (the stem's input width) and uniform
    labels (N, batch): one independent batch per network."""
    n_networks = check_int("n_networks", n_networks, low=1)
    batch = check_int("batch", batch, low=1)
    classes = check_int("classes", classes, low=2)
    labels = be.xp.asarray(be.integers(0, classes, (n_networks, batch)))
    return be.normal((n_networks, batch, GROUP_WIDTHS[0])), labels


def build_grouped(be: Backend, scheme: str, blocks_per_group: int, classes: int = 10, n_networks: int = 1) -> list:
    """The layers of a ``scheme`` WRN-(6N+4)-1 analogue with N = ``blocks_per_group``
    (module text): stem, three groups, final norm-ReLU, classifier."""
    check_choice("scheme", scheme, GROUPED_SCHEMES)
    n_blocks = check_int("blocks_per_group", blocks_per_group, low=1)
    classes = check_int("classes", classes, low=2)
    N = check_int("n_networks", n_networks, low=1)
    xp, dt = be.xp, be.dtype
    bn = scheme == "batchnorm"
    s_out = 2**-0.5 if scheme == "half_scaling" else 1.0

    def linear(fan_out, fan_in, variance):
        return Linear(be.normal((N, fan_out, fan_in)) * math.sqrt(variance))

    def he(fan_out, fan_in):  # fed by a ReLU: He et al.'s gain 2
        return linear(fan_out, fan_in, 2.0 / fan_in)

    def norm(features):
        if not bn:
            return []
        return [BatchNorm(), Scale(xp.full((N, 1, features), 1.0, dtype=dt)),
                Shift(xp.full((N, 1, features), 0.0, dtype=dt))]

    first = GROUP_WIDTHS[0]
    layers = [linear(first, first, 1.0 / first)]
    width = first
    for out in GROUP_WIDTHS:
        for _ in range(n_blocks):
            if out != width:  # the group's first block: projection shortcut on the normalized input
                layers.append(ProjectionBlock(norm(width) + [ReLU()],
                                              [he(out, width)] + norm(out) + [ReLU(), he(out, out)],
                                              [he(out, width)], s_out))
            else:
                layers.append(ResidualBlock(norm(width) + [ReLU(), he(width, width)] + norm(width)
                                            + [ReLU(), he(width, width)], s_out))
            width = out
    return layers + norm(width) + [ReLU(), he(classes, width)]
