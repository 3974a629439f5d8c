"""Evidence: its bookkeeping rules (a shortfall only while inconclusive) and part naming."""
from theory.core import Evidence, Verdict


def test_evidence_shows_a_shortfall_only_while_inconclusive():
    """However verdict and shortfall are set (constructor, assignment, fail_part), a
    decided verdict shows no shortfall; an inconclusive one shows the last one set."""
    inc = Evidence(Verdict.INCONCLUSIVE, 1.0, 1.0, "m", "r", shortfall=2.0)
    assert inc.shortfall == 2.0
    for v in (Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.FAILS):
        assert Evidence(v, 1.0, 1.0, "m", "r", shortfall=2.0).shortfall is None
        ev = Evidence(Verdict.INCONCLUSIVE, 1.0, 1.0, "m", "r", shortfall=2.0)
        ev.verdict = v
        assert ev.shortfall is None
        ev.shortfall = 3.0
        assert ev.shortfall is None and ev.to_json()["shortfall"] is None
    inc.fail_part({"part": "a"})
    assert inc.verdict == Verdict.FAILS and inc.shortfall is None


def test_shortfall_set_before_the_verdict_is_combined_survives():
    """A judge may set the shortfall while the evidence still holds a sub-part's decided
    verdict, then combine the verdict to inconclusive (judge_relu does): the order of the
    two assignments does not matter."""
    ev = Evidence(Verdict.HOLDS, 1.0, 1.0, "m", "r")
    ev.shortfall = 4.0
    ev.verdict = Verdict.INCONCLUSIVE
    assert ev.shortfall == 4.0 and ev.to_json()["shortfall"] == 4.0
    ev.shortfall, ev.verdict = 5.0, Verdict.INCONCLUSIVE
    assert ev.shortfall == 5.0


def test_name_part_names_first_keeps_an_existing_part_unless_replaced():
    ev = Evidence(Verdict.FAILS, 1.0, 0.0, "m", "r", counterexample={"n": 3, "x": 1})
    ev.name_part("Eq. 2")
    assert list(ev.counterexample) == ["part", "n", "x"] and ev.counterexample["part"] == "Eq. 2"
    ev.name_part("Eq. 3")
    assert ev.counterexample["part"] == "Eq. 2"
    ev.name_part("Eq. 3", replace=True)
    assert ev.counterexample == {"part": "Eq. 3", "n": 3, "x": 1}
    none = Evidence(Verdict.FAILS, 1.0, 0.0, "m", "r")
    none.name_part("Eq. 4")
    assert none.counterexample is None
    none.name_part("Eq. 4", otherwise={"spread": 0.5})
    assert none.counterexample == {"part": "Eq. 4", "spread": 0.5}
    text = Evidence(Verdict.FAILS, 1.0, 0.0, "m", "r", counterexample="n = 3")
    text.name_part("Eq. 5")
    assert text.counterexample == "n = 3"
