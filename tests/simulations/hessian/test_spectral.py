"""The spectral norm of the loss Hessian: the dense Hessian is symmetric, Lanczos and the
power method find its largest |eigenvalue|, deep models stay finite, float32 is kept;
numpy and the strict device stand-in (and real CuPy against numpy when a GPU is there)."""
import numpy as np
import pytest

from simulations import (
    cupy_available,
    dense_hessian,
    get_backend,
    hvp,
    lanczos_norm,
    parameters,
    power_method,
    set_parameters,
    to_host,
)
from tests.simulations.hessian.models import model_of
from tests.support.precision import float32_tolerance, rounded_backend


@pytest.mark.parametrize("scheme", ["baseline", "batchnorm", "zeroinit"])
def test_dense_hessian_is_symmetric_and_both_norm_methods_find_its_spectral_norm(backend_name, scheme):
    be, model, x, y = model_of(3, scheme, name=backend_name)
    H = dense_hessian(model, x, y)
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


def test_deep_baseline_hessian_norm_is_finite(backend_name):
    """60 blocks of He branches: the stream's variance grows like 2^60, the norm stays finite."""
    be, model, x, y = model_of(2, "baseline", width=16, blocks=60, perturb=False, batch=16, name=backend_name)
    out = lanczos_norm(be, model, x, y)
    assert out["converged"] and np.all(np.isfinite(out["norm"])) and np.all(out["norm"] > 1e6)


def test_float32_norms_agree_with_float64(backend_name):
    """Lanczos in float32 reaches the float64 norm to its own stopping tolerance (1e-3 here)
    plus the HVP's float32 rounding; the Ritz values are computed on the host in float64."""
    norms = []
    for be in rounded_backend(backend_name, 4):
        _, model, x, y = model_of(4, "batchnorm", width=8, be=be)
        norms.append(lanczos_norm(be, model, x, y, tol=1e-3)["norm"])
    assert np.all(np.abs(norms[1] / norms[0] - 1) <= 10 * 1e-3 + float32_tolerance(9, 8))


def test_bad_input_power_method_and_dense_size():
    be, model, x, y = model_of(0, "baseline")
    with pytest.raises(ValueError, match="tol must be a finite number > 0"):
        power_method(be, model, x, y, tol=-1.0)
    with pytest.raises(ValueError, match="max_iter must be an integer >= 2"):
        lanczos_norm(be, model, x, y, max_iter=1)
    be, big, x, y = model_of(0, "baseline", width=40, blocks=2, perturb=False)
    with pytest.raises(ValueError, match="dense_hessian needs <= 4000"):
        dense_hessian(big, x, y)


@pytest.mark.gpu
@pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device is not available")
def test_cupy_hvp_matches_numpy():
    for scheme in ("batchnorm", "zeroinit", "lsuv"):
        be, model, x, y = model_of(4, scheme)
        v = [be.normal(p.shape) for p in parameters(model)]
        ref = hvp(model, x, y, v)
        gbe = get_backend("cupy", seed=0)
        set_parameters(model, [gbe.xp.asarray(p) for p in parameters(model)])
        out = hvp(model, gbe.xp.asarray(x), gbe.xp.asarray(y), [gbe.xp.asarray(a) for a in v])
        for a, b in zip(ref, out):
            np.testing.assert_allclose(to_host(b), a, rtol=1e-9, atol=1e-12)
        norm = lanczos_norm(gbe, model, gbe.xp.asarray(x), gbe.xp.asarray(y))
        assert norm["converged"]
