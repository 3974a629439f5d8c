"""Each part of Daneshmand et al.'s exact claims fails alone: the judge parameters added
by the exact-claims audit change only the part they name (the other sub-checks keep
holding), and their defaults are the printed statement."""
import math

import pytest
import sympy as sp

from tests.support.evidence import failing_labels, mutation_evidence
from theory.core import JudgeContext, RunContext, Verdict
from theory.daneshmand2021 import exact_claims as X
from theory.daneshmand2021 import formulas as f
from theory.daneshmand2021 import proof_steps as P
from theory.daneshmand2021.mc_judges import max_w2sq

H, F = Verdict.HOLDS, Verdict.FAILS


@pytest.fixture(scope="module")
def c():
    return JudgeContext.exact(RunContext())


@pytest.fixture(scope="module")
def steps():
    return P.steps_measure(RunContext())


@pytest.fixture(scope="module")
def eq6():
    return X.eq6_measure(RunContext())


@pytest.fixture(scope="module")
def w2():
    return X.w2_measure(RunContext())


def _terms(ev) -> dict:
    """The term-wise rows of a display check, by part: {"depth term": row, "width term": row}."""
    return {d["part"]: d for d in ev.details if d.get("part") in ("depth term", "width term")}


def _failing_terms(ev) -> list:
    return [k for k, d in _terms(ev).items() if not d["ok"]]


def test_intro_display_constants_leave_their_own_residual(steps, c):
    n, a, d = sp.symbols("n alpha d", positive=True)
    ev = P.judge_intro_rate(steps, c, "corrected", width_constant=3)
    assert ev.verdict == F and _failing_terms(ev) == ["width term"] and ev.counterexample["part"] == "width term"
    assert sp.simplify(sp.sympify(ev.measured, locals={"n": n, "alpha": a, "d": d}) - 3 * n / (2 * a * sp.sqrt(d))) == 0
    assert P.judge_intro_rate(steps, c, "corrected", rename="2/3", depth_constant=2).verdict == H
    ev = P.judge_intro_rate(steps, c, "corrected", depth_constant=3)
    assert ev.verdict == F and _failing_terms(ev) == ["depth term"]
    assert _terms(ev)["depth term"]["label"].startswith("sympy, depth term: 3 (1 - alpha')^l")


def test_intro_display_renaming_fails_both_terms(steps, c):
    """alpha' = 3 alpha/4 enters both terms: each row fails, with its own residual."""
    ev = P.judge_intro_rate(steps, c, "corrected", rename="3/4")
    assert ev.verdict == F and _failing_terms(ev) == ["depth term", "width term"]


@pytest.mark.parametrize("mutation,printed,residual", [
    ("depth term 2 (1 - alpha')^(l-1) (exponent l - 1, Corollary 3's index: residual "
     "2 (1 - 2 alpha/3)^(l-1) - 2 (1 - 2 alpha/3)^l)", "depth term: 2 (1 - alpha')^(l - 1) - ",
     lambda n, a, d, l: 2 * (1 - 2 * a / 3) ** (l - 1) - 2 * (1 - 2 * a / 3) ** l),
    ("width term 2 n^2/(alpha' sqrt d) (n^2 as in Eq. 5: residual 3 (n^2 - n)/(alpha sqrt d))",
     "width term: 2 n^2/(alpha' d^(1/2)) - ", lambda n, a, d, l: 3 * (n**2 - n) / (a * sp.sqrt(d))),
])
def test_intro_display_powers_leave_their_own_residual(mutation, printed, residual):
    """The display's printed powers, l of (1 - alpha')^l and n of 2 n/(alpha' sqrt d):
    each catalogue mutation fails its own term's row alone (the other term's row holds),
    which names the mutated power, and that row's residual is the expected one (the
    depth one has no n or d, the width one no l)."""
    n, a, d, l = sp.symbols("n alpha d l", positive=True)
    ev = mutation_evidence("daneshmand2021.intro.rate_corrected", mutation)
    (bad,) = [r for r in _terms(ev).values() if not r["ok"]]
    assert ev.verdict == F and failing_labels(ev) == [bad["label"]] and printed in bad["label"]
    got = sp.sympify(bad["measured"], locals={"n": n, "alpha": a, "d": d, "l": l})
    assert sp.simplify(got - residual(n, a, d, l)) == 0 and got != 0


def test_cor3_constants_leave_their_own_residual(steps, c):
    n, a, d = sp.symbols("n alpha d", positive=True)
    ev = P.judge_cor3_index(steps, c, "corrected", width_constant=3)
    assert ev.verdict == F and _failing_terms(ev) == ["width term"]
    got = sp.sympify(_terms(ev)["width term"]["measured"], locals={"n": n, "alpha": a, "d": d})
    assert sp.simplify(got + 3 * n**2 / (a * sp.sqrt(d))) == 0
    assert P.judge_cor3_index(steps, c, "corrected", depth_constant=4, width_constant=6, width_n_power=2).verdict == H
    ev = P.judge_cor3_index(steps, c, "corrected", width_n_power=1)
    assert _failing_terms(ev) == ["width term"] and _terms(ev)["width term"]["label"].startswith(
        "sympy, width term: 6n^1/")
    assert _failing_terms(P.judge_cor3_index(steps, c, "corrected", depth_constant=2)) == ["depth term"]


def test_cor3_printed_index_fails_the_depth_term_alone(steps, c):
    """Eq. 5's exponent l against the deduced l - 1: the depth term differs (by -8/3 at
    l = alpha = n = d = 1), the width term is the deduced one exactly."""
    ev = P.judge_cor3_index(steps, c, "printed")
    assert ev.verdict == F and _failing_terms(ev) == ["depth term"]
    assert ev.counterexample["part"] == "depth term" and ev.counterexample["depth term of Eq. 5 - deduced"] == "-8/3"


def test_radius_exponent_is_resolved_on_both_sides_of_a_quarter(steps, c):
    assert P.judge_radius_rate(steps, c, "13/50").verdict == F
    assert P.judge_radius_rate(steps, c, "6/25").verdict == H
    ev = P.judge_radius_rate(steps, c, "1/4")  # the limit is the constant sqrt(6/alpha) n
    assert ev.verdict == H and ev.measured == "sqrt(6)*n/sqrt(alpha)" and ev.counterexample is None
    assert P.judge_radius_rate(steps, c, "1/2").counterexample == {
        "part": "sympy: limit of sqrt(6 n^2/(alpha sqrt d)) * d^(1/2) as d -> oo", "radius*d^(1/2)": "oo",
        "as": "d -> oo"}


def test_caption_indices(steps, c):
    assert P.judge_caption_average(steps, c, 501).verdict == H
    for ends in ({"first": 101}, {"last": 599}):
        ev = P.judge_caption_average(steps, c, 501, **ends)
        assert ev.verdict == F and ev.measured == 500
    assert P.judge_caption_average(steps, c, 500, first=101).verdict == H


def test_a1_equality_set_fails_alone(steps, c):
    """Orthogonal columns of unequal norms: only the equality checks fail; the bound on
    the random H still holds."""
    ev = P.judge_a1_alpha(steps, c, "corrected", equality_at="orthogonal_columns")
    bad = failing_labels(ev)
    assert ev.verdict == F and len(bad) == 4 and all("diag(1..n)" in b for b in bad)
    n2 = next(d for d in ev.details if d["label"].startswith("n = 2: H = Q diag"))
    assert n2["measured"] == pytest.approx(math.sqrt(6 / 15))  # sqrt(n) / sqrt(1 + 4), n = 2
    with pytest.raises(ValueError, match="equality_at"):
        P.judge_a1_alpha(steps, c, "corrected", equality_at="diagonal")


def test_a1_factor_near_one_fails_on_the_equality_case_only(steps, c):
    ev = P.judge_a1_alpha(steps, c, "corrected", factor=0.999)
    assert ev.verdict == F and all("attains" in b for b in failing_labels(ev))


def test_l0_factor_is_resolved_at_the_sharp_constant(steps, c):
    """The supremum of W_2^2/(sqrt(n) V) is 0.600566; the equal-eigenvalue spectra reach
    0.600510 at n = 8, k = 3."""
    s = sp.Symbol("s", positive=True)
    ratio = 2 * s * sp.sqrt((1 - s) / (1 + s))
    top = sp.nsolve(sp.diff(ratio, s), s, 0.6)
    assert float(ratio.subs(s, top)) == pytest.approx(f.W2_OVER_SQRTN_V_MAX, rel=1e-12)
    assert f.W2_OVER_SQRTN_V_MAX == pytest.approx(0.600566, abs=1e-6)
    assert P.judge_l0(steps, c, "corrected", factor=0.601).verdict == H
    ev = P.judge_l0(steps, c, "corrected", factor=0.6)
    assert ev.verdict == F and ev.counterexample["n"] == 8
    spectra = [d for d in ev.details if "trace-one spectra" in d["label"]]
    assert len(spectra) == 1 and spectra[0]["informative"]
    printed = P.judge_l0(steps, c, "corrected")
    assert printed.verdict == H
    assert [d["informative"] for d in printed.details if "trace-one spectra" in d["label"]] == [False]  # 1 > 0.600566


def test_orthogonal_weights_near_orthogonal_fails_on_the_draws_only(steps, c):
    ev = P.judge_orthogonal_weights(steps, c, "near_orthogonal")
    assert ev.verdict == F and not any(b.startswith("sympy") for b in failing_labels(ev))
    assert all(1e-9 < r["near_orthogonal"] < 1e-6 for r in steps["orthogonal"]["rows"])


def test_eq6_uniform_contraction_fails_on_the_draws(eq6, c):
    ev = X.judge_eq6(eq6, c, "orthogonal", "decrease", strict=False, factor=0.999)
    assert ev.verdict == F and failing_labels(ev) == ["V(W H) <= 0.999 V(H), d=2, n=2, 1000 draws",
                                              "V(W H) <= 0.999 V(H), d=2, n=3, 1000 draws"]
    assert X.judge_eq6(eq6, c, "orthogonal", "decrease", strict=False, factor=0.9998).verdict == F  # max 0.99988
    assert X.judge_eq6(eq6, c, "orthogonal", "decrease", strict=False, factor=0.9999).verdict == H
    assert X.judge_eq6(eq6, c, "orthogonal", "decrease", strict=False, factor=1.0).verdict == H


def test_eq6_equality_near_scalar_fails_alone(eq6, c):
    """Equality claimed near Sigma = c I: only those two checks fail (the decrease rows
    and the Hoelder identity hold). At d = n = 2, 1e-6 off, V(W H) is about V(H)/2; next
    to a zero column V is quadratic in the offset, so 1e-3 is needed there."""
    ev = X.judge_eq6(eq6, c, "orthogonal", "equality", equality_at="near_scalar")
    assert ev.verdict == F and failing_labels(ev) == [f"equality at Sigma near c I: H = {e['H']}"
                                                      for e in eq6["near_equal"]]
    square, flat = eq6["near_equal"]
    assert square["gap_WH"] / square["gap_H"] == pytest.approx(0.5, rel=1e-3)
    assert 1e-7 < flat["gap_H"] - flat["gap_WH"] < 1e-6
    with pytest.raises(ValueError, match="equality_at"):
        X.judge_eq6(eq6, c, "orthogonal", "equality", equality_at="near")


def test_eq6_whitening_power_off_by_1e_3_fails_every_row(eq6, c):
    """Sigma^-0.999 for Sigma^-1: the row Gram of W H is Sigma^0.002 up to scale, off I by
    0.0076 to 0.032 (tolerance 1e-8); the default exponent holds to 1.7e-12."""
    ev = X.judge_eq6(eq6, c, "whitening", "orthogonal", power=-0.999)
    assert ev.verdict == F and len(failing_labels(ev)) == len(eq6["rows"])
    assert min(d["measured"] for d in ev.details) > 5e-3
    assert X.judge_eq6(eq6, c, "whitening", "orthogonal").verdict == H
    for bad, message in (({"power": -0.99}, "power must be None or one of the measured"),
                         ({"power": -0.999, "variant": "orthogonal"}, "power applies only with variant in"),
                         ({"power": -0.999, "check": "decrease"}, "power applies only with check in")):
        with pytest.raises(ValueError, match=message):
            X.judge_eq6(eq6, c, **{"variant": "whitening", "check": "orthogonal", **bad})


def test_w2_reference_scale_fails_the_closed_form_not_the_bound(w2, c):
    """A closed form 1e-7 off: on the Gaussian rows with n >= 2 it disagrees with the
    generic Bures value (the bound 2 n V still holds there); at n = 1 (V = 0) it breaks
    W_2^2 <= 2 n V = 0. Near orthogonal H the offset moves W_2^2 by about 1e-13 only."""
    ev = X.judge_w2_closed_form(w2, c, reference_scale=1 + 1e-7)
    assert ev.verdict == F
    for (agree, bound), r in zip(zip(ev.details[0:-1:2], ev.details[1:-1:2]), w2["rows"]):
        closed, generic = float(agree["measured"]["closed_form"]), agree["measured"]["generic"]
        if r["n"] == 1:
            assert agree["ok"] and not bound["ok"] and closed > 0 == r["gap"]
        elif r["what"].startswith("spread"):
            assert not agree["ok"] and 5e-9 < abs(closed - generic) < 2e-7 and bound["ok"]
        else:
            assert agree["ok"] and bound["ok"]
    assert ev.details[-1]["ok"]  # the orthogonal zero: (1e-7)^2 is inside 1e-12


def test_w2_bound_constant_is_resolved_at_sqrt2_minus_1(w2, c):
    assert X.judge_w2_closed_form(w2, c, constant=0.42).verdict == H
    ev = X.judge_w2_closed_form(w2, c, constant=0.41)
    assert ev.verdict == F and ev.counterexample["n"] == 2


def test_w2_bound_rows_are_informative_only_below_sqrt2_minus_1(w2, c):
    """With the printed constant 2 no bound row can fail (W_2^2/(n V) <= sqrt(2) - 1 for
    every H): all are uninformative and the closed form rows carry the claim. A row is
    informative only for c below the largest ratio at its n (0.41 is, at n = 2 alone) and
    where c n V is under the largest W_2^2 at n."""
    ev = X.judge_w2_closed_form(w2, c)
    assert ev.verdict == H and ev.informative
    assert not any(b["informative"] for b in ev.details[1:-1:2])
    assert all(d.get("informative", True) for d in ev.details[0::2])  # closed form rows and the orthogonal zero
    assert not any(b["informative"] for b in X.judge_w2_closed_form(w2, c, constant=0.42).details[1:-1:2])
    low = X.judge_w2_closed_form(w2, c, constant=0.41)
    for bound, r in zip(low.details[1:-1:2], w2["rows"]):
        assert bound["informative"] is (r["n"] == 2 and 0.41 * r["n"] * r["gap"] < max_w2sq(r["n"]))
    assert any(b["informative"] for b in low.details[1:-1:2])
    assert f.w2_over_nv_cap(3) == pytest.approx(0.600566 / math.sqrt(3), abs=1e-6)


def test_inverse_power(c):
    m = X.inverse_measure(RunContext())
    for p in X.OTHER_POWERS:
        ev = X.judge_inverse(m, c, "pseudo", power=p)
        assert ev.verdict == F and ev.details[0]["ok"]  # n = 1: V = 0 under every power
        assert all(not d["ok"] for d in ev.details[1:])  # the n >= 2 rows fail
    with pytest.raises(ValueError, match="power"):
        X.judge_inverse(m, c, "pseudo", power=-0.25)


def test_inverse_single_column_rows_are_uninformative(c):
    """V vanishes on one column, so the n = 1 row of the pseudo-inverse claim cannot fail
    and is flagged; it alone would leave the claim inconclusive. The printed variant's
    n = 1 rows (det and rank of M M^T) are the counterexamples and stay informative."""
    m = X.inverse_measure(RunContext())
    ev = X.judge_inverse(m, c, "pseudo")
    assert ev.verdict == H and ev.informative
    assert [d["informative"] for d in ev.details] == [r["n"] > 1 for r in m["rows"]] == [False] + [True] * 4
    alone = X.judge_inverse({**m, "rows": [r for r in m["rows"] if r["n"] == 1]}, c, "pseudo")
    assert alone.verdict == Verdict.INCONCLUSIVE and not alone.informative
    assert all(d.get("informative", True) for d in X.judge_inverse(m, c, "printed").details)


def test_frobenius_power_fails_the_symbolic_part_too(c):
    m = X.frobenius_measure(RunContext())
    ev = X.judge_frobenius(m, c, scale_power=0.501)
    assert ev.verdict == F and not ev.details[0]["ok"] and ev.details[0]["measured"] == "-1 + d**(-1/500)"
    assert X.judge_frobenius(m, c).details[0]["label"] == "sympy: ||BN(M)/sqrt(d)||_F^2 - 1 (symbolic d)"


@pytest.fixture(scope="module")
def limit():
    return P.thm1_limit_measure(RunContext())


def test_thm1_limit_parts_fail_alone(limit, c):
    """The depth constant is resolved by the rank-one row at l = 0 alone, the rate by the
    near-orthogonal infinite-width chains alone; the step's quadrature rows always hold."""
    assert P.judge_thm1_limit(limit, c).verdict == H
    ev = P.judge_thm1_limit(limit, c, depth_constant="99/100")
    assert failing_labels(ev) == ["l = 0, rank-one H_0: V(H_1) = sqrt(1 - 1/n) <= 99/100 for n in (2, 4, 8, 16, 64)"]
    assert ev.counterexample["n"] == 64
    ev = P.judge_thm1_limit(limit, c, rate="3/4")
    assert [lab.split(":")[0] for lab in failing_labels(ev)] == [
        "d -> oo, n = 2, sigma_min(H_1)^2 = 49/100", "d -> oo, n = 2, sigma_min(H_1)^2 = 499/1000"]
    assert ev.counterexample["l"] == P.LIMIT_LAYERS  # the ratio grows with depth
    with pytest.raises(ValueError, match=r"rate must be in \(0, sqrt\(2\)\]"):
        P.judge_thm1_limit(limit, c, rate="3/2")
