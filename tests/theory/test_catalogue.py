"""The catalogue is well formed and the committed report matches it."""
import json
from pathlib import Path

from theory import CLAIMS, PAPERS, ids, monte_carlo_count
from theory.stats import MAX_CHECK_ALPHA, check_alpha

ROOT = Path(__file__).resolve().parents[2]


def test_ids_unique_and_namespaced():
    assert len(ids()) == len(set(ids()))
    assert all(c.id.startswith(c.paper + ".") for c in CLAIMS)


def test_corrections_point_to_failing_printed_claims():
    by_id = {c.id: c for c in CLAIMS}
    for c in CLAIMS:
        if c.corrects:
            assert by_id[c.corrects].verdict.value == "fails", c.id


def test_alpha_per_check_is_at_most_1e_6():
    assert monte_carlo_count() > 0
    assert check_alpha(monte_carlo_count()) <= MAX_CHECK_ALPHA <= 1e-6


def test_committed_report_matches_catalogue():
    data = json.loads((ROOT / "paper_checks.json").read_text())
    got = {r["id"]: r["verdict"] for r in data["claims"]}
    assert got == {c.id: c.verdict.value for c in CLAIMS}, "regenerate with: python -m theory report"
    md = (ROOT / "paper_checks.md").read_text()
    assert all(f"### {c.id}" in md for c in CLAIMS)
    assert set(r["paper"] for r in data["claims"]) <= set(PAPERS)


def test_exact_checks_leave_global_precision_alone():
    """Theory functions use mp.workdps; none may leave the global precision changed."""
    import mpmath

    from theory import evaluate
    before = mpmath.mp.prec
    for c in CLAIMS:
        if c.kind in ("identity", "inequality") and not c.monte_carlo and not c.slow:
            evaluate(c)
            assert mpmath.mp.prec == before, c.id


def test_refresh_refuses_a_report_from_another_context(tmp_path):
    import shutil
    from pathlib import Path

    import pytest

    from theory.evidence import Context
    from theory.report import refresh_report

    shutil.copy(Path(__file__).resolve().parents[2] / "paper_checks.json", tmp_path / "paper_checks.json")
    with pytest.raises(ValueError, match="ctx must match"):
        refresh_report(tmp_path, [], Context(seed=1))
