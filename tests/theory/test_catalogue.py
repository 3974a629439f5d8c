"""The catalogue is well formed, its coverage maps are complete, and the committed
report matches it."""
import json
from pathlib import Path

import pytest

from tests.support.evidence import bookkeeping_problems
from theory import Verdict, claims, ids, papers
from theory.core import coverage

ROOT = Path(__file__).resolve().parents[2]


def test_ids_unique_and_namespaced():
    assert len(ids()) == len(set(ids()))
    assert all(c.id.startswith(c.paper + ".") for c in claims())


def test_measurement_groups_are_the_same_in_every_process():
    """xdist workers must collect the same test ids; a group name that holds a memory
    address (the repr of a functools.partial) differs between workers under address
    randomization. Seen on the GPU machine: every worker collected different ids."""
    from theory.core import Sampling

    measures: dict = {}
    for c in claims():  # the runner caches blocks per draw: samplings of one draw share them
        measures.setdefault(c.group, set()).add(id(c.measure.draw if isinstance(c.measure, Sampling) else c.measure))
    assert not [g for g in measures if "0x" in g or "<" in g]
    # xdist's loadgroup reads the group after the last "@" of a node id, and only when it
    # comes after the last "]" (theory/pytest_plugin.py)
    assert not [g for g in measures if set(g) & set("[]@")]
    # one name, one measurement (the runner draws each draw's blocks once)
    assert {g: len(m) for g, m in measures.items() if len(m) > 1} == {}


def test_corrections_point_to_failing_printed_claims():
    by_id = {c.id: c for c in claims()}
    for c in claims():
        if c.corrects:
            assert c.corrects in by_id, c.id
            assert by_id[c.corrects].recorded.value == "fails", c.id


_COMPARATORS = frozenset({"<", ">", "<=", ">="})


def is_mirror(claim, mutation) -> bool:
    """A mutation that fails exactly when the claim holds: flagged ``mirror``, or one
    whose only change is a comparison turned around (``direction`` ">" to "<")."""
    changed = {k: v for k, v in mutation.params.items() if claim.params.get(k, object()) != v}
    return mutation.mirror or (bool(changed) and all(isinstance(v, str) and v in _COMPARATORS
                                                     for v in changed.values()))


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_every_check_can_fail_through_a_mutation_that_is_not_a_mirror(paper):
    """A claim that holds must have a failing mutation that is a plausible wrong statement
    (a constant, exponent, index, case or end point), not only its mirror image."""
    only_mirrors = [c.id for c in paper.claims if c.recorded != Verdict.FAILS
                    and not any(m.expect == Verdict.FAILS and not is_mirror(c, m) for m in c.mutations)]
    assert only_mirrors == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_failing_claims_say_how_much_they_matter(paper):
    """Every claim that fails as printed has a severity class and a sentence of impact;
    a claim that holds has one only when it is a proof step (it may hold and not follow)."""
    assert [c.id for c in paper.claims if c.recorded == Verdict.FAILS and c.severity is None] == []
    assert [c.id for c in paper.claims if c.severity and c.recorded != Verdict.FAILS and not c.cites] == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_wording_failures_check_the_intended_reading(paper):
    """A literal reading that fails while the evident intended reading holds is not an
    error of the paper, so the intended reading is checked beside it and holds."""
    holding = {c.corrects for c in claims() if c.corrects and c.recorded in (Verdict.HOLDS,
                                                                             Verdict.HOLDS_APPROXIMATELY)}
    assert [c.id for c in paper.claims if c.severity == "wording" and c.id not in holding] == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_corrections_reject_the_printed_form(paper):
    """Each corrected claim substitutes the printed form into its own judge as a
    ``printed`` mutation (run by tests/theory/test_mutations.py, which expects fails): a
    correction whose band also holds the printed value cannot tell the two apart."""
    assert [c.id for c in paper.claims if c.corrects and not any(m.printed for m in c.mutations)] == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_proof_steps_cite_existing_claims_or_printed_labels(paper):
    """A step's cites are labels as printed ("Eq. 56") or claim ids of the catalogue."""
    keys, known = {p.key for p in papers()}, set(ids())
    assert [(c.id, x) for c in paper.claims for x in c.cites if x.split(".")[0] in keys and x not in known] == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_coverage_map_names_a_claim_or_a_reason_for_every_item(paper):
    assert coverage.problems(paper.coverage, ids()) == []


@pytest.mark.parametrize("paper", papers(), ids=lambda p: p.key)
def test_coverage_goal(paper):
    """The share of checkable items with a claim reaches the goal the paper declares
    (``Paper(coverage_goal=...)``); a paper that declares none is not held to one."""
    if paper.coverage_goal is None:
        pytest.skip(f"{paper.key} declares no coverage goal")
    s = coverage.summarize(paper.coverage)
    assert paper.coverage and s["fraction"] >= paper.coverage_goal, s


def test_the_built_in_papers_declare_a_coverage_goal():
    assert [p.key for p in papers(builtin_only=True) if p.coverage_goal is None] == []


def _committed_records() -> dict:
    """The committed report's records by id; a claim of the built-in catalogue missing from
    it fails with the command that adds it (not a bare KeyError)."""
    data = {r["id"]: r for r in json.loads((ROOT / "paper_checks.json").read_text())["claims"]}
    missing = [c.id for c in claims(builtin_only=True) if c.id not in data]
    assert missing == [], ("claims not in the committed report; add them with: python -m theory report "
                           + " ".join(f"--claim {i}" for i in missing))
    return data


def test_committed_report_matches_catalogue():
    got = {i: r["verdict"] for i, r in _committed_records().items()}
    want = {c.id: c.recorded.value for c in claims(builtin_only=True)}
    assert got == want, "regenerate with: python -m theory report"
    md = (ROOT / "paper_checks.md").read_text()
    assert all(f"### {c.id}" in md for c in claims(builtin_only=True))


def test_committed_report_keeps_its_bookkeeping():
    """Every verdict in the report shows a counterexample exactly when it fails, and a
    shortfall only when it is inconclusive."""
    data = json.loads((ROOT / "paper_checks.json").read_text())
    bad = {r["id"]: bookkeeping_problems(r["evidence"]) for r in data["claims"]}
    assert {k: v for k, v in bad.items() if v} == {}


def test_committed_report_notes_are_the_catalogue_notes_filled_from_their_evidence():
    """A note quotes a measured number only through a callable the report fills from the
    evidence (theory.core.notes): the committed notes are the catalogue's, filled from the
    committed evidence, so no quoted number is stale."""
    from theory.core.notes import fill_note
    data = _committed_records()
    stale = [c.id for c in claims(builtin_only=True)
             if fill_note(c.note, data[c.id]["evidence"], c.id) != data[c.id]["note"]]
    assert stale == [], "regenerate with: python -m theory report --claim ID"


def test_committed_report_markdown_is_the_rendering_of_its_json_and_calibration():
    """paper_checks.md is what the committed paper_checks.json and calibration.json render
    to with today's renderer: a calibration run, a renderer change or a hand edit of the
    markdown without a rerender (python -m theory report --render-only) fails this."""
    from theory.report import rendered_markdown
    assert rendered_markdown(ROOT) == (ROOT / "paper_checks.md").read_text(), \
        "rerender with: python -m theory report --render-only"


def test_exact_checks_leave_global_precision_alone():
    """Theory functions use mp.workdps; none may leave the global precision changed."""
    import mpmath

    from theory import evaluate
    before = mpmath.mp.prec
    for c in claims():
        if not c.monte_carlo and not c.slow:
            evaluate(c)
            assert mpmath.mp.prec == before, c.id
