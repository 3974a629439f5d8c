"""Closed forms of Daneshmand et al. (2021): Lemma 2's W_2 distance (mpmath vs scipy),
the deterministic inequalities behind Lemma 2 and Eq. 6, and bad input."""
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.daneshmand2021 import formulas as f
from theory.daneshmand2021.mc_judges import max_w2sq

from ...strategies import precisions, seeds, simplex_spectra


@given(seed=seeds, d=st.integers(1, 5), n=st.integers(1, 4))
@settings(deadline=None, max_examples=30)
def test_closed_form_w2_matches_generic_bures(seed, d, n):
    if n > d:
        n = d
    H = np.random.default_rng(seed).standard_normal((d, n))
    lam = np.linalg.eigvalsh(H.T @ H)
    assert abs(float(f.w2sq_given_gram(lam, 30)) - f.w2sq_generic(H)) < 1e-8


@given(lam=simplex_spectra())
def test_lemma2_pointwise_inequality(lam):
    """sum (sqrt(l) - 1/sqrt n)^2 <= sqrt(n) V <= 2 n V for every trace-one spectrum."""
    n = len(lam)
    w2 = float(f.w2sq_given_gram(lam, 30))
    gap = float(np.sqrt(np.sum((np.asarray(lam) - 1 / n) ** 2)))
    assert w2 <= np.sqrt(n) * gap + 1e-12 <= 2 * n * gap + 1e-12


@given(lam=simplex_spectra())
def test_largest_conditional_w2sq_is_2_minus_2_over_sqrt_n(lam):
    """W_2^2 = 2 - (2/sqrt n) sum sqrt(l) <= 2 - 2/sqrt(n) over trace-one spectra: the
    value behind every informative flag of Lemma 2's bound rows (mc_judges.max_w2sq)."""
    assert float(f.w2sq_given_gram(lam, 30)) <= max_w2sq(len(lam)) + 1e-12


@pytest.mark.parametrize("n", [1, 2, 3, 4, 8])
@pytest.mark.parametrize("dps", [30, 50])
def test_rank_one_attains_the_largest_w2sq(n, dps):
    with mpmath.workdps(dps):
        exact = 2 - 2 / mpmath.sqrt(n)
        assert abs(f.w2sq_given_gram([1.0] + [0.0] * (n - 1), dps) - exact) <= mpmath.mpf(10) ** -(dps - 5)
    assert abs(max_w2sq(n) - float(exact)) <= 1e-15


@given(s=st.lists(st.floats(1e-3, 1e3), min_size=1, max_size=8))
def test_hoelder_inequality_behind_eq6(s):
    """(sum s^2)^3 <= (sum s)^2 sum s^4: flattening the spectrum never raises V."""
    a = np.asarray(s)
    assert np.sum(a**2) ** 3 <= np.sum(a) ** 2 * np.sum(a**4) * (1 + 1e-9)


@given(dps=precisions)
def test_precision_is_local(dps):
    before = mpmath.mp.prec
    f.theorem1_bound(0.3, 5, 2, 64, dps)
    f.chi_violation_probability(7, dps)
    assert mpmath.mp.prec == before


def test_exact_values():
    # n = 1, d = 2: P(chi_2 < sqrt 2 - 1) = 1 - exp(-(sqrt 2 - 1)^2 / 2).
    with mpmath.workdps(40):
        exact = 1 - mpmath.exp(-(mpmath.sqrt(2) - 1) ** 2 / 2)
        assert abs(f.chi_violation_probability(2, 40) - exact) < mpmath.mpf(10) ** -35
    assert f.centered_floor_symbolic() == 0
    assert f.centered_floor_symbolic(1.0) == 0 and f.centered_floor_symbolic(1.04) != 0  # a floor off by 4%
    assert f.frobenius_identity_symbolic() == 0


@pytest.mark.parametrize("args,match", [
    ((0.0, 1, 2, 4), "alpha must be a finite number > 0"),
    ((0.5, -1, 2, 4), "ell must be an integer >= 0"),
    ((0.5, 1, 5, 4), "d must be an integer >= 5"),
    ((float("nan"), 1, 2, 4), "alpha must be a finite number > 0"),
])
def test_bound_errors(args, match):
    with pytest.raises(ValueError, match=match):
        f.theorem1_bound(*args)


def test_w2_errors():
    with pytest.raises(ValueError, match="eigenvalues"):
        f.w2sq_given_gram([-1.0, 2.0])
    with pytest.raises(ValueError, match="must not all be zero"):
        f.w2sq_given_gram([0.0, 0.0])


@pytest.mark.parametrize("a", [0.9, 0.7, 0.55])
def test_width_limit_step_matches_a_wide_bn_step(a):
    """One BN step of a width-200000 chain from a Gram diag(a, 1 - a) (rows of W H are
    N(0, diag(a, b)), BN scales each to norm 1/sqrt(d)) is the infinite-width step
    diag(sqrt a, sqrt b)/(sqrt a + sqrt b) within sampling error, and width_limit_gaps
    takes that step."""
    b, d = 1 - a, 200_000
    X = np.random.default_rng(7).standard_normal((d, 2)) * np.sqrt([a, b])
    H = X / np.linalg.norm(X, axis=1, keepdims=True) / np.sqrt(d)
    p = np.sqrt(a) / (np.sqrt(a) + np.sqrt(b))
    assert np.abs(H.T @ H - np.diag([p, 1 - p])).max() < 5e-3
    v1, v2 = (float(v) for v in f.width_limit_gaps(b, 1, dps=30))
    assert (v1 == pytest.approx(np.sqrt(2) * (a - 0.5), rel=1e-12)
            and v2 == pytest.approx(np.sqrt(2) * (p - 0.5), rel=1e-12))


def test_width_limit_layer_factor_is_below_every_rate_up_to_one_over_sqrt2():
    """1/(1 + 2 sqrt(q (1 - q))) <= 1 - r sqrt(q) on (0, 1/2] for r <= 1/sqrt(2) (equality at
    q = 1/2, r = 1/sqrt(2)): so in the limit Eq. 3's depth term with such a rate holds at every
    depth, and a larger rate fails near orthogonality."""
    q = np.linspace(1e-9, 0.5, 200_001)
    factor = 1 / (1 + 2 * np.sqrt(q * (1 - q)))
    assert np.all(factor <= 1 - np.sqrt(q) / np.sqrt(2) + 1e-15)
    assert np.any(factor > 1 - 0.72 * np.sqrt(q))


def test_width_limit_errors():
    for bad in ("3/4", "sqrt(2)/8"):
        with pytest.raises(ValueError, match=r"q1 \(sigma_min\(H_1\)\^2 at n = 2\) must be a rational in \(0, 1/2\]"):
            f.width_limit_gaps(bad, 3)
    with pytest.raises(ValueError, match="layers must be an integer >= 0"):
        f.width_limit_gaps("1/4", -1)
