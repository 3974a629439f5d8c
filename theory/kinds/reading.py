"""A printed statement and its correction, declared together.

A claim that fails as printed is recorded as printed (with its severity and the
sentence of impact) and, beside it, the corrected statement, which must itself reject
the printed form on its own data. Both are the same check with other parameters: the
printed form is a setting of the corrected claim's judge (a constant, an index, a
form's name). :func:`reading` builds both from the corrected claim, so that

- the printed claim is recorded ``fails`` with its severity and impact, and carries
  its correction as a mutation expecting ``holds`` (the correction is checked on the
  printed claim's data too);
- the corrected claim ``corrects`` the printed one and carries the printed form as a
  ``printed`` mutation expecting ``fails`` (tests/theory/test_mutations.py runs it: a
  correction whose band also holds the printed value cannot pass as one).

>>> import sympy as sp
>>> from theory.kinds import Named, constant_claim
>>> n = sp.Symbol("n", positive=True)
>>> printed, corrected = reading(
...     constant_claim(id="demo.eq2", where="Eq. 2", statement="Var[U(-a, a)] / a^2 = 1/3",
...                    value=lambda: sp.integrate(sp.Symbol("w") ** 2 / 2, (sp.Symbol("w"), -1, 1)),
...                    constant="1/3", wrong=("1/2",)),
...     printed_id="demo.eq2_printed", printed_statement="Var[U(-a, a)] / a^2 = 1/2 (as printed)",
...     printed={"constant": "1/2"}, severity="misprint", impact="The next line uses 1/3.")
>>> from theory.core import evaluate
>>> evaluate(printed).verdict.value, evaluate(corrected).verdict.value, corrected.corrects
('fails', 'holds', 'demo.eq2_printed')
>>> [(m.name, m.printed, m.expect.value) for m in corrected.mutations]
[('the printed form: constant = 1/2', True, 'fails')]
>>> [(m.name, m.expect.value) for m in printed.mutations]
[('the corrected form: constant = 1/3', 'holds')]
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..core import Claim, Mutation, Verdict
from .base import helper

__all__ = ["reading"]


def _form(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in params.items())


@helper
def reading(corrected: Claim, *, printed_id: str, printed_statement: str, printed: Mapping[str, Any], severity: str,
            impact: str, printed_where: str | None = None, printed_note: str = "", printed_mutations=(),
            printed_recorded: Verdict = Verdict.FAILS, printed_kind: str | None = None, printed_form: str | None = None,
            printed_part: str | tuple | None = None, corrected_form: str | None = None) -> tuple:
    """(printed claim, corrected claim) from the corrected claim and the judge parameters
    of the printed form (``printed``: name -> value, each a parameter of the corrected
    claim's judge, such as a :class:`~theory.kinds.base.Named` constant's name).

    The printed claim is the corrected one with the printed parameters, ``printed_id``,
    ``printed_statement`` (and ``printed_where``, default the same place), recorded
    ``printed_recorded`` (fails) with ``severity`` and ``impact`` (and ``printed_kind``, default
    the corrected claim's kind: a printed rate may be an inequality whose correction is an
    identity); its mutations are the corrected form (expecting the corrected claim's
    recorded verdict, holds or holds approximately) and ``printed_mutations``. The
    corrected claim keeps its own mutations, but a generated one that substitutes exactly
    the printed form is replaced by the ``printed`` mutation (no check is run twice).

    The two generated mutations are named after the parameters they set, or after
    ``printed_form`` and ``corrected_form`` (words a reader knows the forms by: "exponent
    -1/2"); ``printed_part`` names the part of the corrected claim's evidence the printed
    form must fail through (:class:`~theory.core.claims.Mutation`'s ``part``), where the
    corrected claim checks several.

    >>> import sympy as sp
    >>> from theory.kinds import constant_claim
    >>> _, fixed = reading(constant_claim(id="demo.eq3", where="Eq. 3", statement="2 + 2 = 4",
    ...                                   value=lambda: sp.Integer(2) + 2, constant=4, wrong=(5,)),
    ...                    printed_id="demo.eq3_printed", printed_statement="2 + 2 = 5", printed={"constant": 5},
    ...                    printed_form="five", severity="misprint", impact="None.")
    >>> [m.name for m in fixed.mutations]
    ['the printed form: five']
    """
    unknown = sorted(set(printed) - set(corrected.params))
    if unknown:
        raise ValueError(f"printed names parameters of the corrected claim's judge, {sorted(corrected.params)}; "
                         f"got {unknown} (claim {corrected.id})")
    if all(corrected.params[k] == v for k, v in printed.items()):
        raise ValueError(f"the printed form must differ from the corrected one, got {dict(printed)} (claim "
                         f"{corrected.id})")
    if printed_id.split(".")[0] != corrected.paper:
        raise ValueError(f"printed_id must belong to paper {corrected.paper!r}, got {printed_id!r}")
    correction = {k: corrected.params[k] for k in printed}
    as_printed = replace(
        corrected, id=printed_id, statement=printed_statement, where=printed_where or corrected.where,
        kind=printed_kind or corrected.kind, params={**corrected.params, **printed}, recorded=printed_recorded,
        severity=severity, impact=impact, note=printed_note, corrects=None,
        mutations=(Mutation(f"the corrected form: {corrected_form or _form(correction)}", correction,
                            expect=corrected.recorded),) + tuple(printed_mutations))
    own = tuple(m for m in corrected.mutations if dict(m.params) != dict(printed))
    fixed = replace(corrected, corrects=printed_id,
                    mutations=(Mutation(f"the printed form: {printed_form or _form(printed)}", dict(printed),
                                        part=printed_part, printed=True),) + own)
    return as_printed, fixed
