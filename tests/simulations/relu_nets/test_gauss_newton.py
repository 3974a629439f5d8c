"""Per-sample Gauss-Newton blocks: the Gram-trace formula against the explicit
matrices (small widths), the true Hessian by finite differences of the gradient,
Hutchinson's E[(G r)^2], the strided LeNet's shapes, float32 against float64; numpy and
the strict device stand-in."""
import numpy as np
import pytest
from hypothesis import given, settings

from simulations import (
    block_frobenius_sq,
    conv2d_weight_grad,
    cupy_available,
    draw_net,
    get_backend,
    jacobian_grams,
    layer_geometry,
    lenet_spec,
    mean_sq_singular_values,
    mlp_spec,
    net_backward,
    net_forward,
    output_jacobians,
    param_count,
    scaling_vs_hessian,
    to_host,
)
from tests.strategies import seeds
from tests.support.precision import float32_tolerance, rounded_backend

SMALL_CNN = ({"kind": "conv", "in": 2, "out": 3, "k": 3, "stride": 2, "pad": 1, "size": 7},
             {"kind": "conv", "in": 3, "out": 2, "k": 2, "stride": 1, "pad": 0, "size": 4},
             {"kind": "fc", "in": 18, "out": 5}, {"kind": "fc", "in": 5, "out": 4})


def _explicit_jacobians(spec, fwd, phis):
    """J_l per sample (B, c, P_l) on the host, from per-sample weight gradients of unit probes."""
    out = []
    for layer, x, phi in zip(spec, fwd["x"], phis):
        x, phi = to_host(x), to_host(phi)
        B, c = phi.shape[:2]
        if layer["kind"] == "fc":
            out.append(np.einsum("bko,bi->bkoi", phi, x).reshape(B, c, -1))
        else:
            xs = np.repeat(x[:, None], c, axis=1)
            g = conv2d_weight_grad(phi, xs, layer["k"], layer["stride"], layer["pad"], per_sample=True)
            out.append(g.reshape(B, c, -1))
    return out


@pytest.mark.parametrize("spec", [SMALL_CNN, mlp_spec([6, 5, 7, 3])], ids=["cnn", "mlp"])
@given(seed=seeds)
@settings(deadline=None, max_examples=10)
def test_trace_formula_matches_explicit_blocks(backend_name, spec, seed):
    be = get_backend(backend_name, seed=seed)
    Ws = draw_net(be, spec, "he_fan_in")
    x = be.normal((3, 2, 7, 7)) if spec[0]["kind"] == "conv" else be.normal((3, 6))
    fwd = net_forward(spec, Ws, x)
    R = be.normal((spec[-1]["out"],) * 2)
    S = R + R.T
    phis = output_jacobians(spec, Ws, fwd)
    F = to_host(block_frobenius_sq(jacobian_grams(spec, fwd, phis, chunk=2), S))
    Js, S = _explicit_jacobians(spec, fwd, phis), to_host(S)
    for b in range(3):
        for l in range(len(spec)):
            for r in range(len(spec)):
                G = Js[l][b].T @ S @ Js[r][b]
                assert np.isclose(F[b, l, r], (G * G).sum(), rtol=1e-9)
        G = Js[1][b].T @ S @ Js[1][b]
        sv = np.linalg.svd(G, compute_uv=False)
        assert np.isclose(mean_sq_singular_values(spec, F[b])[1, 1], (sv**2).mean(), rtol=1e-9)


def test_gauss_newton_block_is_the_hessian_of_a_relu_net(backend_name):
    """Central differences of the gradient of z^T R z in W_1 give G_11 (ReLU nets are
    piecewise linear, so the Hessian has no second-derivative term)."""
    be = get_backend(backend_name, seed=11)
    spec = SMALL_CNN
    Ws = draw_net(be, spec, "xavier")
    x = be.normal((1, 2, 7, 7))
    R = be.normal((4, 4))
    S = R + R.T

    def grad_w1(W1):
        Wl = [Ws[0], W1, *Ws[2:]]
        fwd = net_forward(spec, Wl, x)
        dy = net_backward(spec, Wl, fwd, fwd["z"] @ S)["dy"][1]
        return to_host(conv2d_weight_grad(dy, fwd["x"][1], 2, 1, 0)).ravel()

    fwd = net_forward(spec, Ws, x)
    J = _explicit_jacobians(spec, fwd, output_jacobians(spec, Ws, fwd))[1][0]
    G = J.T @ to_host(S) @ J
    eps = 1e-6
    P = param_count(spec[1])
    for j in (0, 5, P - 1):
        E = np.zeros(P)
        E[j] = eps
        E = be.asarray(E.reshape(Ws[1].shape))
        col = (grad_w1(Ws[1] + E) - grad_w1(Ws[1] - E)) / (2 * eps)
        assert np.allclose(col, G[:, j], rtol=1e-5, atol=1e-7)


def test_offdiagonal_hessian_block_is_not_the_gauss_newton_block():
    """Off the diagonal the Hessian adds sum_k (dloss/dz_k) d^2 z_k / dW_0 dW_1 (z is
    bilinear in two layers' weights): central differences of the gradient in W_1
    along W_0 differ from G_01 = J_0^T S J_1 (the module docstring's caveat)."""
    be = get_backend(seed=12)
    spec = mlp_spec([4, 5, 3])
    Ws = draw_net(be, spec, "he_fan_in")
    x = be.normal((1, 4))
    R = be.normal((3, 3))
    S = R + R.T

    def grad_w1(W0):
        Wl = [W0, Ws[1]]
        fwd = net_forward(spec, Wl, x)
        dy = net_backward(spec, Wl, fwd, fwd["z"] @ S)["dy"][1]
        return (dy[0][:, None] * fwd["x"][1][0][None, :]).ravel()

    fwd = net_forward(spec, Ws, x)
    J0, J1 = (J[0] for J in _explicit_jacobians(spec, fwd, output_jacobians(spec, Ws, fwd)))
    G01 = J1.T @ S @ J0  # (P_1, P_0): rows W_1, columns W_0
    eps = 1e-6
    H01 = np.empty_like(G01)
    for j in range(param_count(spec[0])):
        E = np.zeros(param_count(spec[0]))
        E[j] = eps
        H01[:, j] = (grad_w1(Ws[0] + E.reshape(Ws[0].shape)) - grad_w1(Ws[0] - E.reshape(Ws[0].shape))) / (2 * eps)
    assert np.linalg.norm(H01 - G01) > 0.05 * np.linalg.norm(G01)


def test_hutchinson_estimate_agrees(backend_name):
    """E_r[(G r)_i^2] over Rademacher probes r equals ||G||_F^2 / P (paper's E[(G_l r)^2])."""
    be = get_backend(backend_name, seed=2)
    spec = mlp_spec([8, 6, 5])
    Ws = draw_net(be, spec, "geometric")
    fwd = net_forward(spec, Ws, be.normal((1, 8)))
    S = np.eye(5) * 2.0
    phis = output_jacobians(spec, Ws, fwd)
    J = _explicit_jacobians(spec, fwd, phis)[0][0]
    G = J.T @ S @ J
    r = np.random.default_rng(0).choice([-1.0, 1.0], size=(G.shape[1], 20000))
    per_probe = ((G @ r) ** 2).mean(0)  # iid over probes, mean ||G||_F^2 / P
    se = per_probe.std(ddof=1) / np.sqrt(per_probe.size)
    frob = to_host(block_frobenius_sq(jacobian_grams(spec, fwd, phis), be.asarray(S)))
    exact = mean_sq_singular_values(spec, frob[0])[0, 0]
    assert abs(per_probe.mean() - exact) < 5.0 * se  # two-sided false alarm ~6e-7


def test_lenet_shapes_and_positive_blocks(backend_name):
    be = get_backend(backend_name, seed=0)
    spec = lenet_spec()
    Ws = draw_net(be, spec, "he_fan_out")
    fwd = net_forward(spec, Ws, be.normal((4, 3, 32, 32)))
    R = be.normal((10, 10))
    F = to_host(block_frobenius_sq(jacobian_grams(spec, fwd, output_jacobians(spec, Ws, fwd)), R + R.T))
    assert F.shape == (4, 5, 5) and np.all(np.diagonal(F, axis1=1, axis2=2) > 0)
    assert [param_count(layer) for layer in spec] == [450, 2400, 48000, 10080, 840]


def _record_and_backward_pass(backend_name, seed: int, init: str):
    """scaling_vs_hessian of SMALL_CNN on one batch, and an independent forward and
    backward pass of the same loss z^T R z (dz = z (R + R^T))."""
    be = get_backend(backend_name, seed=seed)
    Ws = draw_net(be, SMALL_CNN, init)
    x, R = be.normal((5, 2, 7, 7)), be.normal((4, 4))
    fwd = net_forward(SMALL_CNN, Ws, x)
    return (Ws, x, R, scaling_vs_hessian(SMALL_CNN, Ws, x, R), fwd,
            net_backward(SMALL_CNN, Ws, fwd, fwd["z"] @ (R + R.T)))


def test_loss_gradients_from_the_probe_jacobians_match_a_backward_pass(backend_name):
    """scaling_vs_hessian contracts the output Jacobians with S z instead of running a
    second backward pass: both give the same E[dx_{l+1}^2]."""
    spec = SMALL_CNN
    Ws, x, R, rec, fwd, back = _record_and_backward_pass(backend_name, 9, "he_fan_in")
    dys = back["dy"]
    for l, layer in enumerate(spec):
        g = layer_geometry(layer)
        ex, ey, edy = (float((a * a).mean()) for a in (fwd["x"][l], fwd["y"][l], dys[l]))
        assert np.isclose(rec["theorem2"][l], g["n"] * ex**2 * edy / ey, rtol=1e-10)


def test_numbered_eq2_from_a_backward_pass(backend_name):
    """gamma_eq2 is Eq. 2 with Eq. 1's varsigma_l: n_l rho_l^2 E[dx_l^2] E[x_l^2] /
    (n_{l+1} n_l k_l^2 E[W_l^2]^2), dx_l the loss gradient at the layer's input (from an
    independent backward pass) and rho_l the input size. Its ratio to the actual block
    does not change when one layer's weights are rescaled (bias-free ReLU nets are
    positively homogeneous), so the ratio does not depend on the init's variances."""
    spec = SMALL_CNN
    Ws, x, R, rec, fwd, back = _record_and_backward_pass(backend_name, 11, "xavier")
    dxs = back["dx"]
    for l, layer in enumerate(spec):
        g = layer_geometry(layer)
        ex, edx, ew = (float((a * a).mean()) for a in (fwd["x"][l], dxs[l], Ws[l]))
        want = g["n"] * g["rho_in"] ** 2 * edx * ex / (layer["out"] * g["n"] * g["k"] ** 2 * ew**2)
        assert np.isclose(rec["gamma_eq2"][l], want, rtol=1e-10)
    scaled = scaling_vs_hessian(spec, [W * (1.5 if l == 1 else 1.0) for l, W in enumerate(Ws)], x, R)
    assert np.allclose(scaled["gamma_eq2"] / np.diag(scaled["blocks"]), rec["gamma_eq2"] / np.diag(rec["blocks"]),
                       rtol=1e-10)


def test_float32_setup_matches_float64(backend_name):
    """A small strided LeNet setup (5 layers, largest fan-in 400 at fc1) in float32: the
    block averages and Eq. 2's ratios are products and quotients of a few squared
    moments, each within float32_tolerance(5, 400) relative, so 8 times that bounds them."""
    recs = []
    for be in rounded_backend(backend_name, 3):
        spec = lenet_spec(size=20)
        recs.append(scaling_vs_hessian(spec, draw_net(be, spec, "geometric"), be.normal((6, 3, 20, 20)),
                                       be.normal((10, 10))))
    r64, r32 = recs
    tol = 8 * float32_tolerance(5, 400)
    for key in ("blocks", "gamma_eq2", "gamma_rho_in", "theorem2", "order_term"):
        assert np.all(np.abs(r32[key] / r64[key] - 1) <= tol), key


@pytest.mark.gpu
@pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")
def test_cupy_lenet_setup_matches_numpy():
    """The same weights, inputs and loss on both backends give the same blocks and ratios."""
    import cupy as cp

    be = get_backend(seed=7)
    spec = lenet_spec()
    Ws = draw_net(be, spec, "geometric")
    x, R = be.normal((8, 3, 32, 32)), be.normal((10, 10))
    ref = scaling_vs_hessian(spec, Ws, x, R)
    gpu = scaling_vs_hessian(spec, [cp.asarray(W) for W in Ws], cp.asarray(x), cp.asarray(R))
    for key in ("blocks", "gamma_eq2", "gamma_rho_out", "theorem2"):
        assert np.allclose(ref[key], gpu[key], rtol=1e-8)
