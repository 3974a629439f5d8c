"""Reading a judge's evidence in the part-by-part tests: the labels of its failing
sub-checks, and the evidence of a catalogue mutation (its params read from the
catalogue, never copied)."""
from theory import RunContext, evaluate
from theory.catalogue import get


def failing_labels(ev) -> list:
    """Labels of the sub-checks of ``ev`` (a :func:`theory.judges.judge_exact` evidence) that failed."""
    return [d["label"] for d in ev.details if not d["ok"]]


def mutation_evidence(claim_id: str, mutation_name: str, ctx: RunContext | None = None):
    """The evidence of the catalogue mutation ``mutation_name`` of claim ``claim_id``."""
    claim = get(claim_id)
    (mutation,) = [m for m in claim.mutations if m.name == mutation_name]
    return evaluate(claim, ctx or RunContext(), **mutation.params)
