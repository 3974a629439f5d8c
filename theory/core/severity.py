"""How much a discrepancy matters: the class of every claim that fails as printed.

A referee separates a wrong result from a wrong step, a misprint and a pedantic
reading, and states the charitable reading before objecting to a literal one. Every
claim recorded as ``fails`` carries one of these classes (``Claim.severity``) and a
sentence saying why (``Claim.impact``; for a ``step``: whether the conclusion survives).

>>> sorted(SEVERITIES)
['misprint', 'result', 'stand-in', 'step', 'wording']
>>> [s for s in SEVERITIES if counts_as_error(s)]
['result', 'step', 'misprint']
>>> parse_classes("result,misprint")
('result', 'misprint')
>>> parse_classes("result,typo")
Traceback (most recent call last):
...
ValueError: classes must be a comma-separated list of ['result', 'step', 'misprint', 'wording', 'stand-in'], got 'typo'
"""
from __future__ import annotations

__all__ = ["SEVERITIES", "STRICT_DEFAULT", "counts_as_error", "parse_classes"]

#: The classes, most serious first, with what each means (the README and the report quote these).
SEVERITIES = {
    "result": "a theorem, corollary, figure or table conclusion is false as meant",
    "step": "a proof step is wrong or does not follow from the steps it cites (the note says whether the "
            "conclusion survives)",
    "misprint": "an index, sign, factor or label is wrong where the surrounding text gets it right",
    "wording": "the literal reading fails but the evident intended reading holds (checked beside it); not an "
               "error of the paper",
    "stand-in": "the failure is of a simplified model the suite simulates, not shown for the paper's own",
}
#: The classes ``--paperchecks-strict`` turns red by default.
STRICT_DEFAULT = ("result", "step")


def counts_as_error(severity: str) -> bool:
    """Whether a failure of this class is an error of the paper (``wording`` and
    ``stand-in`` are not)."""
    return severity in ("result", "step", "misprint")


def parse_classes(text: str) -> tuple:
    """A comma-separated list of classes (the value of ``--paperchecks-strict``)."""
    names = tuple(s.strip() for s in text.split(",") if s.strip())
    bad = [s for s in names if s not in SEVERITIES]
    if not names or bad:
        raise ValueError(f"classes must be a comma-separated list of {list(SEVERITIES)}, got "
                         f"{', '.join(bad) if bad else text!r}")
    return names
