"""Every check of the paper can fail: each mutation of each claim (a wrong constant, the
printed form substituted into a corrected claim) gets its declared verdict on the claim's
own data, and every claim that does not fail as printed has a mutation that fails."""
import pytest

from theory.core import RunContext, Verdict, evaluate, registry

CLAIMS = registry.claims("glorot2010")


@pytest.mark.parametrize("claim,mutation", [pytest.param(c, m, id=f"{c.id}::{m.name}")
                                            for c in CLAIMS for m in c.mutations])
def test_mutation_gets_its_verdict(claim, mutation):
    assert evaluate(claim, RunContext(), **mutation.params).verdict == mutation.expect


def test_every_claim_can_fail():
    assert [c.id for c in CLAIMS if c.recorded != Verdict.FAILS
            and not any(m.expect == Verdict.FAILS and not m.mirror for m in c.mutations)] == []


def test_failing_claims_say_how_much_they_matter_and_corrections_reject_the_printed_form():
    assert [c.id for c in CLAIMS if c.recorded == Verdict.FAILS and not c.severity] == []
    assert [c.id for c in CLAIMS if c.corrects and not any(m.printed for m in c.mutations)] == []
