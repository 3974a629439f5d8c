"""Proof steps of Arpit et al. (2019) judged twice: every displayed step the catalogue
checks cites the printed steps it comes from, and its derivation (does it follow from
their PRINTED forms, wrong ones included) gives the expected answer: the printed steps
that are wrong do not follow (Eq. 5, 18, 29, 35-36, 56-57, 59, 60, 61, 62), the
corrected ones and the sound steps do, and Eq. 31 follows from two wrong premises whose
errors cancel, which is why it carries the severity "step" while it holds."""
import pytest

from theory import RunContext, Verdict, claims, evaluate

ARPIT = {c.id: c for c in claims() if c.paper == "arpit2019"}
RUN = RunContext()
#: The derivations that must not follow: the printed steps that are wrong or misprinted.
NOT_FOLLOWING = {"arpit2019.thm5.proof.eq18", "arpit2019.thm5.proof.eq29", "arpit2019.thm6.proof.eq35_36",
                 "arpit2019.sec3.eq5", "arpit2019.thm8.proof.eq56", "arpit2019.thm8.proof.eq59", "arpit2019.thm8.eq60",
                 "arpit2019.thm8.proof.eq61", "arpit2019.thm8.proof.eq62"}


def test_every_proof_step_cites_and_derives():
    steps = [c for c in ARPIT.values() if ".proof." in c.id or c.id.startswith("arpit2019.thm8.eq60")]
    assert len(steps) >= 22
    assert [c.id for c in steps if not c.cites or c.derivation is None] == []


@pytest.mark.parametrize("cid", sorted(c.id for c in ARPIT.values() if c.derivation is not None))
def test_derivation_says_whether_the_step_follows(cid):
    found = ARPIT[cid].derivation(RUN)
    assert found["follows"] is (cid not in NOT_FOLLOWING), found["why"]
    assert found["why"] and all(c["ok"] for c in found["checks"]) is found["follows"]


def test_printed_steps_that_fail_do_not_follow_and_their_corrections_do():
    for cid in NOT_FOLLOWING:
        assert ARPIT[cid].recorded == Verdict.FAILS
    corrected = [c for c in ARPIT.values() if c.corrects in NOT_FOLLOWING]
    assert len(corrected) == len(NOT_FOLLOWING)
    assert all(c.derivation(RUN)["follows"] for c in corrected)


def test_eq31_is_true_only_because_two_errors_cancel():
    c = ARPIT["arpit2019.thm5.proof.eq31_34"]
    found = c.derivation(RUN)
    assert found["follows"] and found["errors_cancel"]
    assert c.recorded == Verdict.HOLDS and c.severity == "step"
    assert "arpit2019.thm5.proof.eq18" in c.impact and "arpit2019.thm5.proof.eq29" in c.impact


def test_eq29_is_the_integral_with_eq18s_exponent_corrected():
    why = ARPIT["arpit2019.thm5.proof.eq29"].derivation(RUN)["why"]
    assert "at n = 2 they give 1/3, Eq. 29 prints pi/4" in why and "I_(n-2) - I_n at every n = 2..30" in why


def test_theorem_8s_per_block_factor_is_derived_by_no_printed_step():
    why = ARPIT["arpit2019.thm8.proof.eq62"].derivation(RUN)["why"]
    assert "2 at B = 2" in why and "3/2" in why and "9/4" in why
    assert "-2*alpha**2*g1**2 - 2*alpha**2*g2**2" in ARPIT["arpit2019.thm8.eq60"].derivation(RUN)["why"]


def test_the_runner_attaches_the_derivation():
    ev = evaluate(ARPIT["arpit2019.thm8.proof.eq61"], RUN)
    assert ev.verdict == Verdict.FAILS and ev.follows["follows"] is False
    assert ev.follows["cites"] == ["Eq. 60"]
    ev = evaluate(ARPIT["arpit2019.thm7.proof.eq47_53"], RUN)
    assert ev.verdict == Verdict.HOLDS and ev.follows["follows"] is True
