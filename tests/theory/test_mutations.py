"""Every claim's check can fail: each catalogued mutation (a constant off by the stated
tolerance, an exponent off, a swapped case) must get the verdict it declares, reusing
the cached measurement. Claims recorded as 'fails' declare their correction as a
mutation, which must then not fail."""
import pytest

from tests.support.evidence import bookkeeping_problems
from theory import RunContext, Verdict, claims, evaluate

CASES = [pytest.param(c, m, id=f"{c.id}::{m.name}",
                      marks=[pytest.mark.xdist_group(c.group)] + ([pytest.mark.slow] if c.slow else []))
         for c in claims() for m in c.mutations]


def test_every_claim_declares_a_mutation():
    assert all(c.mutations for c in claims()), [c.id for c in claims() if not c.mutations]


def test_holding_claims_have_a_failing_mutation():
    for c in claims():
        if c.recorded != Verdict.FAILS:
            assert any(m.expect == Verdict.FAILS for m in c.mutations), c.id


@pytest.mark.parametrize("claim,mutation", CASES)
def test_mutation_gets_its_verdict(claim, mutation):
    ev = evaluate(claim, RunContext(), **mutation.params)
    assert ev.verdict == mutation.expect, (claim.id, mutation.name, ev.verdict, ev.measured)
    assert bookkeeping_problems(ev.to_json()) == [], (claim.id, mutation.name)
    assert mutation.missing_parts(ev.failed_parts()) == [], (claim.id, mutation.name, ev.failed_parts())
