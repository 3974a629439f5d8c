"""Every claim's check can fail: each catalogued mutation (a constant off, an exponent
off by one, a swapped case) must get the verdict it declares, reusing the cached
measurement. Claims recorded as 'fails' declare their correction as the mutation,
which must then not fail."""
import pytest

from theory import CLAIMS, Context, Verdict, evaluate, measure

CASES = [pytest.param(c, m, id=f"{c.id}::{m.name}", marks=[pytest.mark.slow] if c.slow else [])
         for c in CLAIMS for m in c.mutations]


def test_every_claim_declares_a_mutation():
    assert all(c.mutations for c in CLAIMS), [c.id for c in CLAIMS if not c.mutations]


def test_holding_claims_have_a_failing_mutation():
    for c in CLAIMS:
        if c.verdict in (Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY, Verdict.INCONCLUSIVE):
            assert any(m.expect == Verdict.FAILS for m in c.mutations), c.id


@pytest.mark.parametrize("claim,mutation", CASES)
def test_mutation_gets_its_verdict(claim, mutation):
    ev = evaluate(claim, Context(), **mutation.params)
    assert ev.verdict == mutation.expect, (claim.id, mutation.name, ev.verdict, ev.measured)
