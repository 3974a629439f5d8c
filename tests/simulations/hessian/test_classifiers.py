"""Residual classifiers and their exact Hessian-vector products (simulations.hessian):
gradients and HVPs against finite differences of the loss and the gradient, the zero
classifier, LSUV's unit variances, float32 against float64, bad input; numpy and the
strict device stand-in."""
import numpy as np
import pytest
from hypothesis import example, given, settings

from simulations import (
    TABLE1_SCHEMES,
    Linear,
    ResidualBlock,
    build_classifier,
    get_backend,
    hvp,
    loss_and_grad,
    lsuv_calibrate,
    parameters,
    set_parameters,
    synthetic_batch,
    to_host,
)
from tests.simulations.hessian.models import model_of
from tests.strategies import seeds, table1_schemes
from tests.support.precision import assert_float32, float32_tolerance, rounded_backend


def _dot(a, b):
    return sum(to_host((u * w).reshape(u.shape[0], -1).sum(axis=1)) for u, w in zip(a, b))


def _at_offsets(model, x, y, v, eps):
    """loss_and_grad at theta + eps v and theta - eps v (the model is restored)."""
    base = [p.copy() for p in parameters(model)]
    out = []
    for sign in (1.0, -1.0):
        set_parameters(model, [p + sign * eps * a for p, a in zip(base, v)])
        out.append(loss_and_grad(model, x, y))
    set_parameters(model, base)
    return out


#: The loss is piecewise smooth (ReLU kinks): a central difference whose two points straddle
#: a kink is not a derivative (seed 1077, zeroinit: off by 2% at eps 1e-6, exact at 1e-7).
#: Such a crossing needs a kink within eps along v, so it goes away as eps shrinks: a check
#: passes at the first of these eps whose difference agrees, and fails only if none does.
EPS = (1e-5, 1e-6, 1e-7)


def _agrees_at_some_eps(model, x, y, v, error, tolerance, what):
    """Raise unless error(plus, minus, eps) <= tolerance for some eps of EPS, where plus and
    minus are loss_and_grad at theta +- eps v."""
    worst = []
    for eps in EPS:
        plus, minus = _at_offsets(model, x, y, v, eps)
        worst.append(error(plus, minus, eps))
        if worst[-1] <= tolerance:
            return
    raise AssertionError(f"{what} differs from its finite differences by {worst} at eps {EPS}")


@settings(max_examples=12, deadline=None)
@given(seed=seeds, scheme=table1_schemes)
def test_gradient_matches_finite_differences(backend_name, seed, scheme):
    be, model, x, y = model_of(seed, scheme, name=backend_name)
    v = [be.normal(p.shape) for p in parameters(model)]
    _, g = loss_and_grad(model, x, y)
    want = _dot(g, v)

    def error(plus, minus, eps):  # np.allclose(got, want, rtol=1e-5, atol=1e-7) as a number <= 1
        got = to_host(plus[0] - minus[0]) / (2 * eps)
        return float(np.max(np.abs(got - want) / (1e-7 + 1e-5 * np.abs(want))))

    _agrees_at_some_eps(model, x, y, v, error, 1.0, "the gradient (relative to allclose's tolerance)")


@settings(max_examples=12, deadline=None)
@given(seed=seeds, scheme=table1_schemes)
@example(seed=137057, scheme="lsuv")  # a dead layer on the strict stand-in made LSUV's weights NaN
def test_hvp_matches_finite_differences_of_the_gradient(backend_name, seed, scheme):
    be, model, x, y = model_of(seed, scheme, name=backend_name)
    v = [be.normal(p.shape) for p in parameters(model)]
    hv = [to_host(a) for a in hvp(model, x, y, v)]
    scale = max(float(np.abs(a).max()) for a in hv)

    def error(plus, minus, eps):
        return max(float(np.abs(to_host(a - b) / (2 * eps) - c).max()) for a, b, c in zip(plus[1], minus[1], hv))

    _agrees_at_some_eps(model, x, y, v, error, 1e-5 * max(scale, 1.0),
                        f"the Hessian-vector product (scale {scale:.3g})")


def test_zeroinit_network_is_the_uniform_classifier(backend_name):
    be, model, x, y = model_of(1, "zeroinit", perturb=False, name=backend_name)
    loss, grads = loss_and_grad(model, x, y)
    np.testing.assert_allclose(to_host(loss), np.log(3))
    # the zero classifier passes no gradient back: only the classifier itself gets one
    assert all(float(abs(g).max()) == 0 for g in grads[:-1])
    assert float(abs(grads[-1]).max()) > 0


def test_lsuv_keeps_a_layer_whose_output_is_zero(backend_name):
    """A network whose input to a layer is all zero (a dead ReLU on the whole batch)
    keeps that layer's weights instead of turning them NaN (seed 137057, 'lsuv', on the
    strict stand-in: width 4, batch 7); the other network is still calibrated."""
    be = get_backend(backend_name, seed=3)
    xp = be.xp
    x = be.normal((2, 16, 4))
    x = x * xp.asarray(np.array([0.0, 1.0]).reshape(2, 1, 1))  # network 0 sees only zeros
    W = be.normal((2, 5, 4))
    layer = Linear(W.copy())
    lsuv_calibrate([layer], x, xp)
    assert np.array_equal(to_host(layer.params[0][0]), to_host(W[0]))
    assert np.isfinite(to_host(layer.params[0])).all()
    var = to_host(xp.var(layer.forward(x, None, None, xp)[0], axis=(1, 2)))
    assert var[0] == 0 and abs(var[1] - 1) < 0.1
    be, model, x, y = model_of(137057, "lsuv", name=backend_name)
    assert all(np.isfinite(to_host(p)).all() for p in parameters(model))


def test_lsuv_gives_every_linear_layer_unit_output_variance(backend_name):
    be = get_backend(backend_name, seed=5)
    xp = be.xp
    x, _ = synthetic_batch(be, 3, 256, 8, 4)
    model = build_classifier(be, "lsuv", 8, 6, 4, 3, data=x)

    def unit(layer, h):
        return np.all(np.abs(to_host(xp.var(layer.forward(h, None, None, xp)[0], axis=(1, 2))) - 1) < 0.1)

    h = x
    for layer in model:
        if isinstance(layer, ResidualBlock):
            f = h
            for inner in layer.branch:
                assert not isinstance(inner, Linear) or unit(inner, f)
                f = inner.forward(f, None, None, xp)[0]
            h = h + f
        elif isinstance(layer, Linear):
            assert unit(layer, h)
        else:
            h = layer.forward(h, None, None, xp)[0]


@pytest.mark.parametrize("scheme", [s for s in TABLE1_SCHEMES if s != "lsuv"])
def test_float32_matches_float64_on_the_same_draws(backend_name, scheme):
    """Loss, gradient and a Hessian-vector product of 3 blocks (9 layers with the
    classifier's, width 16) in float32: within float32_tolerance(9, 16) times the size
    of each array (LSUV's stopping rule compares variances with a threshold and may stop
    at another step in float32, so it is left out)."""
    out = {}
    for be in rounded_backend(backend_name, 8):
        _, model, x, y = model_of(8, scheme, width=16, be=be)
        v = [be.normal(p.shape) for p in parameters(model)]
        loss, g = loss_and_grad(model, x, y)
        out[be.dtype] = [loss] + g + hvp(model, x, y, v)
    assert_float32(out[np.float32])
    tol = float32_tolerance(9, 16)
    for a32, a64 in zip(out[np.float32], out[np.float64]):
        a32, a64 = to_host(a32).astype(float), to_host(a64)
        assert np.abs(a32 - a64).max() <= tol * max(np.abs(a64).max(), 1e-30)


@pytest.mark.parametrize("call, match", [
    (lambda be: build_classifier(be, "fixup", 4, 2, 3), "scheme must be one of"),
    (lambda be: build_classifier(be, "lsuv", 4, 2, 3), "data must be the input batch"),
    (lambda be: build_classifier(be, "baseline", 4, 0, 3), "blocks must be an integer >= 1"),
    (lambda be: synthetic_batch(be, 1, 4, 4, 1), "classes must be an integer >= 2"),
    (lambda be: lsuv_calibrate([], be.normal((1, 2, 2)), tol=0.0), "tol must be a finite number > 0"),
    (lambda be: set_parameters(model_of(0, "baseline")[1], []), "values must hold"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend(seed=0))
