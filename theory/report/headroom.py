"""What the alpha headroom of a claim (:func:`theory.core.runner.alpha_headroom`) shows
against the calibration of its tests' far tails.

A verdict that stands on its data at alpha/f is the verdict of the same tests run at
their per-side levels l/f (the runner records each group's smallest and largest level,
l_min and l_max). A test's rejection region shrinks as its level does (for the judges'
rule and for Welch's, sample by sample), so its real rate at l/f is at most the real
two-sided rate at any level L >= 2 l/f (the two-sided region at 2l/f holds both
one-sided regions at l/f). So where some measured row, at the largest measured size not
above the test's, with usable weights, has L >= 2 l_max / f and an upper 95% rate limit
at most l_min, every test of the group run at l/f keeps its budget l on the calibrated
law. This assumes the excess does not grow with the size between measured sizes (it
falls with the size wherever measured) and holds for the calibrated law only (lognormal,
skewness 1.75), for one-sample tests and for Welch comparisons of equal sizes. A claim
counts only when each of its kinds of mean test is covered; its other tests (fits,
exact counts) are not judged by this. A measured cell is used only where the control
row of the same size and level (near-Gaussian replicates, whose rate is known exactly)
has reliable weights and an interval that covers its exact rate: the estimator is
trusted where its known-truth check passed (:func:`checked_by_controls`). Tests with fewer replicates than the smallest
size measured, more sample skewness than the law (a gate only: the sample skewness is
biased low), no recorded level, or (Welch) unequal sizes lie outside the calibration.
"""
from __future__ import annotations

from ..calibration.tails import covers_truth
from ..core.runner import HEADROOM_FACTORS

__all__ = ["headroom_cell", "headroom_of", "covered", "outside", "claim_status", "headroom_summary", "NOT_PROBED",
           "usable", "checked_by_controls", "placed_size"]

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


def placed_size(test: dict) -> int:
    """The replicate count a recorded test is placed by: its own, or a Welch pair's smaller."""
    n = test["replicates"]
    return min(n) if isinstance(n, list) else n


def usable(cell: dict) -> bool:
    """A measured cell that can bound a rate: reached, reliable weights, a positive rate,
    and no failed control (:func:`checked_by_controls`)."""
    return bool(cell.get("reached", True) and cell.get("reliable", True) is not False and cell.get("rate", 0) > 0
                and not cell.get("control_failed"))


def checked_by_controls(rows: list, rule: str) -> list:
    """The skewed rows of ``rows`` (one calibration section, controls included), each
    cell of ``rule`` marked ``control_failed`` where the control row of the same size and
    level has a known rate (``truth``) and either unreliable weights or an interval that
    misses it (copies; rows without a control are kept as they are).

    >>> cell = lambda lo, hi, ok=True: {"rate": (lo + hi) / 2, "interval": [lo, hi], "reliable": ok}
    >>> rows = [{"n": 25, "alpha": 1e-12, "control": False, "w": cell(1e-9, 2e-9)},
    ...         {"n": 25, "alpha": 1e-12, "control": True, "w": dict(cell(4e-13, 5e-13), truth={"over_alpha": 0.6})}]
    >>> usable(checked_by_controls(rows, "w")[0]["w"])  # the control's interval misses 0.6e-12
    False
    """
    truth_ok = {(r["n"], r["alpha"]): bool(r[rule].get("reliable", True) is not False and covers_truth(r, rule))
                for r in rows if r.get("control") and rule in r and covers_truth(r, rule) is not None}
    out = []
    for r in rows:
        if r.get("control") or rule not in r:
            continue
        if truth_ok.get((r["n"], r["alpha"]), True):
            out.append(r)
        else:
            out.append({**r, rule: {**r[rule], "control_failed": True}})
    return out


def outside(tests: list, rows: list) -> bool:
    """Whether a test of ``tests`` lies outside what ``rows`` measured: fewer replicates
    than the smallest size, more sample skewness than the law's, no recorded level (or a
    test of the group without one), or a Welch pair of unequal sizes."""
    smallest = min(r["n"] for r in rows)
    law = min(r.get("skewness", float("inf")) for r in rows)
    return any(placed_size(t) < smallest or t["largest_abs_skewness"] > law or t.get("smallest_level") is None
               or t.get("tests_without_level") or (isinstance(t["replicates"], list) and len(set(t["replicates"])) > 1)
               for t in tests)


def covered(tests: list, headroom: float, rows: list, rule: str) -> bool:
    """Whether every group of ``tests`` keeps its budget at its levels divided by
    ``headroom``, by a measured row of ``rule`` (module docstring).

    >>> row = lambda n, a, hi: {"n": n, "alpha": a, "both_t": {"rate": hi / 2, "interval": [0, hi], "reliable": True}}
    >>> rows = [row(100, 1e-8, 1.4e-7), row(100, 1e-10, 4e-9)]
    >>> test = {"replicates": 150, "smallest_level": 1e-8, "largest_level": 1e-8}
    >>> covered([test], 1e3, rows, "both_t"), covered([test], 10.0, rows, "both_t")  # 2e-11 <= 1e-10; 2e-9 > 1e-10
    (True, False)
    """
    for t in tests:
        n, lo, hi = placed_size(t), t.get("smallest_level"), t.get("largest_level")
        sizes = sorted({r["n"] for r in rows if r["n"] <= n})
        if lo is None or not sizes:
            return False
        if not any(r["n"] == sizes[-1] and r["alpha"] >= 2 * hi / headroom and usable(r[rule])
                   and r[rule]["interval"][1] <= lo for r in rows):
            return False
    return True


def claim_status(record: dict, kinds: list) -> str | None:
    """'covered', 'short' or 'outside' for a decided, probed claim that runs mean tests
    (None otherwise), over ``kinds``: [(the runner's key, calibration rows, rule)], each
    of the claim's kinds of mean test judged against its own rows."""
    h = headroom_of(record)
    if h is None or h is NOT_PROBED:
        return None
    sampling = record["evidence"]["sampling"]
    mine = [(sampling.get(key) or [], rows, rule) for key, rows, rule in kinds if sampling.get(key)]
    if not mine:
        return None
    if any(not rows or outside(tests, rows) for tests, rows, _ in mine):
        return "outside"
    return "covered" if all(covered(tests, h, rows, rule) for tests, rows, rule in mine) else "short"


def headroom_summary(listed: list, status: dict, levels: list, law: float, stress: dict | None) -> str:
    """The paragraph under a list of claims (``listed``: records; ``status``: id ->
    :func:`claim_status`; ``levels``: the levels with a usable measured cell): how many
    decided claims inside the calibration the criterion covers; the others with what the
    alpha stress test (``stress``, a rerun that may draw more data) found; the claims
    outside the calibration."""
    inside = [r for r in listed if status.get(r["id"]) in ("covered", "short")]
    shown = [r for r in inside if status[r["id"]] == "covered"]
    out_ids = [r["id"] for r in listed if status.get(r["id"]) == "outside"]

    def fate(r):
        found = ((stress or {}).get("verdicts") or {}).get(r["id"])
        return r["id"] if found is None else f"{r['id']} ({'kept' if found == r['verdict'] else found} in the stress test)"

    short = [fate(r) for r in inside if r not in shown]
    return (f"Alpha headroom: the largest of {HEADROOM_FACTORS[0]:g}, {HEADROOM_FACTORS[1]:g}, ..., "
            f"{HEADROOM_FACTORS[-1]:g} by which the claim's alpha can be divided with the "
            "same verdict on the data of its last look ('-': undecided; the judges are monotone in alpha, so a run at "
            "the smaller alpha stops at the same look). Such a verdict is that of its tests run at their per-side "
            "levels l/f; a test's real rate is nondecreasing in its level, so it is at most the two-sided rate "
            "measured at any level L >= 2l/f (usable cells at " + ", ".join(f"{a:g}" for a in levels) + ", at the "
            "largest measured size not above the test's, assuming the excess does not grow with the size between "
            "measured sizes). Where that rate is at most l for every one-sample test and Welch comparison of the "
            f"claim, those tests keep their budgets on the calibrated law (lognormal, skewness {law:.3g}; the claim's "
            f"fits and exact counts are not judged by this): **{len(shown)} of the {len(inside)}** decided claims "
            "listed whose tests lie inside the calibration"
            + (f"; not shown for: {', '.join(short)}" if short else "")
            + (f" (the stress test reruns at alpha/{stress['factor']:g} and may draw more data)" if short and stress
               else "")
            + (f". Outside the calibration (fewer replicates than measured, stronger sample skewness, a test without "
               f"a recorded level, or unequal Welch sizes): {', '.join(out_ids)}." if out_ids else "."))
