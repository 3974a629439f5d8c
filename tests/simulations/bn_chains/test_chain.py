"""BN chains (Daneshmand et al. 2021, Eq. 1-2): invariants, the Gram-law sampler against
materialized weights, deep chains, float32 against float64, and clear errors on bad
input; numpy and the strict device stand-in."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from scipy import stats

from simulations import (
    VARIANTS,
    a1_margin,
    batch_norm,
    centered_gap_floor,
    get_backend,
    initial_representation,
    orthogonality_gap,
    simulate_chain,
    to_host,
)
from simulations.bn_chains.chain import _batch_norm_unit
from tests.strategies import chain_shapes, seeds, starts
from tests.support.precision import assert_float32, float32_tolerance, rounded_backend


@given(shape=chain_shapes(), start=starts, seed=seeds)
@settings(deadline=None)
def test_unit_frobenius_and_gap_range(backend_name, shape, start, seed):
    runs, d, n = shape
    be = get_backend(backend_name, seed=seed)
    H0 = initial_representation(be, start, runs, d, n)
    assert np.allclose(np.linalg.norm(to_host(H0).reshape(runs, -1), axis=-1), 1)
    for variant in ("bn", "bn_centered", "vanilla"):
        rec = simulate_chain(be, H0, 4, variant)
        # V lies in [0, sqrt(1 - 1/n)]: 0 for orthogonal columns, the maximum for rank one.
        assert np.all(rec.gap >= 0) and np.all(rec.gap <= np.sqrt(1 - 1 / n) + 1e-12)
        assert np.all(np.isfinite(rec.log_smin[:, 1:]))
    M = be.normal((runs, d, n))
    assert np.allclose(np.linalg.norm(to_host(batch_norm(M)).reshape(runs, -1), axis=-1) / np.sqrt(d), 1)


@given(seed=seeds)
@settings(deadline=None, max_examples=10)
def test_relu_chains_stay_in_range(backend_name, seed):
    be = get_backend(backend_name, seed=seed)
    for variant in ("bn_relu", "vanilla_relu"):
        rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 32, 3), 5, variant)
        assert np.all(rec.gap <= np.sqrt(1 - 1 / 3) + 1e-12)


@given(seed=seeds)
@settings(deadline=None, max_examples=10)
def test_centered_chain_respects_its_floor(backend_name, seed):
    be = get_backend(backend_name, seed=seed)
    for variant in ("bn_centered", "bn_centered_relu"):
        rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 16, 3), 5, variant)
        assert np.all(rec.gap[:, 1:] >= centered_gap_floor(3) - 1e-12)


@pytest.mark.parametrize("variant", ["bn", "vanilla", "bn_relu"])
def test_gram_sampler_matches_direct_chain_in_law(backend_name, variant):
    """Two-sample Kolmogorov-Smirnov test on V(H_l) at layers 2 and 6 (alpha 1e-4 each):
    the Gram-law sampler and materialized d x d weights give the same chain law."""
    d, n, runs = 12, 3, 1500
    out = {}
    for k, method in enumerate(("gram", "direct")):
        be = get_backend(backend_name, seed=100 + k)
        H0 = initial_representation(be, "diagonal_spike", runs, d, n)
        out[method] = simulate_chain(be, H0, 6, variant, method).gap
    for layer in (2, 6):
        assert stats.ks_2samp(out["gram"][:, layer], out["direct"][:, layer]).pvalue > 1e-4


def test_deep_vanilla_chain_stays_finite_in_log_space(backend_name):
    be = get_backend(backend_name, seed=2)
    rec = simulate_chain(be, initial_representation(be, "gaussian", 2, 2, 2), 4000, "vanilla")
    assert np.all(np.isfinite(rec.log_norm))
    # With d = 2 the norm shrinks by about exp(-0.29) per layer: far below 1e-308 after 4000.
    assert rec.log_norm[:, -1].max() < np.log(np.finfo(float).tiny)


@pytest.mark.parametrize("variant", ["bn", "vanilla", "bn_relu"])
def test_float32_direct_chain_matches_float64(backend_name, variant):
    """Materialized weights (method "direct") on the same draws: each layer's matmul has
    fan-in d, so H_L is within float32_tolerance(L, d) of the float64 chain (relative).
    V and the cosine are 2-Lipschitz in H/||H|| and log sigma_min moves by the relative
    error times cond(H), which the float64 run's eigenvalues give."""
    d, n, depth = 16, 4, 8
    recs = [simulate_chain(be, initial_representation(be, "gaussian", 3, d, n), depth, variant, "direct",
                           keep_eigs=True) for be in rounded_backend(backend_name, 7)]
    r64, r32 = recs
    assert_float32(r32.gap, r32.log_smin, r32.cos01, r32.log_norm, r32.eigs, r32.final)
    tol = float32_tolerance(depth, d)
    assert np.abs(r32.gap - r64.gap).max() <= 2 * tol and np.abs(r32.cos01 - r64.cos01).max() <= 2 * tol
    assert np.abs(r32.log_norm - r64.log_norm).max() <= tol
    cond = np.sqrt(r64.eigs[..., -1] / r64.eigs[..., 0])
    assert np.all(np.abs(r32.log_smin - r64.log_smin) <= tol * cond)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v.startswith("bn")])
def test_float32_gram_chain_matches_float64(backend_name, variant):
    """The Gram sampler on the same draws, 40 layers: its factor F is the symmetric square
    root of K = X^T X, a continuous function of X, so float32 rounding moves the chain by
    rounding only (the bound of the direct test, without its log sigma_min term: the
    centered variants' sigma_min is 0 in exact arithmetic). The square root is Lipschitz
    in K with constant 1 / (2 sqrt(lambda_min(K))) (on the complement of the centered
    variants' exact null vector, which centering removes again), and BN keeps K well
    conditioned: over seeds 0-29 at this size the largest error is 0.021 of the bound.
    Vanilla chains collapse in rank (cond K about 3e7 at the median seed here, past
    1/u = 1.7e7, and infinite with ReLU), where the square root is only Hoelder-1/2 and no
    float32 factor follows the float64 path; they are compared in law (the KS test above)
    and, pathwise, through the direct sampler (the test above); in float32 the Gram sampler
    keeps their law (the test below). With an eigenvector
    factor Q diag(sqrt(lam)), equal in law, a rounding-level change can flip an
    eigenvector's sign and draw a different chain: the ReLU variants then miss this bound
    by a factor of about 2e3 at this size."""
    d, n, depth = 32, 8, 40
    r64, r32 = (simulate_chain(be, initial_representation(be, "gaussian", 3, d, n), depth, variant, "gram")
                for be in rounded_backend(backend_name, 7))
    assert_float32(r32.gap, r32.log_smin, r32.cos01, r32.log_norm, r32.final)
    tol = float32_tolerance(depth, d)
    assert np.abs(r32.gap - r64.gap).max() <= 2 * tol and np.abs(r32.cos01 - r64.cos01).max() <= 2 * tol
    assert np.abs(r32.log_norm - r64.log_norm).max() <= tol


@pytest.mark.parametrize("variant", ["vanilla", "vanilla_relu"])
def test_float32_gram_vanilla_chain_keeps_the_law(backend_name, variant):
    """Where no float32 path follows the float64 one (vanilla chains collapse in rank),
    float32 Gram chains still have the chain's law: two-sample KS on V(H_l) at layers 2
    and 6 against float64 materialized weights (alpha 1e-4 each; over 20 seed pairs the
    smaller p-value was at least 0.02), and float32 records. Width 32: at 12 a ReLU chain
    from a Gaussian start vanishes in about one run in 1500 within 6 layers."""
    d, n, runs = 32, 3, 1500
    b32 = get_backend(backend_name, seed=200, dtype="float32")
    b64 = get_backend(backend_name, seed=201)
    r32, r64 = (simulate_chain(be, initial_representation(be, "gaussian", runs, d, n), 6, variant, method)
                for be, method in ((b32, "gram"), (b64, "direct")))
    assert_float32(r32.gap, r32.log_smin, r32.cos01, r32.log_norm, r32.final)
    for layer in (2, 6):
        assert stats.ks_2samp(r32.gap[:, layer], r64.gap[:, layer]).pvalue > 1e-4


def test_float32_gram_chain_stays_float32_and_rank_deficiency_stays_finite(backend_name):
    """log sigma_min floors at float32's tiny (1e-300 would be 0 and give -inf): two equal
    samples make H^T H singular."""
    be = get_backend(backend_name, seed=3, dtype="float32")
    H0 = be.normal((2, 8, 3))
    H0[..., 2] = H0[..., 1]
    rec = simulate_chain(be, H0, 3)
    assert_float32(rec.gap, rec.log_smin, rec.cos01, rec.log_norm, rec.final)
    # finite, and at rounding level: sigma_min^2 / ||H||_F^2 below 100 eps
    assert np.all(np.isfinite(rec.log_smin)) and rec.log_smin[:, 0].max() < 0.5 * np.log(100 * 2.0**-23)


@pytest.mark.parametrize("centered", [False, True])
def test_fused_batch_norm_step_is_batch_norm_at_unit_frobenius_norm(backend_name, centered):
    """The chain's one-pass BN (scale from the count of non-zero rows) equals BN(M) divided
    by its Frobenius norm, keeps zero rows at 0, and returns a run with no non-zero row as
    0 with norm 0 (which the chain reports as vanished). Row 3 of run 0 is constant: a zero
    row only once centered, which must then leave it at 0 and out of the count."""
    be = get_backend(backend_name, seed=5)
    xp = be.xp
    M = be.normal((3, 6, 4))
    M[0, 2] = 0.0
    M[0, 3] = 5.0
    M[2] = 0.0
    M[1, :, :] += 7.0  # a large common offset: centering must remove it first
    expect = batch_norm(M, centered=centered)
    norm = xp.linalg.norm(expect.reshape(3, -1), axis=-1)
    out, log_scale, got_norm = _batch_norm_unit(M.copy(), xp, centered)
    np.testing.assert_allclose(to_host(got_norm), to_host(norm), rtol=1e-14)
    np.testing.assert_allclose(to_host(out[:2]), to_host(expect[:2] / norm[:2, None, None]), rtol=1e-13, atol=1e-15)
    assert not bool(xp.any(out[0, 2])) and not bool(xp.any(out[2])) and float(got_norm[2]) == 0.0
    assert float(log_scale[2]) == 0.0
    assert float(got_norm[0]) == (2.0 if centered else math.sqrt(5))  # 4 or 5 non-zero rows


def test_a_non_finite_layer_is_reported_as_such():
    """A NaN norm (a run with a row that is not finite) is named 'not finite', not
    'vanished', at its layer."""
    from simulations.bn_chains.chain import _raise_if_vanished
    with pytest.raises(FloatingPointError, match=r"was not finite in the bn chain at layer 2 in 1 of 2 runs$"):
        _raise_if_vanished(np.array([[1.0, np.nan, 1.0], [1.0, 1.0, 1.0]]), "bn")
    with pytest.raises(FloatingPointError, match=r"vanished in the bn_relu chain at layer 3 in 1 of 1 runs \(all"):
        _raise_if_vanished(np.array([[1.0, 1.0, 0.0]]), "bn_relu")


def test_fused_batch_norm_step_gives_a_non_finite_row_a_nan_norm(backend_name):
    """A row that is not finite makes its run's norm NaN (the chain then names the layer);
    counted as a zero row, it would leave a finite norm and the NaN would surface a layer
    later, or in eigh."""
    be = get_backend(backend_name, seed=5)
    M = be.normal((3, 4, 2))
    M[0, 1, 0] = float("nan")
    M[1, 2, 1] = float("inf")
    with np.errstate(invalid="ignore"):  # the non-finite rows become NaN on purpose
        _, _, norm = _batch_norm_unit(M, be.xp, False)
    got = to_host(norm)
    assert np.isnan(got[0]) and np.isnan(got[1]) and got[2] == 2.0


def test_orthogonality_gap_is_scale_invariant_and_bounded(backend_name):
    be = get_backend(backend_name, seed=0)
    H = be.normal((5, 7, 3))
    np.testing.assert_allclose(to_host(orthogonality_gap(H)), to_host(orthogonality_gap(1e-200 * H)))
    assert np.allclose(orthogonality_gap(np.ones((4, 3))), np.sqrt(1 - 1 / 3))
    assert orthogonality_gap(be.asarray(np.ones((4, 3))).astype(np.float32)).dtype == np.float32


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
    with pytest.raises(ValueError, match="method must be one of"):
        simulate_chain(be, H, 2, "bn", "svd")
    with pytest.raises(ValueError, match="depth must be an integer >= 0"):
        simulate_chain(be, H, -1)
    with pytest.raises(ValueError, match="H must be non-zero"):
        orthogonality_gap(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="H must be finite"):
        orthogonality_gap(np.full((3, 2), np.nan))


@pytest.mark.parametrize("variant", ["vanilla_relu", "bn_relu"])
def test_a_vanished_representation_is_reported_with_its_layer(backend_name, variant):
    """All rows 0 after ReLU: run 0 starts at -1 (d = n = 1) and vanishes at layer 1; the
    error comes after the chain has run (no per-layer read), and names the layer."""
    be = get_backend(backend_name, seed=0)
    H0 = be.asarray(np.array([-1.0, 1.0]).reshape(2, 1, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the zero representation is carried without 0/0
        with pytest.raises(FloatingPointError, match=f"vanished in the {variant} chain at layer 1 in 1 of 2 runs"):
            simulate_chain(be, H0, 1, variant)  # run 1 (at +1) cannot vanish in one layer
        with pytest.raises(FloatingPointError, match="at layer 1 in [12] of 2 runs"):
            simulate_chain(be, H0, 6, variant)  # run 1 may vanish later, run 0 at layer 1 still comes first
        with pytest.raises(FloatingPointError, match="at layer 1 .* counting from layer 0 of this A1 run"):
            a1_margin(be, H0, 6, variant=variant, chunk=2)
    # a chain that does not vanish is not flagged
    assert simulate_chain(be, be.asarray(np.ones((2, 1, 1))), 1, variant).gap.shape == (2, 2)


def test_a1_margin_stops_on_any_failure_or_runs_every_run_to_its_outcome(backend_name):
    """``stop="any"`` ends the batch at the first failed run (Figure 3's pixel); ``stop="all"``
    drops failed runs and carries the others on to the full depth, so every run's outcome
    is known. Up to the first failure both modes draw the same numbers.

    Near Figure 3's boundary at n = 8 about 15% of runs fail within 200 layers (numpy,
    seeds 3-8: 56 of 384 runs), so with 64 runs the premise "some fail, some hold" holds
    on any backend's stream except with probability about 0.85^64 = 4e-5. With 12 runs
    it held on numpy's stream and not on CuPy's (an H100 run on 2026-11-24)."""
    be = get_backend(backend_name, seed=3)
    runs = 64
    H0 = initial_representation(be, "gaussian", runs, 32, 8)
    ratio_any, layers_any = a1_margin(be.child("a"), H0, 200, 0.1, chunk=10)
    ratio_all, layers_all = a1_margin(be.child("a"), H0, 200, 0.1, chunk=10, stop="all")
    failed_any, failed_all = ratio_any < 0.1, ratio_all < 0.1
    assert 0 < failed_all.sum() < runs  # the premise: some runs fail, the others hold to the end
    assert layers_any < layers_all == 200 and layers_any % 10 == 0
    assert failed_any.any() and np.all(failed_any <= failed_all)  # the first failures, seen by both
    np.testing.assert_array_equal(ratio_all[failed_any], ratio_any[failed_any])  # the same numbers up to them
    assert np.all(ratio_all <= ratio_any)  # the same chains, run further
    with pytest.raises(ValueError, match="stop"):
        a1_margin(be, H0, 10, stop="some")
