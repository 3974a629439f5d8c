"""BN chains (Daneshmand et al. 2021, Eq. 1-2): invariants, the Gram-law sampler
against materialized weights, deep chains, and clear errors on bad input."""
import numpy as np
import pytest
from hypothesis import given, settings
from scipy import stats

from simulations import (batch_norm, centered_gap_floor, eq6_weight, get_backend, initial_representation,
                         orthogonality_gap, simulate_chain)

from ..strategies import chain_shapes, seeds, starts


@given(shape=chain_shapes(), start=starts, seed=seeds)
@settings(deadline=None)
def test_unit_frobenius_and_gap_range(shape, start, seed):
    runs, d, n = shape
    be = get_backend(seed=seed)
    H0 = initial_representation(be, start, runs, d, n)
    assert np.allclose(np.linalg.norm(H0.reshape(runs, -1), axis=-1), 1)
    for variant in ("bn", "bn_centered", "vanilla"):
        rec = simulate_chain(be, H0, 4, variant)
        # V lies in [0, sqrt(1 - 1/n)]: 0 for orthogonal columns, the maximum for rank one.
        assert np.all(rec.gap >= 0) and np.all(rec.gap <= np.sqrt(1 - 1 / n) + 1e-12)
        assert np.all(np.isfinite(rec.log_smin[:, 1:]))
    M = be.normal((runs, d, n))
    assert np.allclose(np.linalg.norm(batch_norm(M).reshape(runs, -1), axis=-1) / np.sqrt(d), 1)


@given(seed=seeds)
@settings(deadline=None, max_examples=10)
def test_relu_chains_stay_in_range(seed):
    be = get_backend(seed=seed)
    for variant in ("bn_relu", "vanilla_relu"):
        rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 32, 3), 5, variant)
        assert np.all(rec.gap <= np.sqrt(1 - 1 / 3) + 1e-12)


@given(seed=seeds)
@settings(deadline=None, max_examples=10)
def test_centered_chain_respects_its_floor(seed):
    be = get_backend(seed=seed)
    for variant in ("bn_centered", "bn_centered_relu"):
        rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 16, 3), 5, variant)
        assert np.all(rec.gap[:, 1:] >= centered_gap_floor(3) - 1e-12)


@pytest.mark.parametrize("variant", ["bn", "vanilla", "bn_relu"])
def test_gram_sampler_matches_direct_chain_in_law(variant):
    """Two-sample Kolmogorov-Smirnov test on V(H_l) at layers 2 and 6 (alpha 1e-4 each):
    the Gram-law sampler and materialized d x d weights give the same chain law."""
    d, n, runs = 12, 3, 1500
    out = {}
    for k, method in enumerate(("gram", "direct")):
        be = get_backend(seed=100 + k)
        H0 = initial_representation(be, "diagonal_spike", runs, d, n)
        out[method] = simulate_chain(be, H0, 6, variant, method).gap
    for layer in (2, 6):
        assert stats.ks_2samp(out["gram"][:, layer], out["direct"][:, layer]).pvalue > 1e-4


def test_deep_vanilla_chain_stays_finite_in_log_space():
    be = get_backend(seed=2)
    rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 2, 2), 4000, "vanilla")
    assert np.all(np.isfinite(rec.log_norm))
    # With d = 2 the norm shrinks by about exp(-0.29) per layer: far below 1e-308 after 4000.
    assert rec.log_norm[:, -1].max() < np.log(np.finfo(float).tiny)


def test_orthogonality_gap_is_scale_invariant_and_bounded():
    H = np.random.default_rng(0).standard_normal((5, 7, 3))
    assert np.allclose(orthogonality_gap(H), orthogonality_gap(1e-200 * H))
    assert np.allclose(orthogonality_gap(np.ones((4, 3))), np.sqrt(1 - 1 / 3))


@pytest.mark.parametrize("kwargs,match", [
    (dict(start="gaussian", runs=1, d=3, n=4), "n must be an integer in \\[1, 3\\].*d >= batch size"),
    (dict(start="spiral", runs=1, d=3, n=2), "start must be one of"),
    (dict(start="gaussian", runs=0, d=3, n=2), "runs must be an integer >= 1"),
    (dict(start="gaussian", runs=1, d=-3, n=2), "d must be an integer >= 1"),
])
def test_initial_representation_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        initial_representation(get_backend(), **kwargs)


def test_chain_rejects_bad_inputs():
    be = get_backend()
    H = np.ones((1, 4, 2))
    with pytest.raises(ValueError, match="H0 must be finite"):
        simulate_chain(be, H * np.nan, 2)
    Z = H.copy()
    Z[..., 1] = 0
    with pytest.raises(ValueError, match="no zero column"):
        simulate_chain(be, Z, 2)
    with pytest.raises(ValueError, match="n must be an integer in"):
        simulate_chain(be, np.ones((1, 2, 3)), 2)
    with pytest.raises(ValueError, match="variant must be one of"):
        simulate_chain(be, H, 2, "layernorm")
    with pytest.raises(ValueError, match="depth must be an integer >= 0"):
        simulate_chain(be, H, -1)
    with pytest.raises(ValueError, match="H must be non-zero"):
        orthogonality_gap(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="H must be finite"):
        orthogonality_gap(np.full((3, 2), np.nan))


def test_eq6_errors_and_whitening():
    H = np.random.default_rng(1).standard_normal((3, 9))
    WH = eq6_weight(H, "whitening") @ H
    G = WH @ WH.T
    assert np.allclose(G / G[0, 0], np.eye(3))
    with pytest.raises(ValueError, match="n \\(columns of H\\) must be >= d"):
        eq6_weight(H.T)
    with pytest.raises(ValueError, match="full row rank"):
        eq6_weight(np.ones((2, 5)))
    with pytest.raises(ValueError, match="variant must be one of"):
        eq6_weight(H, "svd")
