"""The claim helpers of theory/kinds: each builds a claim that decides on its data, and
each mutation it generates from its named constants gets its declared verdict there
(a wrong constant fails), so a catalogue written with them has checks that can fail."""
from dataclasses import replace

import mpmath
import numpy as np
import pytest
import sympy as sp

from tests.support.evidence import bookkeeping_problems
from theory.core import RunContext, Verdict, evaluate
from theory.core.claims import AtPrecision
from theory.kinds import (
    Named,
    band_claim,
    bound_claim,
    constant_claim,
    exponent_claim,
    grid_sampling,
    identity_claim,
    limit_claim,
    mean_claim,
    precision_claim,
    reading,
)

H, F, INC = Verdict.HOLDS, Verdict.FAILS, Verdict.INCONCLUSIVE


def verdicts(claim, ctx=None):
    """The claim's verdict and each mutation's, checking the bookkeeping of each."""
    out = {}
    for name, params in [("claim", {})] + [(m.name, dict(m.params)) for m in claim.mutations]:
        ev = evaluate(claim, ctx or RunContext(), **params)
        assert bookkeeping_problems(ev.to_json()) == [], name
        out[name] = ev.verdict
    return out


def mutations_get_their_verdicts(claim, ctx=None):
    got = verdicts(claim, ctx)
    want = {"claim": claim.recorded, **{m.name: m.expect for m in claim.mutations}}
    assert got == want
    return got


# --- exact helpers ------------------------------------------------------------------------------------------------

n = sp.Symbol("n", positive=True)
w = sp.Symbol("w", real=True)


def test_identity_claim_mutates_its_named_constants():
    c = identity_claim(id="demo.square", where="Eq. 1", statement="(n+1)^2 = n^2 + k n + 1",
                       lhs=lambda: (n + 1) ** 2, rhs=lambda k: n**2 + k * n + 1, constants={"k": Named(2, (1, 3))})
    assert [m.name for m in c.mutations] == ["k = 1", "k = 3"] and c.params == {"k": 2}
    assert mutations_get_their_verdicts(c) == {"claim": H, "k = 1": F, "k = 3": F}


def test_identity_claim_without_constants_offsets_the_right_side():
    c = identity_claim(id="demo.square", where="Eq. 1", statement="(n+1)^2 = n^2 + 2n + 1",
                       lhs=lambda: (n + 1) ** 2, rhs=lambda: n**2 + 2 * n + 1)
    assert mutations_get_their_verdicts(c) == {"claim": H, "right side + 1": F}


def test_constant_claim_reads_its_constant_exactly():
    """A uniform on [-1/sqrt n, 1/sqrt n] has n Var = 1/3 exactly: "1/3" is read as the
    rational, and 0.333 (a rounding, not 1/3) fails like a wrong constant."""
    c = constant_claim(id="demo.eq15", where="Eq. 15", statement="n Var[U(-1/sqrt n, 1/sqrt n)] = 1/3",
                       value=lambda: n * sp.integrate(w**2 * sp.sqrt(n) / 2, (w, -1 / sp.sqrt(n), 1 / sp.sqrt(n))),
                       constant="1/3", wrong=("1/2", 1, 0.333))
    assert mutations_get_their_verdicts(c) == {"claim": H, "constant = 1/2": F, "constant = 1": F,
                                               "constant = 0.333": F}


def test_a_mutation_naming_no_constant_is_refused():
    c = constant_claim(id="demo.one", where="-", statement="1 = 1", value=lambda: sp.Integer(1), constant=1,
                       wrong=(2,))
    with pytest.raises(TypeError, match="unknown parameters \\['konstant'\\]"):
        evaluate(c, konstant=2)


def test_named_refuses_its_own_value_as_a_wrong_one():
    with pytest.raises(ValueError, match="must differ from the value"):
        Named(5, wrong=(4, 5.0))


def _uniform_second_moment(a):
    """E[W^2] for W ~ U(-a, a), by quadrature (at the working precision)."""
    a = mpmath.mpf(a)
    return mpmath.quad(lambda x: x * x / (2 * a), [-a, a])


def _uniform_claim(**kw):
    return precision_claim(id="demo.uniform", where="Eq. 16", statement="E[U(-a, a)^2] = a^2 / k with k = 3",
                           grid={"a": ("0.5", 1, 7)}, lhs=_uniform_second_moment,
                           rhs=lambda a, k: mpmath.mpf(a) ** 2 / k, constants={"k": Named(3, (2, 6))}, **kw)


def test_precision_claim_judges_after_the_two_precisions_agree():
    c = _uniform_claim()
    got = mutations_get_their_verdicts(c)
    assert got == {"claim": H, "k = 2": F, "k = 6": F, "right side x (1 + 10^-(dps - 10))": F}
    ev = evaluate(c)
    assert "at 50 and 70 digits" in ev.details[0]["label"] and ev.informative


@pytest.mark.parametrize("dps", (20, 120))
def test_precision_claim_s_resolution_mutation_fails_at_every_precision(dps):
    """The generated resolution mutation is sized against the run's precision
    (AtPrecision): it stays five digits above the tolerance at any dps."""
    c = _uniform_claim()
    (res,) = [m for m in c.mutations if any(isinstance(v, AtPrecision) for v in m.params.values())]
    ctx = RunContext(dps=dps)
    assert evaluate(c, ctx).verdict == H and evaluate(c, ctx, **res.params).verdict == F


def test_precision_claim_says_inconclusive_when_the_precisions_disagree():
    """A left side that depends on the working precision beyond the tolerance (here a
    term 10^(40 - dps), as a truncated series would leave) decides nothing: never a
    failure made of rounding."""
    c = precision_claim(id="demo.unstable", where="-", statement="x = x", grid={"x": (1,)},
                        lhs=lambda x: mpmath.mpf(1) / 3 + mpmath.mpf(10) ** (40 - mpmath.mp.dps),
                        rhs=lambda x: mpmath.mpf(1) / 3)
    ev = evaluate(c)
    assert ev.verdict == INC and "precisions disagree" in ev.settle and ev.counterexample is None


def test_precision_claim_bounds_report_their_tightness():
    """log(1 + x) <= c x on a grid: holds with c = 1 (tightest at x = 0.5, factor 1.23),
    fails with c = 1/2; a bound loose by 2 or more says so."""
    c = precision_claim(id="demo.log", where="-", statement="log(1 + x) <= c x", grid={"x": ("0.5", 1, 2)},
                        lhs=lambda x: mpmath.log(1 + mpmath.mpf(x)), rhs=lambda x, c: c * mpmath.mpf(x),
                        relation="<=", constants={"c": Named(1, ("1/2",))})
    assert c.kind == "inequality" and [m.name for m in c.mutations] == ["c = 1/2"]
    assert mutations_get_their_verdicts(c) == {"claim": H, "c = 1/2": F}
    t = evaluate(c).tightness
    assert t["row"] == {"x": "0.5"} and t["factor"] == pytest.approx(0.5 / np.log(1.5)) and not t["loose"]
    assert evaluate(c, c=4).tightness["loose"]


@pytest.mark.parametrize("kwargs,message", [({"relation": "<"}, "relation must be one of"),
                                            ({"grid": {"a": ()}}, "at least one point")])
def test_precision_claim_refuses_bad_input_in_one_line(kwargs, message):
    args = {"id": "demo.x", "where": "-", "statement": "-", "grid": {"a": (1,)}, "lhs": _uniform_second_moment,
            "rhs": lambda a: a, **kwargs}
    with pytest.raises(ValueError, match=message):
        precision_claim(**args)


# --- Monte-Carlo helpers ------------------------------------------------------------------------------------------

def sq_norm(be, replicates, n):
    """||x||^2 / n and ||x||^2 for x ~ N(0, I_n): mean 1 (variance 2/n) and mean n."""
    x = be.normal((replicates, n))
    s = (x * x).sum(axis=-1)
    return {"ratio": s / n, "sq": s}


SQ = grid_sampling(name="tests.kinds.sq", grid={"n": (8, 16, 32, 64)}, simulate=sq_norm, replicates=500, budget=32)


def test_grid_sampling_draws_the_same_block_on_any_backend(backend_name):
    """Block b's numbers depend only on (seed, b): twice the same on numpy, and from the
    arrays' own namespace on a device (copied to the host at the boundary)."""
    ctx = RunContext(backend=backend_name)
    a, b = SQ.draw(ctx, 1), SQ.draw(ctx, 1)
    assert [r.labels for r in a.rows] == [{"n": k} for k in (8, 16, 32, 64)]
    assert all(isinstance(r["ratio"], np.ndarray) and r["ratio"].shape == (500,) for r in a.rows)
    np.testing.assert_array_equal(a.rows[2]["sq"], b.rows[2]["sq"])
    assert not np.array_equal(SQ.draw(ctx, 0).rows[2]["sq"], a.rows[2]["sq"])


def test_grid_sampling_refuses_too_few_replicates():
    with pytest.raises(ValueError, match="replicates must be an integer >= 2"):
        grid_sampling(name="x", grid={"n": (1,)}, simulate=sq_norm, replicates=1)


def test_mean_claim_mutates_its_named_constant():
    c = mean_claim(id="demo.mean", where="-", statement="E ||x||^2 / n = c", sampling=SQ, value="ratio",
                   target=lambda r, c: c, labels=("n",), tol=0.05, method="Monte Carlo",
                   constants={"c": Named(1, (0.9, "4/3"))})
    assert mutations_get_their_verdicts(c) == {"claim": H, "c = 0.9": F, "c = 4/3": F}


def test_mean_claim_without_constants_scales_the_target():
    c = mean_claim(id="demo.mean", where="-", statement="E ||x||^2 / n = 1", sampling=SQ, value="ratio",
                   target=lambda r: 1.0, labels=("n",), tol=0.05, method="Monte Carlo")
    assert mutations_get_their_verdicts(c) == {"claim": H, "target times 1.1": F}


def test_band_claim_fails_only_outside_its_band():
    """The statement allows the band: a mean inside it holds, the band moved past the
    data (the generated mutation) fails."""
    c = band_claim(id="demo.band", where="-", statement="|E ||x||^2 / n - 1| <= 0.1", sampling=SQ, value="ratio",
                   target=lambda r: 1.0, labels=("n",), tol=0.1, method="Monte Carlo")
    assert mutations_get_their_verdicts(c) == {"claim": H, "target moved by 0.3": F}


def test_exponent_claim_takes_a_named_exponent():
    c = exponent_claim(id="demo.exponent", where="-", statement="E ||x||^2 ~ n^1", sampling=SQ, value="sq", axis="n",
                       exponent=Named(1, (0.5, 2)), tol=0.05, method="Monte Carlo")
    assert mutations_get_their_verdicts(c) == {"claim": H, "exponent = 0.5": F, "exponent = 2": F}
    plain = exponent_claim(id="demo.exponent", where="-", statement="E ||x||^2 ~ n^1", sampling=SQ, value="sq",
                           axis="n", exponent=1, tol=0.05, method="Monte Carlo")
    assert [m.name for m in plain.mutations] == ["exponent 1.2"]


def test_limit_claim_judges_the_extrapolated_limit():
    c = limit_claim(id="demo.limit", where="-", statement="||x||^2 / n -> 1 as n grows, each network", sampling=SQ,
                    value="ratio", target=Named(1, (1.5,)), tol=0.05, method="Monte Carlo", width="n",
                    recorded=Verdict.HOLDS_APPROXIMATELY)
    assert mutations_get_their_verdicts(c) == {"claim": Verdict.HOLDS_APPROXIMATELY, "target = 1.5": F}
    with pytest.raises(ValueError, match="a limit of 0"):
        limit_claim(id="demo.limit", where="-", statement="-", sampling=SQ, value="ratio", target=0, tol=0.05,
                    method="-", width="n")


def test_bound_claim_reports_tightness_and_needs_a_constant_that_bites():
    c = bound_claim(id="demo.bound", where="-", statement="E ||x||^2 / n <= c", sampling=SQ, value="ratio",
                    bound=lambda r, c: c, labels=("n",), method="Monte Carlo", constants={"c": Named(1.5, (0.9,))})
    assert mutations_get_their_verdicts(c) == {"claim": H, "c = 0.9": F}
    t = evaluate(c).tightness
    assert 1.2 < t["factor"] < 1.5 and not t["loose"]
    assert evaluate(c, c=3.0).tightness["loose"]
    with pytest.raises(ValueError, match="needs a constant with wrong values"):
        bound_claim(id="demo.bound", where="-", statement="-", sampling=SQ, value="ratio", bound=lambda r: 1.5,
                    labels=("n",), method="-")


def test_measurements_are_named_after_their_claims():
    """Two claims built by one helper have distinct measurement names (xdist groups),
    the same in every process; claims over one Sampling share its name."""
    a, b = (constant_claim(id=f"demo.{k}", where="-", statement="-", value=lambda: sp.Integer(1), constant=1,
                           wrong=(2,)) for k in ("a", "b"))
    assert a.group != b.group and "0x" not in a.group and a.group.endswith("demo.a")
    assert "0x" not in SQ.draw.func.__qualname__ and not set(mean_claim(
        id="demo.m", where="-", statement="-", sampling=SQ, value="ratio", target=lambda r: 1.0, labels=("n",),
        tol=0.05, method="-").group) & set("[]@")


# --- printed and corrected ----------------------------------------------------------------------------------------

def _third(**kw):
    return mean_claim(id="demo.eq4", where="Eq. 4", statement="E ||x||^2 / n = 1", sampling=SQ, value="ratio",
                      target=lambda r, c: c, labels=("n",), method="Monte Carlo", constants={"c": Named(1, (0.5,))},
                      **kw)


def test_reading_builds_the_printed_claim_and_its_discriminating_twin():
    printed, fixed = reading(_third(tol=0.05), printed_id="demo.eq4_printed", printed={"c": 2},
                             printed_statement="E ||x||^2 / n = 2 (as printed)", severity="misprint",
                             impact="The proof uses 1.")
    assert printed.recorded == F and printed.severity == "misprint" and printed.params == {"c": 2}
    assert fixed.corrects == "demo.eq4_printed" and fixed.recorded == H
    assert [(m.name, m.printed, m.expect) for m in fixed.mutations] == [("the printed form: c = 2", True, F),
                                                                         ("c = 0.5", False, F)]
    assert [(m.name, m.expect) for m in printed.mutations] == [("the corrected form: c = 1", H)]
    mutations_get_their_verdicts(printed)
    mutations_get_their_verdicts(fixed)


def test_a_correction_that_cannot_tell_the_forms_apart_is_caught():
    """A corrected statement "within 0.6 of c" also allows the printed value 1.5: its
    printed mutation holds instead of failing, which tests/theory/test_mutations.py
    reports (a mean claim's point null would reject it; a band need not)."""
    wide = band_claim(id="demo.eq4", where="Eq. 4", statement="|E ||x||^2 / n - c| <= 0.6", sampling=SQ,
                      value="ratio", target=lambda r, c: c, labels=("n",), tol=0.6, method="Monte Carlo",
                      constants={"c": Named(1, (3,))})
    _, fixed = reading(wide, printed_id="demo.eq4_printed", printed={"c": 1.5}, printed_statement="-",
                       severity="misprint", impact="-")
    (p,) = [m for m in fixed.mutations if m.printed]
    assert evaluate(fixed, **p.params).verdict != F


def test_a_generated_mutation_equal_to_the_printed_form_becomes_the_printed_one():
    _, fixed = reading(_third(tol=0.05), printed_id="demo.eq4_printed", printed={"c": 0.5},
                             printed_statement="-", severity="misprint", impact="-")
    assert [(m.name, m.printed) for m in fixed.mutations] == [("the printed form: c = 0.5", True)]


def test_reading_names_the_forms_and_the_part_and_takes_the_printed_kind():
    printed, fixed = reading(_third(tol=0.05), printed_id="demo.eq4_printed", printed={"c": 2},
                             printed_statement="E ||x||^2 / n <= 2 (as printed)", severity="misprint", impact="-",
                             printed_kind="inequality", printed_form="twice the norm", corrected_form="the norm",
                             printed_part="n=")
    assert printed.kind == "inequality" and fixed.kind == "identity"
    assert [(m.name, m.part, m.printed) for m in fixed.mutations][0] == ("the printed form: twice the norm", "n=", True)
    assert [m.name for m in printed.mutations] == ["the corrected form: the norm"]
    mutations_get_their_verdicts(fixed)


def test_the_correction_mutation_expects_the_corrected_claims_verdict():
    """A correction recorded holds approximately (a limit, a fitted exponent) is expected
    to get that verdict on the printed claim's data too, not holds."""
    printed, _ = reading(replace(_third(tol=0.05), recorded=Verdict.HOLDS_APPROXIMATELY),
                         printed_id="demo.eq4_printed", printed={"c": 2}, printed_statement="-", severity="misprint",
                         impact="-")
    assert [m.expect for m in printed.mutations] == [Verdict.HOLDS_APPROXIMATELY]


@pytest.mark.parametrize("kwargs,message", [
    ({"printed": {"d": 2}}, "printed names parameters of the corrected claim's judge"),
    ({"printed": {"c": 1}}, "must differ from the corrected one"),
    ({"printed_id": "other.eq4"}, "must belong to paper 'demo'")])
def test_reading_refuses_bad_input_in_one_line(kwargs, message):
    args = {"printed_id": "demo.eq4_printed", "printed": {"c": 2}, "printed_statement": "-", "severity": "misprint",
            "impact": "-", **kwargs}
    with pytest.raises(ValueError, match=message):
        reading(_third(tol=0.05), **args)


# --- unknown fields ---------------------------------------------------------------------------------------------

def _helpers():
    import theory.kinds as kinds

    return [getattr(kinds, name) for name in kinds.__all__
            if callable(getattr(kinds, name)) and not isinstance(getattr(kinds, name), type)
            and name not in ("numeric", "grid_points")]


@pytest.mark.parametrize("fn", _helpers(), ids=lambda f: f.__name__)
def test_every_helper_refuses_an_unknown_field_in_one_line(fn):
    """A keyword a helper does not take (``method=`` to an exact helper, which the
    Monte-Carlo ones take) is refused before anything is built, in one line naming the
    helper and every field it accepts, not as a TypeError from inside Claim."""
    import inspect

    with pytest.raises(TypeError) as e:
        fn(method="Monte Carlo", bogus=1)
    text = str(e.value)
    own = [n for n, p in inspect.signature(fn).parameters.items() if p.kind != p.VAR_KEYWORD]
    assert "\n" not in text and text.startswith(f"{fn.__name__}() got unknown field")
    assert ("['bogus']" if "method" in own else "['bogus', 'method']") in text
    assert text.endswith(", ".join(own) if "fields" not in inspect.signature(fn).parameters
                         else ", ".join(own + ["recorded", "note", "severity", "impact", "corrects", "slow", "cites",
                                               "derivation"]))


def test_an_exact_helper_names_the_field_only_monte_carlo_helpers_take():
    """The new user's slip: ``method=`` given to precision_claim."""
    with pytest.raises(TypeError, match=r"^precision_claim\(\) got unknown field \['method'\]; it accepts id, where, "
                                        r"statement, grid, lhs, rhs, relation, constants, shared, resolution, "
                                        r"mutations, recorded, note"):
        _uniform_claim(method="mpmath quadrature")
    assert _uniform_claim(note="by quadrature").note == "by quadrature"


def test_precision_claim_computes_the_expensive_work_once_not_per_mutation():
    """The measurement (the left side and ``shared``) is computed once per point and
    precision for the claim and all its mutations; the right side once per setting of
    the constants and precision (the resolution mutation reuses the stated one)."""
    calls = {"shared": 0, "lhs": 0, "rhs": 0}

    def moment(a):
        calls["shared"] += 1
        return {"m2": _uniform_second_moment(a)}

    def left(a, m2):
        calls["lhs"] += 1
        return m2

    def right(a, m2, k):
        calls["rhs"] += 1
        return mpmath.mpf(a) ** 2 / k

    c = precision_claim(id="demo.shared", where="Eq. 16", statement="E[U(-a, a)^2] = a^2 / k with k = 3",
                        grid={"a": ("0.5", 1, 7)}, lhs=left, rhs=right, shared=moment,
                        constants={"k": Named(3, (2, 6))})
    assert mutations_get_their_verdicts(c) == {"claim": H, "k = 2": F, "k = 6": F,
                                               "right side x (1 + 10^-(dps - 10))": F}
    assert calls == {"shared": 3 * 2, "lhs": 3 * 2, "rhs": 3 * 2 * 3}  # 3 points, 2 precisions; k = 3, 2, 6
    evaluate(c)
    assert calls == {"shared": 6, "lhs": 6, "rhs": 18}


def test_identity_claim_simplifies_its_measured_side_once():
    calls = []

    def lhs():
        calls.append(1)
        return (n + 1) ** 2

    c = identity_claim(id="demo.square_once", where="Eq. 1", statement="(n+1)^2 = n^2 + k n + 1", lhs=lhs,
                       rhs=lambda k: n**2 + k * n + 1, constants={"k": Named(2, (1, 3))})
    assert mutations_get_their_verdicts(c) == {"claim": H, "k = 1": F, "k = 3": F} and len(calls) == 1


# --- sizing -------------------------------------------------------------------------------------------------------

def test_replicates_for_uses_the_runner_s_alpha_per_row():
    """The rule's alpha is the one the judge reports for a mean claim of the same grid
    and sampling: the claim's alpha over the looks, then over the rows."""
    from theory.kinds import replicates_for

    s = replicates_for(sd=1.0, halfwidth=0.05, rows=4, budget=32)
    c = mean_claim(id="demo.sized", where="-", statement="E ||x||^2 / n = 1", sampling=SQ, value="ratio",
                   target=lambda r: 1.0, labels=("n",), tol=0.05, method="demo")
    ev = evaluate(c, RunContext())
    assert ev.sampling["planned_looks"] == s.looks == 6
    assert f"alpha = {s.alpha_per_row:.2e} per row" in ev.method


def test_replicates_for_gives_the_promised_power():
    """With the replicates it names, a true mean's interval lies inside the band about
    POWER of the time (400 reseeds of Gaussian replicates, the test the judge runs)."""
    from theory import stats
    from theory.kinds import replicates_for

    s = replicates_for(sd=0.4, halfwidth=0.05, rows=4)
    rng = np.random.default_rng(3)
    held = [stats.mean_equals(rng.normal(1.0, 0.4, s.replicates), target=1.0, alpha=s.alpha_per_row,
                              tol=0.05).verdict == H for _ in range(400)]
    assert 0.85 <= np.mean(held) <= 0.95
    fewer = [stats.mean_equals(rng.normal(1.0, 0.4, s.replicates // 2), target=1.0, alpha=s.alpha_per_row,
                               tol=0.05).verdict == H for _ in range(400)]
    assert np.mean(fewer) < 0.5


@pytest.mark.parametrize("kwargs,message", [({"sd": 0}, "sd must be a finite number > 0"),
                                            ({"halfwidth": float("nan")}, "halfwidth must be"),
                                            ({"rows": 0}, "rows must be an integer >= 1"),
                                            ({"power": 1.0}, "power must be in")])
def test_replicates_for_refuses_bad_input_in_one_line(kwargs, message):
    from theory.kinds import replicates_for

    with pytest.raises(ValueError, match=message):
        replicates_for(**{"sd": 0.4, "halfwidth": 0.05, "rows": 4, **kwargs})
