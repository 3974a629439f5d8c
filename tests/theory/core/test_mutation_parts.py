"""A mutation may name the part of its statement it must fail through: the name is
checked when the mutation is declared, and matched against the failing parts the
evidence lists (Evidence.failed_parts)."""
import pytest

from theory.core import Evidence, Verdict
from theory.core.claims import Mutation


@pytest.mark.parametrize("part,expect", [("", Verdict.FAILS), (3, Verdict.FAILS), ("a part", Verdict.HOLDS),
                                         ((), Verdict.FAILS), (("a", ""), Verdict.FAILS), (("a", 3), Verdict.FAILS),
                                         (["a"], Verdict.FAILS), (("a", "b"), Verdict.HOLDS),
                                         (("sigma = 10", "sigma = 100"), Verdict.FAILS)])
def test_a_mutation_part_is_checked_when_declared(part, expect):
    with pytest.raises(ValueError, match="part"):
        Mutation("m", {}, expect, part=part)


def test_failed_parts_lists_counterexample_and_failing_rows_once():
    ev = Evidence(Verdict.FAILS, None, None, "m", "r", counterexample={"part": "floor", "x": 1},
                  details=[{"part": "floor", "verdict": "fails"}, {"label": "slope", "verdict": "holds"},
                           {"label": "sympy", "ok": False}, {"law": "gaussian", "verdict": "fails"}, "text"])
    assert ev.failed_parts() == ["floor", "sympy"]
    assert Evidence(Verdict.HOLDS, None, None, "m", "r", details=[{"label": "a", "ok": True}]).failed_parts() == []


def test_a_mutation_naming_several_parts_needs_each_of_them_to_fail():
    m = Mutation("m", {}, part=("odd powers", "even powers"))
    assert m.missing_parts(["Eq. 23-25 (odd powers); Eq. 26-28 (even powers)"]) == []
    assert m.missing_parts(["Eq. 23-25 (odd powers)"]) == ["even powers"]
    assert m.missing_parts([]) == ["odd powers", "even powers"]
    assert Mutation("m", {}).parts == () and Mutation("m", {}).missing_parts([]) == []


def test_a_replaced_counterexample_keeps_its_part_listed_once():
    """fail_part(replace=True) shows the exact part first; the statistical part it
    replaces stays among the failed parts, as a row unless it already is one."""
    ev = Evidence(Verdict.FAILS, None, None, "m", "r", counterexample={"part": "limit", "limit": 0.9})
    ev.fail_part({"part": "sympy identity"}, replace=True)
    assert ev.counterexample == {"part": "sympy identity"} and ev.failed_parts() == ["sympy identity", "limit"]
    row = {"part": "comparison", "verdict": "fails"}
    ev = Evidence(Verdict.FAILS, None, None, "m", "r", counterexample=row, details=[row])
    ev.fail_part({"part": "exact row"}, replace=True)
    assert ev.details == [row] and ev.failed_parts() == ["exact row", "comparison"]
