"""Residual classifiers and their exact Hessian-vector products (simulations.hessian_net,
simulations.hvp_ops): gradients and HVPs against finite differences, the power method
and Lanczos against the dense Hessian's spectrum, LSUV's unit variances, bad input."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import get_backend
from simulations.core.backend import cupy_available
from simulations.hessian import (Linear, ResidualBlock as Residual, build_classifier, dense_hessian, hvp, lanczos_norm,
                                 loss_and_grad, lsuv_calibrate, parameters, power_method, set_parameters, synthetic_batch)
from tests.strategies import seeds, table1_schemes


def _model(seed, scheme, width=4, blocks=3, classes=3, n=2, batch=7, perturb=True, name="numpy"):
    be = get_backend(name, seed=seed)
    x, y = synthetic_batch(be, n, batch, width, classes)
    model = build_classifier(be, scheme, width, blocks, classes, n, data=x)
    if perturb:  # move off ZeroInit's zeros and unit scalars, so every term of H is exercised
        set_parameters(model, [p + 0.3 * be.normal(p.shape) for p in parameters(model)])
    return be, model, x, y


def _dot(a, b):
    return sum(np.sum((u * w).reshape(u.shape[0], -1), axis=1) for u, w in zip(a, b))


def _at_offsets(model, x, y, v, eps):
    """loss_and_grad at theta + eps v and theta - eps v (the model is restored)."""
    base = [p.copy() for p in parameters(model)]
    out = []
    for sign in (1.0, -1.0):
        set_parameters(model, [p + sign * eps * a for p, a in zip(base, v)])
        out.append(loss_and_grad(model, x, y, np))
    set_parameters(model, base)
    return out


@settings(max_examples=12, deadline=None)
@given(seed=seeds, scheme=table1_schemes)
def test_gradient_matches_finite_differences(seed, scheme):
    be, model, x, y = _model(seed, scheme)
    v = [be.normal(p.shape) for p in parameters(model)]
    _, g = loss_and_grad(model, x, y, np)
    eps = 1e-6
    (lp, _), (lm, _) = _at_offsets(model, x, y, v, eps)
    np.testing.assert_allclose((lp - lm) / (2 * eps), _dot(g, v), rtol=1e-5, atol=1e-7)


@settings(max_examples=12, deadline=None)
@given(seed=seeds, scheme=table1_schemes)
def test_hvp_matches_finite_differences_of_the_gradient(seed, scheme):
    be, model, x, y = _model(seed, scheme)
    v = [be.normal(p.shape) for p in parameters(model)]
    hv = hvp(model, x, y, v, np)
    eps = 1e-5
    (_, gp), (_, gm) = _at_offsets(model, x, y, v, eps)
    scale = max(float(np.abs(a).max()) for a in hv)
    for a, b, c in zip(gp, gm, hv):
        np.testing.assert_allclose((a - b) / (2 * eps), c, atol=1e-5 * max(scale, 1.0))


@pytest.mark.parametrize("scheme", ["baseline", "batchnorm", "zeroinit"])
def test_dense_hessian_is_symmetric_and_both_norm_methods_find_its_spectral_norm(scheme):
    be, model, x, y = _model(3, scheme)
    H = dense_hessian(model, x, y, np)
    np.testing.assert_allclose(H, np.swapaxes(H, 1, 2), atol=1e-10 * np.abs(H).max())
    mags = np.sort(np.abs(np.linalg.eigvalsh(H)), axis=1)
    exact = mags[:, -1]
    lan = lanczos_norm(be, model, x, y, tol=1e-10)
    tol = 1e-9
    pm = power_method(be, model, x, y, tol=tol, max_iter=20000)
    assert lan["converged"] and pm["converged"]
    np.testing.assert_allclose(lan["norm"], exact, rtol=1e-6)
    # ||H v_k|| converges geometrically with rate q = (|l_2|/|l_1|)^2; stopped when a step
    # changes it by < tol, the remaining error is below tol q / (1 - q) (x10 for the
    # pre-asymptotic steps)
    q = (mags[:, -2] / exact) ** 2
    assert np.all(np.abs(pm["norm"] / exact - 1) <= 10 * tol * q / (1 - q) + 1e-12)


def test_zeroinit_network_is_the_uniform_classifier():
    be, model, x, y = _model(1, "zeroinit", perturb=False)
    loss, grads = loss_and_grad(model, x, y, np)
    np.testing.assert_allclose(loss, np.log(3))
    # the zero classifier passes no gradient back: only the classifier itself gets one
    assert all(float(np.abs(g).max()) == 0 for g in grads[:-1])
    assert float(np.abs(grads[-1]).max()) > 0


def test_lsuv_gives_every_linear_layer_unit_output_variance():
    be = get_backend(seed=5)
    x, _ = synthetic_batch(be, 3, 256, 8, 4)
    model = build_classifier(be, "lsuv", 8, 6, 4, 3, data=x)
    h = x
    for layer in model:
        if isinstance(layer, Residual):
            f = h
            for inner in layer.branch:
                if isinstance(inner, Linear):
                    assert np.all(np.abs(np.var(inner.forward(f, None, None, np)[0], axis=(1, 2)) - 1) < 0.1)
                f = inner.forward(f, None, None, np)[0]
            h = h + f
        elif isinstance(layer, Linear):
            assert np.all(np.abs(np.var(layer.forward(h, None, None, np)[0], axis=(1, 2)) - 1) < 0.1)
        else:
            h = layer.forward(h, None, None, np)[0]


def test_deep_baseline_hessian_norm_is_finite():
    """60 blocks of He branches: the stream's variance grows like 2^60, the norm stays finite."""
    be, model, x, y = _model(2, "baseline", width=16, blocks=60, perturb=False, batch=16)
    out = lanczos_norm(be, model, x, y)
    assert out["converged"] and np.all(np.isfinite(out["norm"])) and np.all(out["norm"] > 1e6)


@pytest.mark.parametrize("call, match", [
    (lambda be: build_classifier(be, "fixup", 4, 2, 3), "scheme must be one of"),
    (lambda be: build_classifier(be, "lsuv", 4, 2, 3), "data must be the input batch"),
    (lambda be: build_classifier(be, "baseline", 4, 0, 3), "blocks must be an integer >= 1"),
    (lambda be: synthetic_batch(be, 1, 4, 4, 1), "classes must be an integer >= 2"),
    (lambda be: lsuv_calibrate([], be.normal((1, 2, 2)), np, tol=0.0), "tol must be a finite number > 0"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call(get_backend(seed=0))


def test_bad_input_power_method_and_dense_size():
    be, model, x, y = _model(0, "baseline")
    with pytest.raises(ValueError, match="tol must be a finite number > 0"):
        power_method(be, model, x, y, tol=-1.0)
    with pytest.raises(ValueError, match="max_iter must be an integer >= 2"):
        lanczos_norm(be, model, x, y, max_iter=1)
    be, big, x, y = _model(0, "baseline", width=40, blocks=2, perturb=False)
    with pytest.raises(ValueError, match="dense_hessian needs <= 4000"):
        dense_hessian(big, x, y, np)
    with pytest.raises(ValueError, match="values must hold"):
        set_parameters(model, [])


@pytest.mark.gpu
@pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")
def test_cupy_hvp_matches_numpy():
    from simulations.core.backend import to_host

    for scheme in ("batchnorm", "zeroinit", "lsuv"):
        be, model, x, y = _model(4, scheme)
        v = [be.normal(p.shape) for p in parameters(model)]
        ref = hvp(model, x, y, v, np)
        gbe = get_backend("cupy", seed=0)
        set_parameters(model, [gbe.xp.asarray(p) for p in parameters(model)])
        out = hvp(model, gbe.xp.asarray(x), gbe.xp.asarray(y), [gbe.xp.asarray(a) for a in v], gbe.xp)
        for a, b in zip(ref, out):
            np.testing.assert_allclose(to_host(b), a, rtol=1e-9, atol=1e-12)
        norm = lanczos_norm(gbe, model, gbe.xp.asarray(x), gbe.xp.asarray(y))
        assert norm["converged"]
