"""Coverage maps: every numbered or displayed item of a paper, in the paper's order,
mapped to the claims that check it or to the reason it is not checked.

A map is data next to each paper's catalogue (``theory/<paper>/coverage.py``); the
report renders it with coverage figures (checked / checkable / total), and a test
fails when an item has neither a claim nor a reason, or names a claim that does not
exist.

A paper being added is partial honestly: an item it does not check yet has the reason
``not_yet_checked``, which keeps it checkable and unchecked (it lowers the coverage and
the report lists it). The coverage goal is the paper's own declaration
(``Paper(coverage_goal=0.95)``): tests/theory/test_catalogue.py enforces it only for the
papers that declare one, and the report prints it beside each paper's coverage.

>>> item = Item("Eq. 3", "Sec. 3", "equation", "K_n = 1", claims=("arpit2019.thm1.kn_eq3.n_sphere",))
>>> item.checkable, item.checked
(True, True)
>>> summarize([item, Item("Eq. 1", "Sec. 2", "definition", "WN layer", reason="definition"),
...            Item("Eq. 9", "App. C", "equation", "a step", reason="not_yet_checked", note="to check with sympy")])
{'total': 3, 'checkable': 2, 'checked': 1, 'fraction': 0.5, 'not_yet_checked': 1}
>>> goal_text(summarize([item]), 0.95), goal_text(summarize([item]), None)
('goal 95%: met', 'no goal declared')
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["REASONS", "UNCHECKED", "ITEM_KINDS", "Item", "summarize", "problems", "goal_text"]

#: The reason of a checkable item that no claim checks yet (counted against the coverage).
UNCHECKED = "not_yet_checked"
#: Why an item is not checked: the short fixed list. :data:`UNCHECKED` alone keeps the
#: item checkable (work still to do); ``open`` is read as it (its former name).
REASONS = {
    UNCHECKED: "not yet checked: checkable, but no claim checks it yet",
    "definition": "notation or definition only",
    "training": "needs datasets or training runs",
    "not_transcribed": "not in the transcription (or garbled beyond recovery)",
    "cited": "a result quoted from other work, with no number to check",
    "no_statement": "describes a setup or procedure; no mathematical statement",
}
ITEM_KINDS = ("equation", "theorem", "lemma", "corollary", "proposition", "definition", "assumption", "footnote",
              "figure_panel", "table", "proof_step", "statement")


@dataclass(frozen=True)
class Item:
    """One item of a paper: ``item`` as the paper labels it, where, what kind, a
    one-line summary, the claim ids that check it, or the reason (a key of REASONS)
    why it is not checked; ``note`` for anything a reviewer should know."""

    item: str
    section: str
    kind: str
    summary: str
    claims: tuple = ()
    reason: str | None = None
    note: str = ""

    def __post_init__(self):
        object.__setattr__(self, "claims", tuple(self.claims))
        if self.reason == "open":
            object.__setattr__(self, "reason", UNCHECKED)
        if self.kind not in ITEM_KINDS:
            raise ValueError(f"kind must be one of {ITEM_KINDS}, got {self.kind!r} ({self.item})")
        if self.reason is not None and self.reason not in REASONS:
            raise ValueError(f"reason must be one of {sorted(REASONS)} or None, got {self.reason!r} ({self.item})")

    @property
    def checkable(self) -> bool:
        return self.reason in (None, UNCHECKED)

    @property
    def checked(self) -> bool:
        return bool(self.claims)


def summarize(items) -> dict:
    """Counts: total items, checkable ones, checkable ones with a claim, the fraction, and
    the items marked :data:`UNCHECKED`."""
    items = list(items)
    checkable = [i for i in items if i.checkable]
    checked = [i for i in checkable if i.checked]
    return {"total": len(items), "checkable": len(checkable), "checked": len(checked),
            "fraction": len(checked) / len(checkable) if checkable else 1.0,
            "not_yet_checked": sum(i.reason == UNCHECKED and not i.checked for i in items)}


def goal_text(summary: dict, goal: float | None) -> str:
    """A paper's coverage goal beside its coverage (:func:`summarize`), in words."""
    if goal is None:
        return "no goal declared"
    return f"goal {100 * goal:g}%: {'met' if summary['fraction'] >= goal else 'not met'}"


def problems(items, known_ids) -> list:
    """What is wrong with a map: items with neither a claim nor a reason, and claim ids
    that are not in the catalogue."""
    known = set(known_ids)
    out = []
    for i in items:
        if not i.claims and i.reason is None:
            out.append(f"{i.item} ({i.section}): neither a claim nor a reason")
        out += [f"{i.item} ({i.section}): unknown claim {c}" for c in i.claims if c not in known]
    return out
