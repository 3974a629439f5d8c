"""Numbers in a claim's note that the run generates.

A note is typed prose, so a number it quotes from a measurement would go stale when the
code or the seed changes. It quotes one through a field, ``{=path}`` or ``{=path:spec}``,
filled from the claim's evidence (its JSON form, :meth:`~theory.core.evidence.Evidence.to_json`)
when the report is written:

- ``path`` is dot-separated keys into the evidence (``measured.bn_last``); a key on a
  list maps over the elements that hold it (``details.mean``: every row's mean; an error
  when none does); a segment may end
  in ``[i]`` (the i-th element) or ``[key=value]`` (the elements whose ``key`` reads
  ``value``);
- a path that gives a list takes ``min`` or ``max`` before it (``{=max details.mean}``),
  and a path that gives one element of a selection needs none;
- ``spec`` is a :func:`format` spec (``.3g``, ``+.3f``).

A path the evidence does not hold is an error naming the claim and the path, never a
blank.

>>> ev = {"measured": {"level": 0.0531}, "details": [{"part": "a", "mean": 1.25}, {"part": "b", "mean": 2.0}]}
>>> fill_note("level {=measured.level:.2g}; means {=min details.mean} to {=max details.mean:.1f}", ev)
'level 0.053; means 1.25 to 2.0'
>>> fill_note("b's mean {=details[part=b].mean:.2f}", ev)
"b's mean 2.00"
>>> fill_note("{=details.mean}", ev)
Traceback (most recent call last):
...
ValueError: note field {=details.mean} of claim  gives 2 values: put min or max before its path, or select one element
"""
from __future__ import annotations

import re

__all__ = ["fill_note", "note_fields"]

_FIELD = re.compile(r"\{=(?:(min|max) )?([^:{}]+?)(?::([^{}]*))?\}")
_SEGMENT = re.compile(r"([^.\[\]]+)?(?:\[([^\]]+)\])?")


def note_fields(note: str) -> list:
    """The fields of ``note`` as (aggregate, segments, spec) tuples, ``segments`` a list
    of (key, selector) pairs; a ``{=`` that does not open a well-formed field is an error.

    >>> note_fields("V/bound {=measured.largest_V/bound:.2f} at l = {=measured.at_l}")
    [(None, [('measured', None), ('largest_V/bound', None)], '.2f'), (None, [('measured', None), ('at_l', None)], '')]
    """
    fields = []
    for m in _FIELD.finditer(note):
        fields.append((m.group(1), _segments(m.group(2)), m.group(3) or ""))
    if note.count("{=") != len(fields):
        raise ValueError(f"a note field is written {{=path}} or {{=path:spec}} (path: dot-separated keys, "
                         f"optionally [i] or [key=value]; min or max before a path that gives a list): {note!r}")
    return fields


def fill_note(note: str, evidence: dict, claim: str = "") -> str:
    """``note`` with every field replaced by the value at its path in ``evidence``."""
    note_fields(note)  # validates every field

    def value(m: re.Match) -> str:
        agg, segments, spec = m.group(1), _segments(m.group(2)), m.group(3) or ""
        found = _resolve(evidence, segments, m.group(0), claim)
        if isinstance(found, list):
            if agg is None:
                if len(found) != 1:
                    raise ValueError(f"note field {m.group(0)} of claim {claim} gives {len(found)} values: put min or "
                                     "max before its path, or select one element")
                found = found[0]
            else:
                if not found:
                    raise ValueError(f"note field {m.group(0)} of claim {claim} selects no value")
                found = (min if agg == "min" else max)(found)
        elif agg is not None:
            raise ValueError(f"note field {m.group(0)} of claim {claim} gives one value: drop {agg}")
        return format(found, spec)

    return _FIELD.sub(value, note)


def _segments(path: str) -> list:
    out = []
    for part in _split(path.strip()):
        m = _SEGMENT.fullmatch(part)
        if not part or m is None or (m.group(1) is None and m.group(2) is None):
            raise ValueError(f"note field path {path!r}: segment {part!r} is not key, key[i] or key[field=value]")
        out.append((m.group(1), m.group(2)))
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
    """The value at ``segments``: a list met on the way becomes a selection whose
    elements the following keys map over; ``[i]`` picks an element of a selection (or
    each element's i-th, when its elements are lists) and ``[key=value]`` filters it."""
    cur, selection = data, False
    for key, selector in segments:
        if key is not None:
            if selection:  # the elements that hold the key (rows of different kinds share a list)
                cur = [x[key] for x in cur if isinstance(x, dict) and key in x] if any(
                    isinstance(x, dict) and key in x for x in cur) else _get({}, key, field, claim)
            else:
                cur = _get(cur, key, field, claim)
            selection = selection or isinstance(cur, list)
        if selector is None:
            continue
        if not selection:
            raise ValueError(f"note field {field} of claim {claim}: [{selector}] needs a list")
        if "=" in selector:
            k, v = selector.split("=", 1)
            cur = [x for x in cur if isinstance(x, dict) and str(x.get(k)) == v]
            continue
        try:
            i = int(selector)
            if cur and all(isinstance(x, list) for x in cur):
                cur = [x[i] for x in cur]
            else:
                cur, selection = cur[i], False
        except (ValueError, IndexError) as exc:
            raise ValueError(f"note field {field} of claim {claim}: no element [{selector}]") from exc
    return cur


def _get(x, key: str, field: str, claim: str):
    if not isinstance(x, dict) or key not in x:
        raise ValueError(f"note field {field} of claim {claim}: the evidence has no {key!r} here")
    return x[key]
