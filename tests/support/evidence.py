"""Reading a judge's evidence in the part-by-part tests: the labels of its failing
sub-checks, the evidence of a catalogue mutation (its params read from the
catalogue, never copied), and the bookkeeping every verdict must keep."""
from theory import RunContext, evaluate
from theory.catalogue import get

_FAILS, _INCONCLUSIVE = "fails", "inconclusive"


def bookkeeping_problems(evidence: dict) -> list:
    """What is wrong with an evidence's bookkeeping (``evidence``: its JSON form, as in
    the report): a failing verdict shows a counterexample, and only a failing one; a
    shortfall (resolution reached over resolution needed) describes only an
    inconclusive verdict."""
    verdict, problems = evidence["verdict"], []
    if verdict == _FAILS and evidence.get("counterexample") in (None, {}, []):
        problems.append("fails without a counterexample")
    if verdict != _FAILS and evidence.get("counterexample") is not None:
        problems.append(f"{verdict} with a counterexample")
    if verdict != _INCONCLUSIVE and evidence.get("shortfall") is not None:
        problems.append(f"{verdict} with a shortfall")
    return problems


def failing_labels(ev) -> list:
    """Labels of the sub-checks of ``ev`` (a :func:`theory.judges.judge_exact` evidence) that failed."""
    return [d["label"] for d in ev.details if not d["ok"]]


def mutation_evidence(claim_id: str, mutation_name: str, ctx: RunContext | None = None):
    """The evidence of the catalogue mutation ``mutation_name`` of claim ``claim_id``."""
    claim = get(claim_id)
    (mutation,) = [m for m in claim.mutations if m.name == mutation_name]
    return evaluate(claim, ctx or RunContext(), **mutation.params)
