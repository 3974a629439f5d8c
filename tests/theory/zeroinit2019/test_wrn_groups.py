"""The grouped WRN analogue of Table 1 (theory.zeroinit2019.wrn_groups): its layout,
exact gradients and Hessian-vector products against finite differences and the dense
Hessian, bad input, and the effect the BatchNorm claim's note describes (the shortcut
that takes the normalized input is what makes the Hessian grow with depth)."""
import numpy as np
import pytest
from hypothesis import example, given, reject, settings
from hypothesis import strategies as st

from simulations import (
    ReLU,
    ResidualBlock,
    get_backend,
    hvp,
    lanczos_norm,
    loss_and_grad,
    parameters,
    power_method,
    run_forward,
    set_parameters,
    to_host,
)
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


def _relu_masks(layers, caches) -> list:
    """Every ReLU's mask (input > 0) from a run_forward of ``layers`` (blocks walked in
    the order of their parts), as host arrays."""
    out = []
    for layer, cache in zip(layers, caches):
        if isinstance(layer, ReLU):
            out.append(to_host(cache))
        elif isinstance(layer, ResidualBlock):
            out += _relu_masks(layer.branch, cache)
        elif isinstance(layer, W.ProjectionBlock):
            for part, part_cache in zip((layer.pre, layer.branch, layer.proj), cache):
                out += _relu_masks(part, part_cache)
    return out


def _masks_at(be, model, x):
    return _relu_masks(model, run_forward(model, x, None, None, be.xp)[2])


#: The loss is piecewise smooth: its gradient jumps where a ReLU input changes sign. A
#: central difference whose two points lie on different sides of such a kink measures the
#: jump over 2 eps, not H v, and nothing is wrong with H v there. So an eps counts only if
#: every ReLU mask at theta + eps v and at theta - eps v equals the one at theta (no kink
#: crossed). Off the kinks the difference is off by O(eps^2) (the unnormalized schemes' third
#: derivative is large: seed 0, baseline, 0.039 at 1e-5, 3.9e-4 at 1e-6, tolerance 0.0196)
#: plus rounding O(1e-16 / eps) (4e-5 at 1e-9), so the check passes if some kink-free eps
#: agrees and fails if none does.
HVP_EPS = (1e-5, 1e-6, 1e-7, 1e-8, 1e-9)


@settings(max_examples=6, deadline=None)
@given(seed=seeds, scheme=st.sampled_from(W.GROUPED_SCHEMES))
# a ReLU input (group 3's projection branch) 3.0e-7 from its kink with tangent 18.8 along v:
# every eps above 1.6e-8 straddles it (off by 8e3 to 8e5 at 1e-5..1e-7); exact to 5e-7 at 1e-8
@example(seed=5677, scheme="batchnorm")
def test_hvp_matches_finite_differences_of_the_gradient(seed, scheme):
    be, model, x, y = _model(seed, scheme, n=2)
    v = [be.normal(p.shape) for p in parameters(model)]
    hv = [to_host(a) for a in hvp(model, x, y, v)]
    tolerance = 1e-5 * max(1.0, max(float(np.abs(a).max()) for a in hv))
    base = [p.copy() for p in parameters(model)]
    masks = _masks_at(be, model, x)
    straddled, errors = [], {}
    for eps in HVP_EPS:
        grads, same_side = [], True
        for sign in (1.0, -1.0):
            set_parameters(model, [p + sign * eps * a for p, a in zip(base, v)])
            grads.append(loss_and_grad(model, x, y)[1])
            same_side &= all(np.array_equal(a, b) for a, b in zip(_masks_at(be, model, x), masks))
        set_parameters(model, base)
        if not same_side:
            straddled.append(eps)
            continue
        errors[eps] = max(float(np.abs(to_host(a - b) / (2 * eps) - c).max()) for a, b, c in zip(*grads, hv))
        if errors[eps] <= tolerance:
            return
    if not errors:
        reject()  # theta lies within 1e-9 of a ReLU kink along v: H v is one-sided there, nothing to compare
    raise AssertionError(f"H v differs from the finite differences of the gradient by {errors} (eps: error; "
                         f"tolerance {tolerance:.3g}) where no ReLU kink lies between the two points "
                         f"(eps {straddled} straddle one)")


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
