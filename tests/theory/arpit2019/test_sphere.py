"""K_n and the proof steps (Arpit et al. 2019, Eq. 3, 9, 18, 22-30)."""
import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory.arpit2019 import sphere

from ...strategies import precisions


@given(n=st.integers(2, 10**6), dps=precisions)
def test_eq3_is_one_under_n_sphere_reading(n, dps):
    with mpmath.workdps(dps + 20):
        assert abs(sphere.kn(n, "eq3", "n_sphere", dps) - 1) < mpmath.mpf(10) ** (5 - dps)


@given(n=st.integers(2, 10**6))
def test_eq9_is_one_under_sphere_in_rn_reading(n):
    with mpmath.workdps(60):
        assert abs(sphere.kn(n, "eq9", "sphere_in_Rn", 50) - 1) < mpmath.mpf(10) ** -45


def _smallest_counterexample(place, reading):
    for n in range(2, 1000):
        with mpmath.workdps(40):
            if abs(sphere.kn(n, place, reading, 30) - 1) > mpmath.mpf(10) ** -20:
                return n
    return None


@pytest.mark.parametrize("place,reading", [("eq3", "sphere_in_Rn"), ("eq9", "n_sphere")])
def test_counterexample_search_finds_n_equals_2(place, reading):
    assert _smallest_counterexample(place, reading) == 2


def test_counterexample_values():
    assert mpmath.almosteq(sphere.kn(2, "eq3", "sphere_in_Rn"), 2 / mpmath.pi)
    assert mpmath.almosteq(sphere.kn(2, "eq9", "n_sphere"), mpmath.pi / 2)


@given(n=st.integers(2, 300))
def test_products_closed_form_equals_factors(n):
    for pattern in ("even", "odd"):
        exact = sphere.pattern_product_exact(n, pattern)
        assert mpmath.almosteq(sphere.pattern_product(n, pattern), mpmath.mpf(exact.numerator) / exact.denominator)


def test_symbolic_forms():
    assert sphere.kn_symbolic("eq3", "n_sphere", "even") == 1
    assert sphere.kn_symbolic("eq3", "n_sphere", "odd") == 1
    assert sphere.kn_symbolic("eq3", "sphere_in_Rn", "even") != 1
    assert sphere.eq22_residual() == 0


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, "4"])
def test_bad_n_is_rejected(bad):
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        sphere.kn(bad, "eq3", "n_sphere")


def test_bad_reading_is_rejected():
    with pytest.raises(ValueError, match="reading must be one of"):
        sphere.kn(3, "eq3", "ball")


def test_eq9_literal_reading_adds_the_printed_last_factor():
    """Eq. 9's products end with (n-2)/(n-1), outside their pattern: read literally the
    value is (n-2)/(n-1) with S_n in R^n, from n = 4 on (n = 2, 3: empty products)."""
    with mpmath.workdps(40):
        for n in range(2, 12):
            lit = sphere.kn(n, "eq9", "sphere_in_Rn", 30, product="literal")
            want = mpmath.mpf(1) if n < 4 else mpmath.mpf(n - 2) / (n - 1)
            assert abs(lit - want) < mpmath.mpf(10) ** -25, n


@given(n=st.integers(2, 500))
def test_eq3_literal_and_pattern_readings_agree(n):
    for reading in sphere.READINGS:
        assert sphere.kn(n, "eq3", reading, 30, "literal") == sphere.kn(n, "eq3", reading, 30, "pattern")


def test_bad_product_reading_is_rejected():
    with pytest.raises(ValueError, match="product"):
        sphere.kn(4, "eq9", "n_sphere", product="typo")
