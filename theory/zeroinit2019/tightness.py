"""Tightness of the ZeroInit/Fixup submission's bound claims that are judged as a
difference (Eq. 5, 10 and 11 of App. A.2): a row's sample is lhs - rhs per network and
its test a one-sided limit D on E[lhs - rhs] >= 0. Moving the bound by a factor k
(rhs -> k rhs) keeps it holding while E[lhs] - k E[rhs] >= 0, so the factor of
:func:`theory.core.evidence.bound_tightness` is (D + E[rhs]) / E[rhs] on that row
(defined where E[rhs] > 0; elsewhere the bound cannot bite and only the gap D is
given). The claim's tightness is that of its worst informative row
(:func:`theory.judges.tightest`).

>>> details = [{"interval": [0.5, 9.0], "informative": True, "part": "a"},
...            {"interval": [3.0, 9.0], "informative": True, "part": "b"}]
>>> t = difference_tightness(details, [1.0, 1.0], ("part",))
>>> t["factor"], t["row"]
(1.5, {'part': 'a'})
"""
from __future__ import annotations

import math
from typing import Sequence

from ..core.evidence import bound_tightness
from ..judges import tightest

__all__ = ["difference_tightness"]


def difference_tightness(details: Sequence[dict], rhs_means: Sequence[float], labels: tuple) -> dict | None:
    """The tightest row of a difference-judged ``>=`` bound: ``details`` from
    :func:`theory.judges.judge_bounds` (``interval[0]`` the one-sided lower limit of
    E[lhs - rhs]) and ``rhs_means`` the mean of the bound's side per row, in the same
    order; uninformative rows are left out."""
    if len(details) != len(rhs_means):
        raise ValueError(f"rhs_means must give one mean per row ({len(details)}), got {len(rhs_means)}")
    found = []
    for d, rhs in zip(details, rhs_means):
        if not d.get("informative", True) or not math.isfinite(rhs):
            continue
        found.append(bound_tightness(d["interval"][0] + rhs, rhs, ">=", {k: d[k] for k in labels if k in d}))
    return tightest(found)
