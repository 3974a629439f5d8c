"""What the alpha headroom of a claim (:func:`theory.core.runner.alpha_headroom`) shows
against the calibration of its tests' far tails.

A verdict that stands on its data at alpha/f is the verdict of the same tests run at
their per-side levels l/f (the runner records each group's smallest and largest level,
l_min and l_max). A test's real rate is nondecreasing in its nominal level, so at l/f it
is at most the real two-sided rate measured at any level L >= 2 l/f (the two-sided rate
bounds either side). So where some measured row (at the largest measured size not above
the test's, weights reliable) has L >= 2 l_max / f and an upper 95% rate limit at most
l_min, every test of the group at its level l/f keeps the budget l on the calibrated law,
and so does the verdict, measured rather than extrapolated. The rows are those at the
levels of the tests inside a claim (``tails_is``, ``tails_welch``) and deeper
(``tails_deep``); tests with fewer replicates than the smallest size measured, more
sample skewness than the calibrated law, or no recorded level are outside the
calibration and named apart.
"""
from __future__ import annotations

from ..core.runner import HEADROOM_FACTORS

__all__ = ["headroom_cell", "headroom_summary", "covered", "NOT_PROBED"]

#: What a record written before the report probed the headroom holds.
NOT_PROBED = object()


def headroom_of(record: dict):
    """The recorded alpha headroom; None for an undecided claim, :data:`NOT_PROBED` for a
    record written before the report probed it."""
    return ((record.get("evidence") or {}).get("sampling") or {}).get("alpha_headroom", NOT_PROBED)


def headroom_cell(record: dict) -> str:
    h = headroom_of(record)
    if h is NOT_PROBED:
        return "not probed"
    if h is None:
        return "-"
    return f"< {HEADROOM_FACTORS[0]:g}" if h < HEADROOM_FACTORS[0] else f"{'>= ' if h >= HEADROOM_FACTORS[-1] else ''}{h:.0e}"


def _size(test: dict) -> int:
    n = test["replicates"]
    return min(n) if isinstance(n, list) else n


def _usable(cell: dict) -> bool:
    return cell.get("reached", True) and cell.get("reliable", True) is not False


def outside(tests: list, rows: list, law: float) -> bool:
    """Whether a test of ``tests`` lies outside what ``rows`` measured: fewer replicates
    than the smallest size, more sample skewness than the law's, or no recorded level."""
    smallest = min(r["n"] for r in rows)
    return any(_size(t) < smallest or t["largest_abs_skewness"] > law or t.get("smallest_level") is None
               or t.get("tests_without_level") for t in tests)


def covered(tests: list, headroom: float, rows: list, rule: str) -> bool:
    """Whether every group of ``tests`` keeps its budget at its levels divided by
    ``headroom``, by a measured row of ``rule`` (module docstring).

    >>> row = lambda n, a, hi: {"n": n, "alpha": a, "both_t": {"interval": [0, hi], "reliable": True}}
    >>> rows = [row(100, 1e-8, 1.4e-7), row(100, 1e-10, 4e-9)]
    >>> test = {"replicates": 150, "smallest_level": 1e-8, "largest_level": 1e-8}
    >>> covered([test], 1e3, rows, "both_t"), covered([test], 10.0, rows, "both_t")  # 2e-11 <= 1e-10; 2e-9 > 1e-10
    (True, False)
    """
    for t in tests:
        n, lo, hi = _size(t), t.get("smallest_level"), t.get("largest_level")
        sizes = sorted({r["n"] for r in rows if r["n"] <= n})
        if lo is None or not sizes:
            return False
        if not any(r["n"] == sizes[-1] and r["alpha"] >= 2 * hi / headroom and _usable(r[rule])
                   and r[rule]["interval"][1] <= lo for r in rows):
            return False
    return True


def headroom_summary(listed: list, tests_of: dict, rows: list, rule: str, stress: dict | None) -> str:
    """The paragraph under a list of claims (``listed``: records; ``tests_of``: each
    one's tests of this kind by id; ``rows``: skewed calibration rows of ``rule`` at every
    level measured): how many decided claims inside the calibration the measured
    criterion covers; the others with what the alpha stress test (``stress``, a rerun
    that may draw more data) found; the claims outside the calibration."""
    law = min(r.get("skewness", float("inf")) for r in rows)
    levels = sorted({r["alpha"] for r in rows}, reverse=True)
    decided = [r for r in listed if headroom_of(r) not in (None, NOT_PROBED)]
    inside = [r for r in decided if not outside(tests_of[r["id"]], rows, law)]
    out_ids = [r["id"] for r in decided if r not in inside]
    shown = [r for r in inside if covered(tests_of[r["id"]], headroom_of(r), rows, rule)]

    def fate(r):
        found = ((stress or {}).get("verdicts") or {}).get(r["id"])
        return r["id"] if found is None else f"{r['id']} ({'kept' if found == r['verdict'] else found} in the stress test)"

    short = [fate(r) for r in inside if r not in shown]
    return ("Alpha headroom: the largest of 10, 100, ..., 1e12 by which the claim's alpha can be divided with the "
            "same verdict on the data of its last look ('-': undecided; the judges are monotone in alpha, so a run at "
            "the smaller alpha stops at the same look). Such a verdict is that of its tests run at their per-side "
            "levels l/f; a test's real rate is nondecreasing in its level, so it is at most the rate measured at any "
            "level L >= 2l/f (measured here at " + ", ".join(f"{a:g}" for a in levels) + ", at the largest measured "
            "size not above the test's, weights reliable). Where that rate is at most l for every test of this kind, "
            f"the verdict keeps each test's budget on the calibrated law (skewness {law:.3g}), measured, not "
            f"extrapolated: **{len(shown)} of the {len(inside)}** decided claims listed whose tests lie inside the "
            "calibration"
            + (f"; not shown for: {', '.join(short)}" if short else "")
            + (f" (the stress test reruns at alpha/{stress['factor']:g} and may draw more data)" if short and stress
               else "")
            + (f". Outside the calibration (fewer replicates than measured, stronger sample skewness, or a test "
               f"without a recorded level): {', '.join(out_ids)}." if out_ids else "."))
