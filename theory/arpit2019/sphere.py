"""K_n of Arpit et al. (2019), Theorem 1 (Eq. 3) and Theorem 5 (Eq. 9, 30), and the
steps of the appendix proof (Eq. 10-34), evaluated exactly or at stated precision.

"S_n is the surface area of a unit n-dimensional sphere" has two readings:

- ``"sphere_in_Rn"``: the unit sphere in R^n, S_n = 2 pi^(n/2) / Gamma(n/2);
- ``"n_sphere"``: the n-sphere in R^(n+1), S_n = 2 pi^((n+1)/2) / Gamma((n+1)/2).

The printed products are read as ``E(n) = prod_{k even, 2<=k<=n-2} k/(k+1)``
("2/3 * 4/5 ... (n-2)/(n-1)") and ``O(n) = prod_{k odd, 1<=k<=n-2} k/(k+1)``
("1/2 * 3/4 ... (n-2)/(n-1)"); an empty product is 1. ``"eq3"`` uses E for even n
(main text), ``"eq9"`` uses E for odd n (appendix Eq. 9 and 30).

Under Eq. 3's labels the printed last factor (n-2)/(n-1) always belongs to its
product's pattern. Under Eq. 9's it never does (for odd n, 2/3 4/5 ... has even
numerators but n - 2 is odd; for even n, 1/2 3/4 ... has odd numerators). Two
readings of a product (``product=``):

- ``"pattern"``: the pattern's factors up to numerator n - 2 (for Eq. 9, ending at
  (n-3)/(n-2), one factor before the printed last one);
- ``"literal"``: those factors and the printed last factor (n-2)/(n-1) when it is not
  one of them, unless it precedes the first factor (then the product is empty).

For Eq. 3 both readings agree.

Every mpmath function takes ``dps`` (decimal digits), works with guard digits in
``mp.workdps`` and never touches the global precision.

>>> kn(4, "eq3", "n_sphere", dps=30)
mpf('1.0')
>>> kn(2, "eq3", "sphere_in_Rn", dps=15)  # 2/pi
mpf('0.63661977236758138')
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import mpmath
import sympy as sp

from simulations.core import check_choice, check_int

__all__ = [
    "READINGS", "PLACES", "PRODUCTS", "sphere_area", "pattern_product", "pattern_product_exact", "kn",
    "kn_symbolic", "wallis", "eq18_mass", "eq18_second_moment", "true_mass", "true_second_moment",
    "eq29_form", "eq29_printed", "eq29_corrected", "eq22_residual",
]

READINGS = ("n_sphere", "sphere_in_Rn")
PLACES = ("eq3", "eq9")
_GUARD = 10


def sphere_area(n: int, reading: str, dps: int = 50):
    """S_n under ``reading`` (see module docstring)."""
    n = check_int("n", n, low=0)
    check_choice("reading", reading, READINGS)
    with mpmath.workdps(dps + _GUARD):
        d = mpmath.mpf(n + 1 if reading == "n_sphere" else n)
        if d == 0:
            raise ValueError("n must be >= 1 for reading='sphere_in_Rn'")
        out = 2 * mpmath.pi ** (d / 2) / mpmath.gamma(d / 2)
    with mpmath.workdps(dps):
        return +out


def pattern_product_exact(n: int, pattern: str) -> Fraction:
    """The printed product, as an exact fraction, by multiplying its factors (small n)."""
    n = check_int("n", n, low=2, high=20000)
    check_choice("pattern", pattern, ("even", "odd"))
    start = 2 if pattern == "even" else 1
    out = Fraction(1)
    for k in range(start, n - 1, 2):
        out *= Fraction(k, k + 1)
    return out


def pattern_product(n: int, pattern: str, dps: int = 50):
    """The printed product in closed form (any n):

    ``E = 4^J (J!)^2 / (2J+1)!`` with J = floor((n-2)/2), and
    ``O = (2J)! / (4^J (J!)^2)`` with J = floor((n-1)/2).
    """
    n = check_int("n", n, low=2)
    check_choice("pattern", pattern, ("even", "odd"))
    with mpmath.workdps(dps + _GUARD):
        if pattern == "even":
            J = (n - 2) // 2
            logp = J * mpmath.log(4) + 2 * mpmath.loggamma(J + 1) - mpmath.loggamma(2 * J + 2)
        else:
            J = (n - 1) // 2
            logp = mpmath.loggamma(2 * J + 1) - J * mpmath.log(4) - 2 * mpmath.loggamma(J + 1)
        out = mpmath.exp(logp)
    with mpmath.workdps(dps):
        return +out


PRODUCTS = ("pattern", "literal")


def _printed_last_extra(n: int, pattern: str) -> bool:
    """True when the literal reading multiplies the pattern product by the printed last
    factor (n-2)/(n-1): its numerator n - 2 has the other parity than the pattern's
    numerators and does not precede the first numerator (2 or 1)."""
    first = 2 if pattern == "even" else 1
    return (n - 2) % 2 != first % 2 and n - 2 >= first


def kn(n: int, place: str, reading: str, dps: int = 50, product: str = "pattern"):
    """K_n as printed in ``place`` ("eq3" main text, "eq9" appendix) under ``reading``,
    its products read as ``product`` (see the module docstring)."""
    n = check_int("n", n, low=2)
    check_choice("place", place, PLACES)
    check_choice("reading", reading, READINGS)
    check_choice("product", product, PRODUCTS)
    even_uses_E = place == "eq3"
    use_E = (n % 2 == 0) == even_uses_E
    pattern = "even" if use_E else "odd"
    with mpmath.workdps(dps + _GUARD):
        ratio = 2 * sphere_area(n - 1, reading, dps + _GUARD) / sphere_area(n, reading, dps + _GUARD)
        out = ratio * pattern_product(n, pattern, dps + _GUARD) * (1 if use_E else mpmath.pi / 2)
        if product == "literal" and _printed_last_extra(n, pattern):
            out *= mpmath.mpf(n - 2) / (n - 1)
    with mpmath.workdps(dps):
        return +out


def kn_symbolic(place: str, reading: str, parity: str, product: str = "pattern") -> sp.Expr:
    """K_n for n = 2k (``parity="even"``) or n = 2k+1 (``"odd"``), simplified by sympy
    (gammasimp); k is a positive integer symbol, k >= 2 for the literal reading (whose
    extra factor starts at n = 4)."""
    check_choice("place", place, PLACES)
    check_choice("reading", reading, READINGS)
    check_choice("parity", parity, ("even", "odd"))
    check_choice("product", product, PRODUCTS)
    k = sp.Symbol("k", integer=True, positive=True)
    half = sp.Rational(1, 2)

    def S(d):
        d = d + 1 if reading == "n_sphere" else d
        return 2 * sp.pi ** (d * half) / sp.gamma(d * half)

    def even_product(J):  # the docstring's E with J factors
        return 4**J * sp.factorial(J) ** 2 / sp.factorial(2 * J + 1)

    def odd_product(J):  # the docstring's O with J factors
        return sp.factorial(2 * J) / (4**J * sp.factorial(J) ** 2)

    n = 2 * k if parity == "even" else 2 * k + 1
    use_E = (parity == "even") == (place == "eq3")
    if use_E:
        prod = even_product((n - 2) // 2) if parity == "even" else even_product(k - 1)
    else:
        prod = (odd_product(k - 1) if parity == "even" else odd_product(k)) * sp.pi / 2
    if product == "literal" and place == "eq9":  # the printed last factor, outside the pattern (k >= 2)
        prod = prod * (n - 2) / (n - 1)
    return sp.simplify(sp.gammasimp(sp.combsimp(2 * S(n - 1) / S(n) * prod)))


def wallis(k: int, dps: int = 50):
    """I_k = integral_0^{pi/2} sin^k(theta) d theta by quadrature (Eq. 22-28's subject),
    cached per (k, dps): the proof steps of Eq. 18-29 reuse the same integrals."""
    return _wallis(check_int("k", k, low=0), int(dps))


@lru_cache(maxsize=None)
def _wallis(k: int, dps: int):
    with mpmath.workdps(dps + _GUARD):
        out = mpmath.quad(lambda t: mpmath.sin(t) ** k, [0, mpmath.pi / 2])
    with mpmath.workdps(dps):
        return +out


def _angular_mass(n: int, reading: str, power: int, dps: int):
    """integral_0^pi (S_{n-1}/S_n) sin^power = (S_{n-1}/S_n) 2 I_power (I_k of :func:`wallis`)."""
    with mpmath.workdps(dps + _GUARD):
        c = sphere_area(n - 1, reading, dps + _GUARD) / sphere_area(n, reading, dps + _GUARD)
        out = c * 2 * wallis(power, dps + _GUARD)
    with mpmath.workdps(dps):
        return +out


def eq18_mass(n: int, reading: str, dps: int = 50):
    """Total mass of Eq. 18's angular density, integral_0^pi (S_{n-1}/S_n) sin^{n-1}."""
    return _angular_mass(n, reading, n - 1, dps)


def eq18_second_moment(n: int, reading: str, dps: int = 50):
    """Eq. 18-19 as printed: (S_{n-1}/S_n) integral_0^{pi/2} sin^{n-1} cos^2."""
    with mpmath.workdps(dps + _GUARD):
        c = sphere_area(n - 1, reading, dps + _GUARD) / sphere_area(n, reading, dps + _GUARD)
        out = c * (wallis(n - 1, dps + _GUARD) - wallis(n + 1, dps + _GUARD))
    with mpmath.workdps(dps):
        return +out


def true_mass(n: int, dps: int = 50):
    """Total mass of the correct angular density (S_{n-1}/S_n) sin^{n-2} on [0, pi] (S_n
    the sphere in R^n): (S_{n-1}/S_n) 2 I_{n-2}, from the quadrature I_k; equals 1."""
    n = check_int("n", n, low=2)
    return _angular_mass(n, "sphere_in_Rn", n - 2, dps)


def true_second_moment(n: int, dps: int = 50):
    """E[max(0, cos theta)^2] for a uniform direction in R^n with the correct density
    (S_{n-1}/S_n) sin^{n-2} (sphere_in_Rn reading): (S_{n-1}/S_n) integral_0^{pi/2}
    sin^{n-2} cos^2 = (S_{n-1}/S_n) (I_{n-2} - I_n) (cos^2 = 1 - sin^2, Eq. 20), from
    the quadratures I_k; equals 1/(2n)."""
    n = check_int("n", n, low=2)
    with mpmath.workdps(dps + _GUARD):
        c = sphere_area(n - 1, "sphere_in_Rn", dps + _GUARD) / sphere_area(n, "sphere_in_Rn", dps + _GUARD)
        out = c * (wallis(n - 2, dps + _GUARD) - wallis(n, dps + _GUARD))
    with mpmath.workdps(dps):
        return +out


def eq29_form(n: int, e_for_even: bool, denominator, dps: int = 50):
    """Eq. 29's right side: the product 2/3 ... of Eq. 23 (E) for one parity of n
    (``e_for_even``: for even n, as corrected; else for odd n, as printed) or
    1/2 ... pi/2 of Eq. 26 (O) for the other, over ``denominator``."""
    n = check_int("n", n, low=2)
    use_e = (n % 2 == 0) == e_for_even
    with mpmath.workdps(dps + _GUARD):
        p = pattern_product(n, "even" if use_e else "odd", dps + _GUARD) * (1 if use_e else mpmath.pi / 2)
        out = p / denominator
    with mpmath.workdps(dps):
        return +out


def eq29_printed(n: int, dps: int = 50):
    """Right-hand side of Eq. 29 as printed (E for odd n, 1/n prefactor)."""
    return eq29_form(n, False, n, dps)


def eq29_corrected(n: int, dps: int = 50):
    """Corrected Eq. 29: integral_0^{pi/2} sin^{n-1} - sin^{n+1} = I_{n-1}/(n+1), with
    I_{n-1} = E(n) for even n and O(n) pi/2 for odd n (the parities of Eq. 3)."""
    return eq29_form(n, True, n + 1, dps)


def eq22_residual(ratio: str = "(n-1)/n") -> sp.Expr:
    """d/dθ of Eq. 22's right-hand side, -(1/n) sin^(n-1) cos + ratio * integral sin^(n-2),
    minus sin^n, for symbolic n (0 means Eq. 22 holds; ``ratio`` is the printed (n-1)/n,
    text in n, replaced for mutation tests).

    The derivative holds cos only squared; with s = sin θ > 0 (θ in (0, pi)) and
    cos^2 = 1 - s^2 it becomes s^(n-2) times a polynomial in s, which sympy reduces."""
    n = sp.Symbol("n", positive=True)
    t = sp.Symbol("theta")
    s = sp.Symbol("s", positive=True)
    coeff = sp.sympify(ratio, locals={"n": n})
    rhs_derivative = sp.diff(-sp.sin(t) ** (n - 1) * sp.cos(t) / n, t) + coeff * sp.sin(t) ** (n - 2)
    residual = (rhs_derivative - sp.sin(t) ** n).subs(sp.cos(t), sp.sqrt(1 - s**2)).subs(sp.sin(t), s)
    return sp.simplify(sp.powsimp(sp.expand(residual * s ** (2 - n)), force=True))
