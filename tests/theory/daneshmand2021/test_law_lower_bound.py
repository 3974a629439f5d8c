"""The lower confidence bound on W_2 of two laws from 1-Lipschitz functionals
(theory.daneshmand2021.mc_judges.law_lower_bound) and the Lemma 2 sampler it is fed by
(simulations.gaussian_pair_singular_values)."""
import math

import numpy as np
import pytest

from simulations import gaussian_pair_singular_values, get_backend
from theory import stats
from theory.daneshmand2021.mc_judges import law_lower_bound
from theory.daneshmand2021.montecarlo import lipschitz_summaries


def _functionals(M):
    """sigma_max, -sigma_min, (sigma_max - sigma_min)/sqrt 2 of matrices M (..., d, n)."""
    sv = np.linalg.svd(M, compute_uv=False)[..., ::-1]  # ascending
    return lipschitz_summaries(sv[..., None, :])


def test_known_truth_scaled_gaussian():
    """X = 1.2 G against G, G d x n iid N(0, 1): W_2 = 0.2 sqrt(d n) exactly (isotropic
    Gaussians in R^(d n)); the bound is positive and below it."""
    d, n, reps = 16, 4, 400
    g = np.random.default_rng(0)
    fx = _functionals(1.2 * g.standard_normal((reps, d, n)))
    fy = _functionals(g.standard_normal((reps, d, n)))
    L, parts = law_lower_bound({"lip_x": fx, "lip_y": fy}, 0.01)
    truth = 0.2 * math.sqrt(d * n)
    assert 0 < L < truth
    assert L > 0.3 * truth  # informative: sigma_max alone carries 0.2 E sigma_max(G)
    assert len(parts) == 3 and all(p["lower"] <= p["difference"] for p in parts.values())


def test_false_alarm_rate_same_law():
    """X and Y of one law: P(L > 0) <= alpha, measured over 500 reseeds (exact binomial
    interval's lower end at most alpha)."""
    alpha, trials, reps = 0.05, 500, stats.MIN_REPLICATES
    g = np.random.default_rng(1)
    hits = 0
    for _ in range(trials):
        fx = _functionals(g.standard_normal((reps, 8, 2)))
        fy = _functionals(g.standard_normal((reps, 8, 2)))
        hits += law_lower_bound({"lip_x": fx, "lip_y": fy}, alpha)[0] > 0
    lo, _ = stats.binomial_interval(hits, trials, 0.01)
    assert lo <= alpha, (hits, trials)


def test_the_bound_is_the_largest_bonferroni_welch_limit_and_refuses_bad_shapes():
    """L is the largest of the three functionals' Welch lower limits at alpha / 3, or 0;
    arrays that are not (runs, 3) are refused."""
    ramp = np.arange(stats.MIN_REPLICATES) / stats.MIN_REPLICATES * 0.5
    x = np.stack([1 + ramp, ramp, ramp], axis=1)
    y = np.stack([ramp, ramp, ramp], axis=1)
    L, parts = law_lower_bound({"lip_x": x, "lip_y": y}, 0.05)
    assert L == parts["sigma_max"]["lower"] == stats.difference(x[:, 0], y[:, 0]).interval(0.05 / 3)[0]
    assert 0 < L < 1.0 and parts["spread"]["lower"] < 0  # functional 0 carries the gap of 1
    assert law_lower_bound({"lip_x": y, "lip_y": x}, 0.05)[0] == 0.0
    with pytest.raises(ValueError, match=r"\(runs, 3\) arrays"):
        law_lower_bound({"lip_x": x[:, :2], "lip_y": y[:, :2]}, 0.05)


def test_pair_sampler_matches_materialized_weights():
    """W H with W d x d iid N(0, 1/d) and a fixed unit-Frobenius H: the sampler's singular
    values (from the spectrum of H^T H only) agree in mean with direct products; G/sqrt(n)'s
    with direct draws."""
    d, n, reps = 12, 3, 4000
    g = np.random.default_rng(2)
    H = g.standard_normal((d, n))
    H /= np.linalg.norm(H)
    lam = np.linalg.eigvalsh(H.T @ H)
    be = get_backend(seed=3)
    sx, sy = gaussian_pair_singular_values(be, lam, d, reps)
    direct_x = np.linalg.svd((g.standard_normal((reps, d, d)) / math.sqrt(d)) @ H, compute_uv=False)[..., ::-1]
    direct_y = np.linalg.svd(g.standard_normal((reps, d, n)) / math.sqrt(d * n), compute_uv=False)[..., ::-1]
    assert sx.shape == sy.shape == (reps, n)
    for a, b in ((sx, direct_x), (sy, direct_y)):
        diff = stats.difference(a[:, -1], b[:, -1])
        assert abs(diff.mean) < 5 * diff.se
        diff = stats.difference(a[:, 0], b[:, 0])
        assert abs(diff.mean) < 5 * diff.se
