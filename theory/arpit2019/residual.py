"""The (1 + 1/B)^B factors of Arpit et al. (2019), Theorems 3-4 (Eq. 7-8) and their
appendix twins Theorems 7-8 (Eq. 43-64), decided for every integer B >= 1.

Two independent routes: a sympy proof (monotonicity by the sign of a derivative,
the value at B = 1 and the limit), and interval arithmetic (``mpmath.iv``) over
B = 1..N as a numeric cross-check.

>>> sorted(forward_factor_bounds().items())
[('B1', 2), ('increasing', True), ('limit', E)]
>>> smallest_b_where_h1_factor_reaches(2)  # (1+1/B)^(B-1) >= 2 first at B = 5
5
"""
from __future__ import annotations

import mpmath
import sympy as sp

from simulations.core import check_int

from ..judges import exact_constant

__all__ = [
    "forward_factor_bounds", "h1_factor_bounds", "smallest_b_where_h1_factor_reaches",
    "interval_scan", "factor_enclosures", "outside", "squared_factor", "hanin_factor", "pytorch_factor",
]

_t = sp.Symbol("t", positive=True)  # t = 1/B


def _increasing(log_f_of_t: sp.Expr) -> bool:
    """True if B -> f(B) is increasing on B > 0, where log f is written in t = 1/B.

    f increases in B iff d(log f)/dt < 0; we prove d(log f)/d(1/t) = -t^2 d(log f)/dt > 0
    by showing that the derivative of its numerator-like helper is positive and that
    the helper vanishes at t = 0 (done symbolically by sympy's assumptions).
    """
    g = sp.simplify(-_t**2 * sp.diff(log_f_of_t, _t))  # d log f / dB in terms of t
    g0 = sp.limit(g, _t, 0, "+")
    dg = sp.factor(sp.simplify(sp.diff(g, _t)))
    return bool(g0 == 0 and dg.is_positive)


def forward_factor_bounds() -> dict:
    """(1+1/B)^B: value at B = 1, whether it increases in B, and its limit."""
    B = sp.Symbol("B", positive=True)
    return {
        "B1": sp.Integer(2),
        "increasing": _increasing(sp.log(1 + _t) / _t),
        "limit": sp.limit((1 + 1 / B) ** B, B, sp.oo),
    }


def h1_factor_bounds() -> dict:
    """(1+1/B)^(B-1), the factor between dl/dh^1 and dl/dh^B squared (B-1 blocks)."""
    B = sp.Symbol("B", positive=True)
    return {
        "B1": sp.Integer(1),
        "increasing": _increasing((1 / _t - 1) * sp.log(1 + _t)),
        "limit": sp.limit((1 + 1 / B) ** (B - 1), B, sp.oo),
    }


def smallest_b_where_h1_factor_reaches(level) -> int:
    """Smallest integer B >= 1 with (1+1/B)^(B-1) >= level (exact rational test)."""
    level = exact_constant(level)
    for B in range(1, 10**6):
        if sp.Rational(B + 1, B) ** (B - 1) >= level:
            return B
    raise ValueError("level must be below e")


def squared_factor(B: int, half: bool = False, shift: int = 0):
    """(1+1/B)^(B-shift) as an exact sympy rational, or its square root if ``half``."""
    B = check_int("B", B, low=1)
    base, power = sp.Rational(B + 1, B), B - shift
    if not half:
        return base**power
    # sqrt(base^power) = base^(power // 2) sqrt(base)^(power % 2): the square root is
    # taken of the small rational (B+1)/B only (sympy's sqrt of a rational with tens of
    # thousands of digits runs primality tests on it for minutes).
    return base ** (power // 2) * sp.sqrt(base) ** (power % 2)


def interval_scan(n_max: int, lo: str, hi: str, exponent=lambda B: B, half: bool = False,
                  start: int = 2):
    """Interval-arithmetic check that lo < (1+1/B)^exponent(B) [^(1/2)] < hi for
    B = start..n_max (mpmath.iv, outward rounding at its default precision).

    ``lo``/``hi`` are expressions in ``mpmath.iv`` syntax such as ``"sqrt(2)"`` or
    ``"sqrt(e)"``. Returns the B whose enclosure is not strictly inside (empty when
    the bound is certified on that range). B = 1, where the lower bounds are attained,
    is left to the exact sympy route.
    """
    n_max = check_int("n_max", n_max, low=1)
    iv = mpmath.iv
    bounds = _bounds(lo, hi)
    bad = []
    for B in range(start, n_max + 1):
        x = iv.exp(exponent(B) * iv.log(1 + iv.mpf(1) / B))
        if half:
            x = iv.sqrt(x)
        if not _inside(x, *bounds):
            bad.append(B)
    return bad


def factor_enclosures(n_max: int, start: int = 201) -> dict:
    """Enclosures (``mpmath.iv`` intervals, outward rounding) of (1+1/B)^B (key 0) and
    (1+1/B)^(B-1) (key 1, the first divided by 1+1/B) for B = start..n_max: computed
    once per measurement, compared with any bounds by :func:`outside`."""
    n_max = check_int("n_max", n_max, low=1)
    iv = mpmath.iv
    base = [1 + iv.mpf(1) / B for B in range(start, n_max + 1)]
    full = [iv.exp(B * iv.log(b)) for B, b in zip(range(start, n_max + 1), base)]
    return {0: full, 1: [f / b for f, b in zip(full, base)]}


def _bounds(lo: str, hi: str):
    """Enclosures of the bounds: each text is read by sympy (``sqrt(e)``, ``2``; no
    ``eval``), evaluated to 50 digits and widened by 10^-40 on both sides, which holds the
    exact value (sympy's evalf is accurate to the digits it asks for), then rounded
    outward to an ``mpmath.iv`` interval.

    >>> lo, hi = _bounds("sqrt(2)", "sqrt(e)")
    >>> mpmath.sqrt(2) in lo, mpmath.sqrt(mpmath.e) in hi, float(hi.delta) < 1e-15
    (True, True, True)
    """
    out = []
    for text in (lo, hi):
        value = sp.sympify(text, locals={"e": sp.E}, rational=True)
        if not value.is_real or not value.is_number:
            raise ValueError(f"a bound must be a real constant such as 'sqrt(e)', got {text!r}")
        centre = sp.Float(value.evalf(50), 50)
        out.append(mpmath.iv.mpf([str(centre - sp.Float("1e-40", 50)), str(centre + sp.Float("1e-40", 50))]))
    return tuple(out)


def _inside(x, lo_i, hi_i) -> bool:
    return bool(x.a > lo_i.b and x.b < hi_i.a)


def outside(enclosures, lo: str, hi: str, half: bool = False, start: int = 201) -> list:
    """The B (numbered from ``start``) whose enclosure of the factor (its square root if
    ``half``) is not certified strictly inside (lo, hi)."""
    lo_i, hi_i = _bounds(lo, hi)
    if half:  # sqrt(x) in (lo, hi) iff x in (lo^2, hi^2) for positive bounds
        lo_i, hi_i = lo_i * lo_i, hi_i * hi_i
    return [start + i for i, x in enumerate(enclosures) if not _inside(x, lo_i, hi_i)]


def hanin_factor(B: int, dps: int = 30):
    """E||h^B||^2/||x||^2 = prod_{b=1}^B (1 + 0.81^b) for the stage-wise Hanin gains
    g = 0.9^b on each block's last layer (equal hidden and residual widths)."""
    B = check_int("B", B, low=1)
    with mpmath.workdps(dps + 10):
        out = mpmath.exp(mpmath.fsum(mpmath.log1p(mpmath.mpf("0.81") ** b) for b in range(1, B + 1)))
    with mpmath.workdps(dps):
        return +out


def pytorch_factor(B: int, dps: int = 30, rate: str = "1/18"):
    """E||h^B||^2/||x||^2 = (1 + 1/18)^B for PyTorch's default WN (g = ||v||, v uniform
    with variance 1/(3 fan_in)) with equal hidden and residual widths, alpha = 1
    (``rate`` replaces 1/18, a rational given as text, for mutation tests)."""
    B = check_int("B", B, low=1)
    with mpmath.workdps(dps + 10):
        p, _, q = rate.partition("/")
        out = (1 + mpmath.mpf(p) / mpmath.mpf(q or 1)) ** B
    with mpmath.workdps(dps):
        return +out
