"""Every bound claim of Defazio & Bottou that holds reports its tightness beside its
verdict (a bound that would still hold moved by a factor 2 reads "holds, loose")."""
import pytest

from theory import Verdict, claims
from theory.core import RunContext
from theory.core.runner import evaluate
from theory.defazio_bottou.catalogue import BOUNDS

CLAIMS = {c.id: c for c in claims() if c.paper == "defazio_bottou"}
HOLDING = (Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY)


def test_every_inequality_claim_is_listed_as_a_bound():
    assert [i for i, c in CLAIMS.items() if c.kind == "inequality" and i not in BOUNDS] == []
    assert [i for i in BOUNDS if i not in CLAIMS] == []


@pytest.mark.parametrize("cid", [pytest.param(i, marks=pytest.mark.slow) if CLAIMS[i].slow else i
                                 for i in BOUNDS if CLAIMS[i].recorded in HOLDING])
def test_bound_claims_that_hold_report_their_tightness(cid):
    ev = evaluate(CLAIMS[cid], RunContext())
    assert ev.verdict in HOLDING
    t = ev.tightness
    assert t is not None and (t["factor"] is not None or t["gap"] is not None) and isinstance(t["row"], dict)
    assert t["loose"] == (t["factor"] is not None and t["factor"] >= 2)
