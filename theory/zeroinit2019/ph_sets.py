"""Positive homogeneity of the pieces Sec. 2 of the ZeroInit/Fixup submission names,
checked exactly in float64 (f(lam .) against lam f(.), relative error <= TOL):

- the examples of p.h. functions (bias-free linear and convolution layers, max and
  average pooling, addition, concatenation, dropout with a fixed mask, ReLU), with
  non-homogeneous controls (a layer with a bias, softmax, tanh) that must be rejected;
- the three p.h. sets of a ResNet without normalization (Sec. 2, after Eq. 5): (1) the
  first layer before max pooling, (2) a downsampling skip projection together with one
  layer of its branch, (3) the layer before the softmax; and the network as a function
  of its input (Assumption 1 and Proposition 1). Controls: one layer of an identity
  block's branch alone, and the skip projection alone, are not p.h. sets.

The ResNet is a dense analogue (post-activation blocks relu(h + B relu(A h)) as in
Figure 1, left, without normalization): stem, max pooling over pairs of features,
identity blocks, one downsampling block relu(S h + D2 relu(D1 h)) and a classifier.

>>> from theory.core import RunContext
>>> m = examples_measure(RunContext())
>>> sorted(k for k, v in example_errors(m).items() if v < TOL)[:3]
['addition', 'avg_pool', 'concatenation']
"""
from __future__ import annotations

import numpy as np

from simulations.relu_nets import conv2d

from ..judges import judge_exact

__all__ = ["TOL", "LAMBDA", "PH_EXAMPLES", "CONTROLS", "PH_SETS", "NOT_PH_SETS", "examples_measure",
           "example_errors", "judge_examples", "resnet_sets_measure", "set_errors", "judge_resnet_sets"]

TOL = 1e-12
LAMBDA = 2.7
PH_EXAMPLES = ("linear", "convolution", "max_pool", "avg_pool", "addition", "concatenation", "dropout", "relu")
CONTROLS = ("linear_with_bias", "softmax", "tanh")
#: The p.h. sets of the text (plus the input, Assumption 1) and two sets that are not.
PH_SETS = ("input", "stem", "skip_and_branch_last", "skip_and_branch_first", "classifier")
NOT_PH_SETS = ("identity_branch_layer", "skip_alone")


def _rel(a, b) -> float:
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


def examples_measure(ctx) -> dict:
    """Per example and control, f(lam x) and f(x) (:func:`example_errors` compares them)."""
    be = ctx.host_stream("zeroinit2019.ph_examples")  # a deterministic check, on the host
    x = be.normal((4, 3, 6, 6))  # (batch, channels, height, width)
    v = x.reshape(4, -1)
    W = be.normal((5, v.shape[1]))
    K = be.normal((2, 3, 3, 3))
    mask = be.uniform(v.shape) < 0.5
    bias = be.normal((5,))
    B = be.normal((v.shape[1], v.shape[1])) / 10
    maps = {
        "linear": lambda u: (u.reshape(4, -1)) @ W.T,
        "convolution": lambda u: conv2d(u, K, stride=1, pad=1, xp=np),
        "max_pool": lambda u: u.reshape(4, 3, 3, 2, 3, 2).max(axis=(3, 5)),
        "avg_pool": lambda u: u.reshape(4, 3, 3, 2, 3, 2).mean(axis=(3, 5)),
        "addition": lambda u: u.reshape(4, -1) + np.maximum(u.reshape(4, -1) @ B, 0),
        "concatenation": lambda u: np.concatenate([u.reshape(4, -1), np.maximum(u.reshape(4, -1) @ B, 0)], axis=1),
        "dropout": lambda u: u.reshape(4, -1) * mask / 0.5,
        "relu": lambda u: np.maximum(u, 0),
        "linear_with_bias": lambda u: u.reshape(4, -1) @ W.T + bias,
        "softmax": lambda u: np.exp(u.reshape(4, -1)) / np.exp(u.reshape(4, -1)).sum(1, keepdims=True),
        "tanh": np.tanh,
    }
    return {"outputs": {k: (f(LAMBDA * x), f(x)) for k, f in maps.items()}}


def example_errors(m, power: float = 1.0) -> dict:
    """Relative error |f(lam x) - lam^power f(x)| / |lam^power f(x)| of each example and
    control (``power`` 1: first degree, Definition 1)."""
    return {k: _rel(scaled, LAMBDA**power * f) for k, (scaled, f) in m["outputs"].items()}


def judge_examples(m, ctx, claimed=PH_EXAMPLES, controls=CONTROLS, power: float = 1.0):
    """Every ``claimed`` map is p.h. of degree ``power`` (error <= TOL; 1 as stated) and
    every control is not (error above 1e-3, far beyond rounding)."""
    e = example_errors(m, power)
    checks = [{"label": f"{k} is p.h.", "ok": e[k] <= TOL, "measured": e[k], "expected": f"<= {TOL:g}",
               "counterexample": {"map": k, "relative_error": e[k], "lam": LAMBDA}} for k in claimed]
    checks += [{"label": f"control {k} is not p.h.", "ok": e[k] > 1e-3, "measured": e[k], "expected": "> 1e-3",
                "counterexample": {"map": k, "relative_error": e[k]}} for k in controls]
    return judge_exact(checks, f"f(lam x) against lam f(x), lam = {LAMBDA}, float64, random inputs and weights",
                       f"{TOL:g} relative (controls must exceed 1e-3)")


def _resnet(P, x, scaled=(), lam=1.0):
    def s(name, W):
        return lam * W if name in scaled else W

    h = x @ s("stem", P["stem"]).T
    h = np.maximum(h[..., 0::2], h[..., 1::2])  # max pooling over pairs of features
    for i, (A, B) in enumerate(P["blocks"]):
        branch = np.maximum(h @ A.T, 0) @ s(f"identity_branch_{i}", B).T
        h = np.maximum(h + branch, 0)
    skip = h @ s("skip", P["S"]).T
    h = np.maximum(skip + np.maximum(h @ s("branch_first", P["D1"]).T, 0) @ s("branch_last", P["D2"]).T, 0)
    return h @ s("classifier", P["fc"]).T


_SETS = {"input": None, "stem": ("stem",), "skip_and_branch_last": ("skip", "branch_last"),
         "skip_and_branch_first": ("skip", "branch_first"), "classifier": ("classifier",),
         "identity_branch_layer": ("identity_branch_1",), "skip_alone": ("skip",)}


def resnet_sets_measure(ctx, networks: int = 8, n: int = 16) -> dict:
    """Per random He-initialized dense ResNet analogue, f(x) and, per set S (and the
    input), f(x; lam theta_S) (:func:`set_errors` compares them)."""
    outputs = []
    for k in range(networks):
        be = ctx.host_stream("zeroinit2019.ph_sets", k)  # a deterministic check, on the host

        def he(o, i):
            return be.normal((o, i)) * np.sqrt(2.0 / i)

        P = {"stem": he(2 * n, 8), "blocks": [(he(n, n), he(n, n)) for _ in range(3)], "S": he(n // 2, n),
             "D1": he(n // 2, n), "D2": he(n // 2, n // 2), "fc": he(10, n // 2)}
        x = be.normal((6, 8))
        scaled = {name: _resnet(P, LAMBDA * x) if members is None else _resnet(P, x, members, LAMBDA)
                  for name, members in _SETS.items()}
        outputs.append((_resnet(P, x), scaled))
    return {"outputs": outputs, "networks": networks}


def set_errors(m, power: float = 1.0) -> dict:
    """Per set, the largest over the networks of |f(x; lam theta_S) - lam^power f(x)| /
    |lam^power f(x)| (``power`` 1: first degree, Definition 2)."""
    errors = {k: 0.0 for k in _SETS}
    for base, scaled in m["outputs"]:
        ref = LAMBDA**power * base
        for name in _SETS:
            errors[name] = max(errors[name], _rel(scaled[name], ref))
    return errors


def judge_resnet_sets(m, ctx, claimed=PH_SETS, not_sets=NOT_PH_SETS, power: float = 1.0):
    """The claimed sets are p.h. sets of degree ``power`` (error <= TOL on every network;
    1 as stated), the others are not (error above 1e-3)."""
    e = set_errors(m, power)
    checks = [{"label": f"{k} is a p.h. set", "ok": e[k] <= TOL, "measured": e[k], "expected": f"<= {TOL:g}",
               "counterexample": {"set": k, "members": _SETS[k], "relative_error": e[k]}} for k in claimed]
    checks += [{"label": f"{k} is not a p.h. set", "ok": e[k] > 1e-3, "measured": e[k], "expected": "> 1e-3",
                "counterexample": {"set": k, "relative_error": e[k]}} for k in not_sets]
    return judge_exact(checks, f"{m['networks']} random bias-free dense ResNets (stem, max pooling, 3 identity blocks, "
                       f"a downsampling block, classifier), lam = {LAMBDA}, float64", f"{TOL:g} relative")
