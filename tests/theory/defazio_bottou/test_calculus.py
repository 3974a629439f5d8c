"""Second-moment calculus of Defazio & Bottou: properties over random width ladders."""
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from theory.defazio_bottou import calculus as c

ladders = st.lists(st.integers(1, 500), min_size=3, max_size=7)


@given(widths=ladders, k=st.sampled_from([1, 3, 5]))
def test_geometric_gamma_is_constant_for_any_widths(widths, k):
    gam = c.layer_gammas(widths, "geometric", k=k, c=sp.Rational(2, k))
    assert all(sp.simplify(x - gam[0]) == 0 for x in gam)


@given(widths=ladders)
def test_kaiming_gamma_varies_unless_width_ratios_are_constant(widths):
    gam = c.layer_gammas(widths, "kaiming_fan_in")
    ratios = {sp.Rational(b, a) for a, b in zip(widths[:-1], widths[1:])}
    constant = all(sp.simplify(x - gam[0]) == 0 for x in gam)
    if len(ratios) == 1:
        assert constant


def test_eq6_telescoping_numeric():
    widths = [3, 10, 40, 5, 7]
    q = sp.Integer(1)
    for n, m in zip(widths[:-1], widths[1:]):
        q = sp.Rational(1, 2) * n * c.geometric_w2(n, m, 1, 2) * q
    assert sp.simplify(q - sp.sqrt(sp.Rational(3, 7))) == 0  # sqrt(n_0 / n_L), interior widths cancel
