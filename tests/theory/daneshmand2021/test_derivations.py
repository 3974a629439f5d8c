"""Proof steps of Daneshmand et al. (2021) judged twice: each derivation takes the printed
forms of the steps it cites and says whether the step follows (theory/daneshmand2021/
derivations.py). A corrected step follows; a printed one that fails does not; Corollary 3
as printed holds on the data but does not follow (its index)."""
import pytest

from theory import RunContext, Verdict, evaluate
from theory.daneshmand2021 import PAPER
from theory.daneshmand2021.derivations import DERIVATIONS

K = "daneshmand2021."
BY_ID = {c.id: c for c in PAPER.claims}
#: Steps that hold on the data but do not follow from the printed steps they cite.
TRUE_BUT_NOT_FOLLOWING = {K + "cor3.bound"}


@pytest.mark.parametrize("claim_id", sorted(DERIVATIONS))
def test_a_step_follows_exactly_when_it_is_not_a_printed_error(claim_id):
    claim = BY_ID[claim_id]
    found = claim.derivation(RunContext())
    assert set(found) == {"follows", "why"} and isinstance(found["follows"], bool) and found["why"]
    assert claim.cites and all(isinstance(x, str) and x for x in claim.cites)
    expected = claim.recorded != Verdict.FAILS and claim_id not in TRUE_BUT_NOT_FOLLOWING
    assert found["follows"] == expected, (claim_id, found["why"])


def test_a_step_that_holds_and_does_not_follow_says_so():
    for claim_id in TRUE_BUT_NOT_FOLLOWING:
        claim = BY_ID[claim_id]
        assert claim.recorded == Verdict.HOLDS and claim.severity == "step"
        assert "cor3.index_printed" in claim.impact  # the step that shows why


def test_the_runner_attaches_the_derivation_to_the_evidence():
    ev = evaluate(BY_ID[K + "cor3.index_corrected"], RunContext())
    assert ev.follows["cites"] == ["Eq. 3", "Eq. 4"] and ev.follows["follows"] is True
    ev = evaluate(BY_ID[K + "eq6.decrease_printed"], RunContext())
    assert ev.verdict == Verdict.FAILS and ev.follows["follows"] is False
