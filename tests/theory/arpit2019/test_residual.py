"""The (1+1/B)^B factors (Arpit et al. 2019, Theorems 3-4, 7-8)."""
import math

import pytest
from hypothesis import given

from theory.arpit2019 import residual

from ...strategies import blocks


@given(B=blocks)
def test_forward_factor_in_range(B):
    c = float(residual.squared_factor(B, half=True))
    assert math.sqrt(2) - 1e-12 <= c < math.sqrt(math.e)


@given(B=blocks)
def test_squared_factor_outside_printed_eq43_range(B):
    assert float(residual.squared_factor(B)) > math.sqrt(math.e)


def test_h1_factor_counterexamples_are_b_1_to_4():
    assert residual.smallest_b_where_h1_factor_reaches(2) == 5
    scan = residual.interval_scan(50, "sqrt(2)", "sqrt(e)", exponent=lambda B: B - 1, half=True, start=1)
    assert scan == [1, 2, 3, 4]


def test_symbolic_bounds():
    f = residual.forward_factor_bounds()
    assert f["increasing"] and f["B1"] == 2 and str(f["limit"]) == "E"


def test_bad_b_is_rejected():
    with pytest.raises(ValueError, match="B must be an integer >= 1"):
        residual.squared_factor(0)


def test_enclosures_agree_with_the_interval_scan():
    enc = residual.factor_enclosures(400)
    for shift, half, lo, hi in ((0, True, "sqrt(2)", "sqrt(e)"), (1, True, "sqrt(2)", "sqrt(e)"), (0, False, "2", "e"),
                                (0, False, "sqrt(2)", "sqrt(e)")):
        scan = residual.interval_scan(400, lo, hi, exponent=lambda B, s=shift: B - s, half=half, start=201)
        assert residual.outside(enc[shift], lo, hi, half=half) == scan
