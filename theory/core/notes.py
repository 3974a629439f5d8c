"""Numbers in a claim's note that the run generates.

A note is typed prose, so a number it quotes from a measurement would go stale when the
code or the seed changes. It quotes one through a field, ``{=path}`` or ``{=path:spec}``,
filled from the claim's evidence (its JSON form, :meth:`~theory.core.evidence.Evidence.to_json`)
when the report is written:

- ``path`` is dot-separated keys into the evidence (``measured.bn_last``; a key cannot
  hold ``.``, ``[``, ``]``, ``:`` or braces), each key followed by any number of
  selectors: ``[i]`` picks the i-th element of a list (negative from the end);
  ``[*]`` makes a list a *selection*, whose elements the following keys map over (an
  element that lacks the key is skipped: rows of different kinds share a list; none
  holding it is an error); ``[key=value]`` filters a list or a selection to the elements
  that hold ``key`` with ``str(value)`` equal to ``value`` (Python's text: ``True``,
  ``128.0``; a value cannot hold ``:``, ``[``, ``]`` or braces; none matching is an
  error). On a selection ``[i]`` takes each element's i-th;
- ``min`` or ``max`` before the path reduces a selection or a list of numbers; without
  them a selection must hold exactly one element;
- ``spec`` is a :func:`format` spec (``.3g``, ``+.3f``, ``.0%``).

The value must be a number or a text. A path the evidence does not hold, a None, a
list left unreduced, or a spec that does not fit the value is an error naming the claim
and the field, never a blank.

>>> ev = {"measured": {"level": 0.0531}, "details": [{"part": "a", "mean": 1.25}, {"part": "b", "mean": 2.0}]}
>>> fill_note("level {=measured.level:.2g}; means {=min details[*].mean} to {=max details[*].mean:.1f}", ev)
'level 0.053; means 1.25 to 2.0'
>>> fill_note("b's mean {=details[part=b].mean:.2f}, the first's {=details[0].mean}", ev)
"b's mean 2.00, the first's 1.25"
>>> fill_note("{=details[*].mean}", ev, "paper.claim")
Traceback (most recent call last):
...
theory.core.notes.NoteFieldError: note field {=details[*].mean} of claim paper.claim gives 2 values (not one): put min or max before its path, or select one element
"""
from __future__ import annotations

import numbers
import re

__all__ = ["NoteFieldError", "fill_note", "note_fields"]

_FIELD = re.compile(r"\{=(?:(min|max) )?([^:{}]+?)(?::([^{}]*))?\}")
_SEGMENT = re.compile(r"([^.\[\]]+)((?:\[[^\[\]]+\])*)")


class NoteFieldError(ValueError):
    """A note field that is malformed or that the evidence cannot fill."""


class _Selection(list):
    """A list whose elements the following keys map over."""


def note_fields(note: str, claim: str = "") -> list:
    """The fields of ``note`` as (aggregate, segments, spec) tuples, ``segments`` a list
    of (key, selectors); a ``{=`` that does not open a well-formed field, or a spec that
    formats neither a number nor a text, is an error naming ``claim``.

    >>> note_fields("V/bound {=measured.largest_V/bound:.2f} at l = {=details[*].at_l}")
    [(None, [('measured', []), ('largest_V/bound', [])], '.2f'), (None, [('details', ['*']), ('at_l', [])], '')]
    """
    fields = [(m.group(1), _segments(m.group(2), m.group(0), claim), m.group(3) or "") for m in _FIELD.finditer(note)]
    if note.count("{=") != len(fields):
        raise NoteFieldError(f"claim {claim}: a note field is written {{=path}} or {{=path:spec}} (path: dot-separated "
                             f"keys, each with optional [i], [*] or [key=value]; min or max before a path that gives "
                         f"several values): {note!r}")
    for m, (_, _, spec) in zip(_FIELD.finditer(note), fields):
        if not any(_formats(x, spec) for x in (1.0, 1, "text")):
            raise NoteFieldError(f"note field {m.group(0)} of claim {claim}: {spec!r} is not a format spec")
    return fields


def fill_note(note: str, evidence: dict, claim: str = "") -> str:
    """``note`` with every field replaced by the value at its path in ``evidence``."""
    fields = iter(note_fields(note, claim))  # parsed once, in the order the substitution meets them

    def value(m: re.Match) -> str:
        field = m.group(0)
        agg, segments, spec = next(fields)
        found = _resolve(evidence, segments, field, claim)
        if isinstance(found, list):
            if agg is None and isinstance(found, _Selection) and len(found) == 1:
                found = found[0]
            elif agg is None:
                raise NoteFieldError(f"note field {field} of claim {claim} gives {len(found)} values (not one): put min "
                                     "or max before its path, or select one element")
            elif not found or not all(_is_number(x) for x in found):
                raise NoteFieldError(f"note field {field} of claim {claim}: {agg} needs numbers, got {found!r}")
            else:
                found = (min if agg == "min" else max)(found)
        elif agg is not None:
            raise NoteFieldError(f"note field {field} of claim {claim} gives one value: drop {agg}")
        if not (_is_number(found) or isinstance(found, str)):
            raise NoteFieldError(f"note field {field} of claim {claim} gives {found!r}, not a number or a text")
        try:
            return format(found, spec)
        except (TypeError, ValueError) as exc:
            raise NoteFieldError(f"note field {field} of claim {claim}: cannot format {found!r} with {spec!r}") from exc

    return _FIELD.sub(value, note)


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _formats(x, spec: str) -> bool:
    try:
        format(x, spec)
        return True
    except (TypeError, ValueError):
        return False


def _segments(path: str, field: str, claim: str) -> list:
    out = []
    for part in _split(path.strip()):
        m = _SEGMENT.fullmatch(part)
        if m is None:
            raise NoteFieldError(f"note field {field} of claim {claim}: segment {part!r} is not a key with optional "
                                 "[i], [*] or [key=value] selectors")
        out.append((m.group(1), re.findall(r"\[([^\[\]]+)\]", m.group(2))))
    return out


def _split(path: str) -> list:
    """Split at dots outside brackets (a selector's value may hold dots)."""
    parts, depth, cur = [], 0, ""
    for ch in path:
        depth += (ch == "[") - (ch == "]")
        if ch == "." and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    return parts + [cur]


def _resolve(data, segments, field: str, claim: str):
    """The value at ``segments`` (see the module docstring for the rules)."""
    def fail(what: str):
        raise NoteFieldError(f"note field {field} of claim {claim}: {what}")

    cur = data
    for key, selectors in segments:
        if isinstance(cur, _Selection):
            held = [x[key] for x in cur if isinstance(x, dict) and key in x]
            if not held:
                fail(f"no selected element holds {key!r}")
            cur = _Selection(held)
        elif isinstance(cur, dict) and key in cur:
            cur = cur[key]
        else:
            fail(f"the evidence has no {key!r} here")
        for sel in selectors:
            if sel == "*":
                if isinstance(cur, _Selection) or not isinstance(cur, list):
                    fail("[*] needs a list that is not already selected")
                cur = _Selection(cur)
            elif "=" in sel:
                if not isinstance(cur, list):
                    fail(f"[{sel}] needs a list")
                k, v = sel.split("=", 1)
                cur = _Selection(x for x in cur if isinstance(x, dict) and k in x and str(x[k]) == v)
                if not cur:
                    fail(f"[{sel}] selects no element")
            else:
                if not re.fullmatch(r"-?[0-9]+", sel):
                    fail(f"[{sel}] is not [i], [*] or [key=value]")
                i = int(sel)
                if isinstance(cur, _Selection):
                    if not all(isinstance(x, list) and -len(x) <= i < len(x) for x in cur):
                        fail(f"[{i}] on a selection needs every element to be a list with an element {i}")
                    cur = _Selection(x[i] for x in cur)
                elif isinstance(cur, list) and -len(cur) <= i < len(cur):
                    cur = cur[i]
                else:
                    fail(f"no element [{i}]")
    return cur
