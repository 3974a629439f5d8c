"""Every inequality claim of Arpit et al. (2019) that holds reports how tight its bound
is (theory.core.evidence.bound_tightness on its worst informative row), and the factor
says what the bound is: the ranges of Theorems 3 and 7 are attained (factor 1), the
orthogonal-vs-Gaussian variance gaps of footnote 8 are not loose, and Sec. 5.1's
divergence threshold is loose by design."""
import pytest

from theory import RunContext, Verdict, claims, evaluate

INEQUALITIES = [c for c in claims() if c.paper == "arpit2019" and c.kind == "inequality"
                and c.recorded != Verdict.FAILS]


def test_the_catalogue_has_inequality_claims():
    assert {c.id for c in INEQUALITIES} >= {"arpit2019.thm3.range", "arpit2019.thm7.eq43_corrected",
                                           "arpit2019.sec5.depth_robustness", "arpit2019.fn8.orthogonal_columns",
                                           "arpit2019.fn8.orthogonal_lower_variance"}


@pytest.mark.parametrize("claim", [pytest.param(c, id=c.id, marks=[pytest.mark.slow] if c.slow else [])
                                   for c in INEQUALITIES])
def test_holding_inequalities_report_their_tightness(claim):
    ev = evaluate(claim, RunContext())
    assert ev.verdict == claim.recorded
    t = ev.tightness
    assert t is not None and t["factor"] is not None and t["factor"] >= 1.0, t
    assert t["loose"] == (t["factor"] >= 2.0)


@pytest.mark.parametrize("cid", ["arpit2019.thm3.range", "arpit2019.thm7.eq43_corrected"])
def test_the_residual_ranges_are_attained(cid):
    ev = evaluate(next(c for c in claims() if c.id == cid), RunContext())
    assert ev.tightness["factor"] == pytest.approx(1.0) and not ev.loose


def test_the_divergence_threshold_is_loose_and_says_so():
    ev = evaluate(next(c for c in claims() if c.id == "arpit2019.sec5.depth_robustness"), RunContext())
    assert ev.loose and ev.tightness["row"] == {"scheme": "PyTorch default"}
