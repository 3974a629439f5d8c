"""The schedule of looks: fixed in advance, growing, within the budget."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from theory.stats import ALPHA_GUARD, plan_looks


@given(first=st.integers(1, 8), extra=st.integers(0, 100), scale=st.floats(0.01, 20))
def test_looks_grow_to_the_budget(first, extra, scale):
    p = plan_looks(first, first + extra, scale)
    assert p.blocks[0] >= 1 and list(p.blocks) == sorted(set(p.blocks))
    assert p.blocks[-1] == max(p.blocks[0], math.ceil((first + extra) * scale - 1e-9))
    assert p.alpha(1e-6) * p.looks * ALPHA_GUARD == pytest.approx(1e-6)  # the tests spend alpha / guard


@pytest.mark.parametrize("first,budget,scale", [(0, 4, 1.0), (4, 2, 1.0), (1, 4, 0.0), (1, 4, float("nan"))])
def test_bad_plans_raise(first, budget, scale):
    with pytest.raises(ValueError):
        plan_looks(first, budget, scale)
