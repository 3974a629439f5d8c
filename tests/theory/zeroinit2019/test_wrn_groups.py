"""The grouped WRN analogue of Table 1 (theory.zeroinit2019.wrn_groups): its layout,
exact gradients and Hessian-vector products against finite differences and the dense
Hessian, bad input, and the effect the BatchNorm claim's note describes (the shortcut
that takes the normalized input is what makes the Hessian grow with depth)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulations import (ResidualBlock, get_backend, hvp, lanczos_norm, loss_and_grad, parameters, power_method,
                         set_parameters, to_host)
from tests.strategies import seeds
from theory.zeroinit2019 import wrn_groups as W


def _model(seed, scheme, n=1, batch=9, classes=3, networks=2):
    be = get_backend(seed=seed)
    x, y = W.synthetic_batch_groups(be, networks, batch, classes)
    model = W.build_grouped(be, scheme, n, classes, networks)
    set_parameters(model, [p + 0.2 * be.normal(p.shape) for p in parameters(model)])  # off the unit BN gains
    return be, model, x, y


def test_layout_is_wrn_d_1():
    """Stem, N blocks per group (the first of groups 2 and 3 a projection block), norm,
    ReLU, classifier; widths 16, 32, 64."""
    be = get_backend(seed=0)
    model = W.build_grouped(be, "batchnorm", 3, 10, 1)
    kinds = [type(layer).__name__ for layer in model]
    assert kinds[0] == "Linear" and kinds[-1] == "Linear" and kinds[-2] == "ReLU"
    blocks = [layer for layer in model if isinstance(layer, (ResidualBlock, W.ProjectionBlock))]
    assert [type(b).__name__[0] for b in blocks] == list("RRRPRRPRR")
    assert model[-1].params[0].shape == (1, 10, 64)
    proj = [b for b in blocks if isinstance(b, W.ProjectionBlock)]
    assert [b.proj[0].params[0].shape[1:] for b in proj] == [(32, 16), (64, 32)]
    assert type(proj[0].pre[0]).__name__ == "BatchNorm" and type(proj[0].pre[-1]).__name__ == "ReLU"


@settings(max_examples=6, deadline=None)
@given(seed=seeds, scheme=st.sampled_from(W.GROUPED_SCHEMES))
def test_hvp_matches_finite_differences_of_the_gradient(seed, scheme):
    be, model, x, y = _model(seed, scheme, n=2)
    v = [be.normal(p.shape) for p in parameters(model)]
    hv = [to_host(a) for a in hvp(model, x, y, v)]
    base = [p.copy() for p in parameters(model)]
    worst = []
    for eps in (1e-5, 1e-6, 1e-7):  # a kink of a ReLU between the two points spoils one eps, not all
        grads = []
        for sign in (1.0, -1.0):
            set_parameters(model, [p + sign * eps * a for p, a in zip(base, v)])
            grads.append(loss_and_grad(model, x, y)[1])
        set_parameters(model, base)
        worst.append(max(float(np.abs(to_host(a - b) / (2 * eps) - c).max()) for a, b, c in zip(*grads, hv)))
        if worst[-1] <= 1e-5 * max(1.0, max(float(np.abs(a).max()) for a in hv)):
            return
    raise AssertionError(f"H v differs from the finite differences of the gradient by {worst}")


@pytest.mark.parametrize("scheme", W.GROUPED_SCHEMES)
def test_hessian_is_symmetric_and_both_norm_methods_agree(scheme):
    """<u, H v> = <v, H u> (the model has ~11,000 parameters, too many for the dense
    Hessian), and Lanczos finds the power method's spectral norm."""
    be, model, x, y = _model(3, scheme, n=1, batch=6, networks=2)
    u, v = ([be.normal(p.shape) for p in parameters(model)] for _ in range(2))
    uhv, vhu = (sum(to_host((a * b).reshape(2, -1).sum(1)) for a, b in zip(p, hvp(model, x, y, q)))
                for p, q in ((u, v), (v, u)))
    assert np.allclose(uhv, vhu, rtol=1e-9, atol=1e-12)
    power = power_method(be, model, x, y, tol=1e-9, max_iter=20000)
    assert power["converged"]
    assert np.allclose(lanczos_norm(be, model, x, y, tol=1e-10, max_iter=600)["norm"], power["norm"], rtol=1e-4)


@pytest.mark.parametrize("call,match", [
    (lambda be: W.build_grouped(be, "lsuv", 1), "scheme"),
    (lambda be: W.build_grouped(be, "batchnorm", 0), "blocks_per_group"),
    (lambda be: W.synthetic_batch_groups(be, 1, 4, classes=1), "classes"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend(seed=0))


def _norm_ratio(raw_shortcut: bool) -> float:
    """Geometric-mean ||H|| at 6 blocks per group over 1 block per group, BatchNorm, batch
    128, 3 networks; ``raw_shortcut`` moves each projection block's norm-ReLU into its
    branch, so that the shortcut sees the raw stream."""
    logs = []
    for n in (1, 6):
        be = get_backend(seed=11)
        x, y = W.synthetic_batch_groups(be, 3, 128)
        model = W.build_grouped(be, "batchnorm", n, 10, 3)
        if raw_shortcut:
            for layer in model:
                if isinstance(layer, W.ProjectionBlock):
                    layer.branch, layer.pre = layer.pre + layer.branch, []
        logs.append(np.log(lanczos_norm(be, model, x, y, tol=1e-3)["norm"]).mean())
    return float(np.exp(logs[1] - logs[0]))


def test_the_normalized_shortcut_is_what_makes_batchnorms_hessian_grow():
    """With the WRN's shortcut on ReLU(BN(x)) the ratio over 1 -> 6 blocks per group is
    large; with the same shortcut on the raw stream it stays near the flat analogue's."""
    assert _norm_ratio(raw_shortcut=False) > 10 * _norm_ratio(raw_shortcut=True)
