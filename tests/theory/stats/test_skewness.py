"""Hall's skewness correction (``theory.stats.skewness``): accurate near zero skewness,
and the coefficient that ``estimate`` uses."""
import numpy as np
import pytest
from scipy import stats as st

from theory.stats import estimate
from theory.stats.skewness import hall_coefficient, hall_corrected, hall_inverse


def test_hall_transform_is_accurate_for_tiny_skewness():
    """Written without division by a: exact at a = 0 and accurate for a near 0, where
    ((1 + a t)^3 - 1)/(3a) loses its digits."""
    q = st.t.isf(0.5e-8, 24)
    for a in (0.0, 1e-15, 1e-12, 1e-10, -1e-10):
        inv = float(hall_inverse(q, a))
        assert hall_corrected(inv, a) == pytest.approx(q, rel=1e-14)
        if a:  # the first-order shift -a (q^2 + 1/2), with the right sign
            assert (inv - q) == pytest.approx(-a * (q * q + 0.5), rel=1e-3)
    qs = np.random.default_rng(0).uniform(0.01, 50, 10_000)  # 3 q / 3 != q for about 1 in 7 of these
    assert np.array_equal(hall_inverse(qs, 0.0), qs) and np.array_equal(hall_corrected(qs, 0.0), qs)


def test_hall_coefficient_is_the_estimate_s():
    """The vectorized coefficient (the tail statistics' and the exact rate's) is the one
    ``estimate`` uses, bit for bit."""
    x = np.random.default_rng(4).lognormal(0.0, 0.7, (5, 30))
    assert [estimate(row).skew_a for row in x] == list(hall_coefficient(x))
