"""The rules behind the pytest plugin's items (:mod:`theory.pytest_plugin`), kept apart
from its hooks: when a verdict is news (:func:`agrees`), which markers a ``-m``
expression names (:func:`unknown_markers`), and the order claims are handed to
pytest-xdist workers, longest measurement group first, by the seconds of the committed
report (:func:`longest_first`)."""
from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

from .core.context import DEFAULT_SEED, RunContext
from .core.verdicts import Verdict

__all__ = ["unknown_markers", "REPORT_JSON", "claim_seconds", "group_seconds", "longest_first", "contradicts",
           "agrees", "at_default"]

#: Words of a ``-m`` expression that are not marker names.
_MARK_WORDS = frozenset({"and", "or", "not", "True", "False", "None"})


def unknown_markers(expression: str, known) -> list[str]:
    """The names in a ``-m`` expression that are not in ``known`` (in order, once each):
    operators, parentheses and a marker's keyword arguments (``name(key=value)``) are
    not names.

    >>> unknown_markers("arpit2019 and not (slow or arpit2091)", {"arpit2019", "slow"})
    ['arpit2091']
    >>> unknown_markers("device(serial='123') or gpu", {"device", "gpu"})
    []
    """
    text = re.sub(r"(['\"]).*?\1", " ", expression)
    text = re.sub(r"\([^()]*=[^()]*\)", " ", text)  # drop keyword arguments: name(key=value, ...)
    out: list = []
    for name in re.findall(r"[\w:+\-.\[\]\\/]+", text):
        if name not in _MARK_WORDS and name not in known and name not in out:
            out.append(name)
    return out


#: The committed report; its per-claim seconds order the claims under xdist.
REPORT_JSON = Path(__file__).resolve().parents[1] / "paper_checks.json"


def claim_seconds(path: Path | None = None) -> dict[str, float]:
    """Seconds each claim took in the report at ``path`` (default :data:`REPORT_JSON`);
    {} when there is none (an installed copy without the repository) or it cannot be read."""
    try:
        rows = json.loads(Path(path or REPORT_JSON).read_text())["claims"]
        return {r["id"]: float(r.get("seconds") or 0.0) for r in rows}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def group_seconds(path: Path | None = None) -> dict[str, float]:
    """Seconds per measurement group (the claims' xdist group names) in the report at
    ``path``: the sum over the group's claims.

    >>> group_seconds(Path("no-such-report.json"))
    {}
    """
    seconds = claim_seconds(path)
    if not seconds:
        return {}
    from .core.registry import claims

    total: dict = defaultdict(float)
    for claim in claims():
        total[claim.group] += seconds.get(claim.id, 0.0)
    return dict(total)


def longest_first(items: list, seconds: dict[str, float]) -> list:
    """``items`` with the claims of the longest measurement groups first (``seconds`` per
    group name, :func:`group_seconds`); items without timed groups keep their order
    after them (a stable sort).

    >>> class It:
    ...     def __init__(self, group): self.claim = type("C", (), {"group": group})()
    >>> [i.claim.group for i in longest_first([It("a"), It("b"), It("c")], {"a": 1.0, "b": 5.0})]
    ['b', 'a', 'c']
    """
    def key(item):
        claim = getattr(item, "claim", None)
        return -seconds.get(claim.group, 0.0) if claim is not None else 0.0

    return sorted(items, key=key)


_HOLDING = frozenset({Verdict.HOLDS, Verdict.HOLDS_APPROXIMATELY})


def contradicts(recorded: Verdict, found: Verdict) -> bool:
    """A verdict that says the opposite of the recorded one: holds (or holds
    approximately) against fails.

    >>> contradicts(Verdict.HOLDS, Verdict.FAILS), contradicts(Verdict.HOLDS, Verdict.INCONCLUSIVE)
    (True, False)
    """
    return (recorded in _HOLDING and found == Verdict.FAILS) or (recorded == Verdict.FAILS and found in _HOLDING)


def agrees(recorded: Verdict, found: Verdict, at_default: bool = True) -> bool:
    """Whether a run's verdict is no news against the recorded one: at the default seed,
    scale and backend (where the recorded verdict was found) it must be the same; under
    other settings only a contradiction is news, since a decided verdict may go
    inconclusive (or an inconclusive one be decided) on other draws.

    >>> agrees(Verdict.HOLDS, Verdict.INCONCLUSIVE), agrees(Verdict.HOLDS, Verdict.INCONCLUSIVE, at_default=False)
    (False, True)
    >>> agrees(Verdict.FAILS, Verdict.HOLDS_APPROXIMATELY, at_default=False)
    False
    """
    return found == recorded if at_default else not contradicts(recorded, found)


def at_default(ctx: RunContext) -> bool:
    """Whether ``ctx`` runs the settings the catalogue's verdicts were recorded at."""
    return (ctx.seed, ctx.scale, ctx.backend) == (DEFAULT_SEED, 1.0, "numpy")
