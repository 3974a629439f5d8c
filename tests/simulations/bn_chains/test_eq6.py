"""Eq. 6 of Daneshmand et al. (2021): whitening makes the rows of W H orthogonal, float32
is kept, and bad input is named; numpy and the strict device stand-in."""
import numpy as np
import pytest

from simulations import EQ6_VARIANTS, eq6_weight, get_backend, to_host
from tests.support.precision import assert_float32, float32_tolerance, rounded_backend


def test_whitening_orthogonalizes_the_rows(backend_name):
    H = get_backend(backend_name, seed=1).normal((2, 3, 9))
    WH = to_host(eq6_weight(H, "whitening") @ H)
    G = WH @ WH.swapaxes(1, 2)
    np.testing.assert_allclose(G / G[:, :1, :1], np.broadcast_to(np.eye(3), G.shape), atol=1e-12)


@pytest.mark.parametrize("variant", EQ6_VARIANTS)
def test_float32_matches_float64(backend_name, variant):
    """The Gram matrix (W H)^T (W H) does not depend on the singular vectors' signs; its
    float32 error is the SVD's, about cond(H)^2 times one layer's rounding."""
    out = {}
    for be in rounded_backend(backend_name, 2):
        H = be.normal((3, 4, 10))
        WH = eq6_weight(H, variant) @ H
        out[H.dtype.name] = (WH.swapaxes(1, 2) @ WH, H)
    assert_float32(out["float32"])
    h = to_host(out["float64"][1])
    cond = np.linalg.cond(h)[:, None, None] ** 2
    g32, g64 = (to_host(out[k][0]).astype(float) for k in ("float32", "float64"))
    scale = np.abs(g64).max(axis=(1, 2), keepdims=True)
    assert np.all(np.abs(g32 - g64) <= float32_tolerance(1, 10) * cond * scale)


def test_errors():
    H = np.random.default_rng(1).standard_normal((3, 9))
    with pytest.raises(ValueError, match="n \\(columns of H\\) must be >= d"):
        eq6_weight(H.T)
    with pytest.raises(ValueError, match="full row rank"):
        eq6_weight(np.ones((2, 5)))
    with pytest.raises(ValueError, match="variant must be one of"):
        eq6_weight(H, "svd")
    with pytest.raises(ValueError, match="H must have shape"):
        eq6_weight(np.ones(3))


def test_sign_convention_fixes_vprime_plus_minus_identity(backend_name):
    """V' = +-I is one matrix whatever signs the SVD returns: each v_k sums to >= 0, so
    for H >= 0 (Perron-Frobenius) row 1 of W H is >= 0 with V' = I and <= 0 with -I."""
    H = get_backend(backend_name, seed=2).normal((3, 4, 12))
    H = H * (H > 0)
    plus, minus = (to_host(eq6_weight(H, v) @ H) for v in ("orthogonal", "flipped"))
    assert np.all(plus[:, 0] >= -1e-14) and np.all(minus[:, 0] <= 1e-14)
    assert np.all(to_host((eq6_weight(H, "orthogonal") @ H).sum(axis=-1)) >= -1e-14)


@pytest.mark.parametrize("variant", EQ6_VARIANTS)
def test_power_defaults_to_the_variants_exponent_bit_for_bit(backend_name, variant):
    H = get_backend(backend_name, seed=3).normal((2, 3, 7))
    exponent = -1.0 if variant == "whitening" else -0.5
    default, explicit = (to_host(eq6_weight(H, variant, **kw)) for kw in ({}, {"power": exponent}))
    assert np.array_equal(default, explicit)


def test_power_off_minus_one_leaves_the_rows_of_wh_non_orthonormal(backend_name):
    """W H = Sigma^{1 + p} V^T / ||Sigma^{1/2}||_F: at p = -0.999 the row Gram has the
    eigenvalues s^0.002 / sum(s), not equal for rows of scales 1 and 10^-3."""
    be = get_backend(backend_name, seed=4)
    H = be.normal((2, 3, 9)) * be.asarray(np.array([1.0, 1e-3, 1.0]))[:, None]
    WH = to_host(eq6_weight(H, "whitening", power=-0.999) @ H)
    eig = np.linalg.eigvalsh(WH @ WH.swapaxes(1, 2))
    s = np.linalg.svd(to_host(H), compute_uv=False)
    np.testing.assert_allclose(eig, np.sort(s ** 0.002 / s.sum(-1, keepdims=True), axis=-1), rtol=1e-10)
    assert np.all(eig[:, -1] / eig[:, 0] > 1 + 1e-3)


@pytest.mark.parametrize("power", [float("nan"), float("inf"), True, "-1"])
def test_power_errors(power):
    with pytest.raises(ValueError, match="power must be None or a finite real number"):
        eq6_weight(np.random.default_rng(1).standard_normal((2, 5)), "whitening", power=power)
