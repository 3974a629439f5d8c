"""Evidence in words: one renderer for a failing pytest item, the pytest terminal
summary, ``python -m theory check``, paper_checks.md and paper_checks.html.

It reads a *record*, the JSON of a claim with its evidence as the report writes it
(:func:`as_record` makes one from a :class:`~theory.core.claims.Claim` and its
:class:`~theory.core.evidence.Evidence`), so the live checks and the committed report
print the same sentences. Numbers are shown at 4 significant digits and never cut
(:mod:`.prose`); the JSON keeps them at full precision. A record written before a field
existed (``tightness``, ``follows``, ``severity``, ``mutations``) renders without it.

>>> rec = {"id": "p.eq60", "where": "Eq. 60", "verdict": "fails", "monte_carlo": True, "evidence": {
...     "verdict": "fails", "measured": {"mean": 1.5018735, "se": 0.00173, "n": 16000, "interval": [1.49273, 1.51104]},
...     "expected": 2.0, "counterexample": {"init": "orth", "B": 2, "mean": 1.5018735, "se": 0.00173,
...     "replicates": 16000, "interval": [1.49273, 1.51104], "target": 2.0,
...     "band": [1.96, 2.04]}}}
>>> for part in record_line(rec).split("; "):
...     print(part)
p.eq60 (Eq. 60): measured 1.502 (interval 1.493 to 1.511 at the claim's alpha, 16,000 replicates) at init=orth, B=2
printed 2 (band 1.96 to 2.04)
"""
from __future__ import annotations

from .claims import Claim, Mutation
from .evidence import Evidence, jsonable
from .prose import clip, num, parts, tidy, value
from .severity import SEVERITIES, counts_as_error

__all__ = ["render_evidence", "one_line", "record_line", "summary_text", "short_verdict", "as_record", "declaration",
           "mutation_json", "evidence_lines", "verdict_text", "measured_text", "stated_text", "counterexample_text",
           "tightness_text", "follows_text", "mutation_lines", "mutation_summary", "severity_text", "sampling_text",
           "findings", "SEVERITY_TITLES", "HOLDING"]

#: Verdicts that hold.
HOLDING = ("holds", "holds_approximately")
#: The findings' group titles, most serious first (None: a claim whose class is not recorded yet).
SEVERITY_TITLES = {
    "result": "Wrong results",
    "step": "Proof steps that are wrong or do not follow",
    "misprint": "Misprints",
    "wording": "Wording: the literal reading fails, the intended one holds (not an error of the paper)",
    "stand-in": "Stand-in models: a failure of the simplified model, not shown for the paper's own (not an error "
                "of the paper)",
    None: "No severity recorded yet",
}
_LEVEL = "at the claim's alpha"


def mutation_json(m: Mutation) -> dict:
    """A mutation as JSON (the report lists each claim's checks that can fail)."""
    return {"name": m.name, "params": jsonable(dict(m.params)), "expect": m.expect.value,
            "part": list(m.parts) or None, "printed": m.printed, "mirror": m.mirror}


def declaration(claim: Claim) -> dict:
    """What the catalogue declares of ``claim``, as the report records it."""
    return {"id": claim.id, "paper": claim.paper, "where": claim.where, "statement": claim.statement,
            "kind": claim.kind, "recorded_verdict": claim.recorded.value, "corrects": claim.corrects,
            "slow": claim.slow, "monte_carlo": claim.monte_carlo, "rerun": claim.rerun,
            "severity": claim.severity, "impact": claim.impact or None, "cites": list(claim.cites),
            "mutations": [mutation_json(m) for m in claim.mutations]}


def as_record(claim: Claim, ev: Evidence) -> dict:
    """``claim`` and its evidence as a record (the shape of a paper_checks.json claim)."""
    return {**declaration(claim), "verdict": ev.verdict.value, "evidence": ev.to_json(), "plot": jsonable(ev.plot)}


def _words(verdict: str) -> str:
    return verdict.replace("_", " ")


def _level(rec: dict) -> str:
    return _LEVEL if rec.get("monte_carlo") or rec["evidence"].get("sampling") else ""


def _row(d: dict, level: str, limit: int | None, compare: bool = False) -> str:
    """A row with its quantity first: "1.502 (interval ...) at B=2, rest"."""
    p = parts(d, name_main=False, level=level)
    body = ([p.main] if p.main else []) + (p.compare if compare else []) + p.rest
    if p.main and p.coords:
        body[0] += f" at {', '.join(p.coords)}"
    elif p.coords:
        body.insert(0, f"at {', '.join(p.coords)}:")
    text = clip(body, limit).replace(":, ", ": ")
    return f"{p.lead}: {text}" if p.lead and text else (p.lead or text)


def measured_text(rec: dict, limit: int | None = 240) -> str:
    """What the check measured (its worst row), in words."""
    m = rec["evidence"]["measured"]
    return _row(m, _level(rec), limit) if isinstance(m, dict) else value(m, limit or 10**6)


def _band(rec: dict, row: dict | None):
    """The tolerance band of the row behind the stated value, where one is recorded."""
    ev = rec["evidence"]
    rows = ([row] if isinstance(row, dict) else []) + [d for d in ev.get("details") or [] if isinstance(d, dict)]
    for d in rows:
        band = d.get("band")
        if isinstance(band, list) and len(band) == 2 and d.get("target") == ev.get("expected"):
            return band
    return None


def stated_text(rec: dict, row: dict | None = None, limit: int | None = 240) -> str:
    """What the statement says (its value, with the band it allows where it gives one)."""
    ev = rec["evidence"]
    text = value(ev["expected"], limit or 10**6)
    band = _band(rec, row) if isinstance(ev["expected"], (int, float)) else None
    return text + (f" (band {value(band[0])} to {value(band[1])})" if band else "")


def counterexample_text(rec: dict, limit: int | None = 240) -> str | None:
    """The counterexample as a sentence (None when there is none)."""
    cx = rec["evidence"].get("counterexample")
    if cx is None:
        return None
    return _row(cx, _level(rec), limit, compare=True) if isinstance(cx, dict) else value(cx, limit or 10**6)


def _side(rec: dict) -> str | None:
    """Which side a bound claim bounds: "upper" (<=), "lower" (>=), None if unknown."""
    plot = rec.get("plot") or {}
    claim = plot.get("claim") if isinstance(plot, dict) else None
    expected = rec["evidence"].get("expected")
    text = claim or (expected if isinstance(expected, str) else "")
    if "<" in text and ">" not in text:
        return "upper"
    if ">" in text and "<" not in text:
        return "lower"
    return None


def tightness_text(rec: dict) -> str | None:
    """How far a bound stands from the data (None for a claim that is not a bound).

    >>> tightness_text({"evidence": {"expected": "E[V] <= 0.5", "tightness": {
    ...     "factor": 12.5, "gap": 1.15, "loose": True, "row": {"depth": 3}}}})
    "the bound is 12.5 times the data's upper limit at depth=3"
    """
    t = rec["evidence"].get("tightness")
    if not t:
        return None
    side, f = _side(rec), t.get("factor")
    row = t.get("row")
    at = f" at {', '.join(f'{k}={value(v, 60)}' for k, v in row.items())}" if isinstance(row, dict) and row else ""
    if f is None:
        return f"the bound is {value(t.get('gap'))} from the data's {side or 'confidence'} limit{at}"
    if side == "upper":
        return f"the bound is {num(f)} times the data's upper limit{at}"
    if side == "lower":
        return f"the data's lower limit is {num(f)} times the bound{at}"
    return f"the bound could move by a factor {num(f)} toward the data and still hold{at}"


def follows_text(rec: dict) -> str | None:
    """Whether a proof step follows from the printed steps it cites (None: not a step)."""
    f = rec["evidence"].get("follows")
    if not isinstance(f, dict) or not isinstance(f.get("follows"), bool):
        return None
    cites = ", ".join(f.get("cites") or rec.get("cites") or ()) or "the steps it cites"
    return (f"follows from {cites}" if f["follows"] else f"does not follow from {cites}") + \
        (f": {f['why']}" if f.get("why") else "")


def verdict_text(rec: dict) -> str:
    """The verdict with what qualifies it: "holds, loose: ..." for a bound with room of a
    factor 2 or more (the tightness factor beside every other bound verdict), "true; does
    not follow from ..." for a step that is true but does not follow.

    >>> verdict_text({"verdict": "holds", "evidence": {"expected": "x <= 1", "tightness": {
    ...     "factor": 1.25, "gap": 0.2, "loose": False, "row": None}}})
    "holds (tightness 1.25: the bound is 1.25 times the data's upper limit)"
    >>> verdict_text({"verdict": "holds", "evidence": {"follows": {"follows": False, "cites": ["Eq. 56", "Eq. 59"],
    ...     "why": "two errors cancel"}}})
    'true; does not follow from Eq. 56, Eq. 59: two errors cancel'
    """
    ev, verdict = rec["evidence"], rec["verdict"]
    text = _words(verdict)
    tight = tightness_text(rec)
    if tight:
        t = ev["tightness"]
        if t.get("loose") and verdict in HOLDING:
            text += f", loose: {tight}"
        elif t.get("factor") is not None:
            text += f" (tightness {num(t['factor'])}: {tight})"
        else:
            text += f" ({tight})"
    f = ev.get("follows")
    if isinstance(f, dict) and f.get("follows") is False:
        text = ("true" if verdict in HOLDING else text) + f"; {follows_text(rec)}"
    return text


def severity_text(rec: dict) -> str | None:
    """The class of a discrepancy and why (None when none is recorded)."""
    sev = rec.get("severity")
    if not sev:
        return None
    what = SEVERITIES.get(sev, "")
    tail = "" if counts_as_error(sev) else " (not counted as an error of the paper)"
    return f"{sev}{tail}: {rec.get('impact') or what}"


def sampling_text(s: dict) -> str:
    """The sequential looks of a Monte-Carlo claim in words."""
    return (f"stopped at look {s['looks']} of {s['planned_looks']} ({s['stopped']}), "
            f"{num(s['replicates_per_row'])} replicates per row, alpha {num(s['alpha_per_look'])} per look")


def mutation_lines(rec: dict) -> list:
    """One line per mutation: the wrong statement, what it must get on this claim's data
    (tests/theory/test_mutations.py runs them), printed-form and mirror ones marked."""
    out = []
    for m in rec.get("mutations") or ():
        params = ", ".join(f"{k}={value(v, 60)}" for k, v in (m.get("params") or {}).items())
        must = "must fail" if m.get("expect", "fails") == "fails" else f"must give {_words(m['expect'])}"
        tags = (["the printed form in this corrected claim's judge"] if m.get("printed") else []) + \
               (["mirror: fails exactly when the claim holds, so it shows nothing"] if m.get("mirror") else [])
        through = f" through {', '.join(m['part'])}" if m.get("part") else ""
        out.append(f"{m['name']} ({params}) {must}{through}" + (f" [{'; '.join(tags)}]" if tags else ""))
    return out


def mutation_summary(rec: dict) -> str | None:
    """How many checks that can fail (or, for a claim that fails, hold) this claim has on
    its own data; None when the record does not list its mutations.

    >>> mutation_summary({"verdict": "holds", "mutations": [{"name": "c=3", "expect": "fails"},
    ...                   {"name": "flip", "expect": "fails", "mirror": True}]})
    "1 mutation must fail on this claim's data; 1 mirror (not counted)"
    """
    muts = rec.get("mutations")
    if muts is None:
        return None
    failing = [m for m in muts if m.get("expect", "fails") == "fails" and not m.get("mirror")]
    others = [m for m in muts if m.get("expect", "fails") != "fails"]
    mirrors = sum(bool(m.get("mirror")) for m in muts)
    printed = sum(bool(m.get("printed")) for m in failing)
    out = []
    if failing:
        out.append(f"{len(failing)} mutation{'s' if len(failing) != 1 else ''} must fail on this claim's data"
                   + (f" ({printed} the printed form)" if printed else ""))
    if others:
        kinds = sorted({_words(m["expect"]) for m in others})
        out.append(f"{len(others)} must give {' or '.join(kinds)}")
    if not failing and rec.get("verdict") != "fails":
        out.insert(0, "no mutation that can fail (a check that cannot fail)")
    if mirrors:
        out.append(f"{mirrors} mirror{'s' if mirrors != 1 else ''} (not counted)")
    return "; ".join(out) if out else "no mutations"


def _rows_lines(rec: dict, limit: int = 6) -> list:
    """The rows of a check, failing ones first, at most ``limit``."""
    rows = [d for d in rec["evidence"].get("details") or [] if isinstance(d, dict)]
    if len(rows) < 2:
        return []
    failing = [d for d in rows if d.get("verdict") == "fails" or d.get("ok") is False]
    shown = (failing + [d for d in rows if d not in failing])[:limit]
    out = [f"{len(rows)} rows, {len(failing)} failing" + (f"; the first {len(shown)}:" if len(shown) < len(rows)
                                                            else ":")]
    for d in shown:
        verdict = d.get("verdict") or ({True: "holds", False: "fails"}.get(d.get("ok")))
        out.append(f"{_row(d, _level(rec), 200, compare=True)}" + (f" - {_words(verdict)}" if verdict else ""))
    return out


def evidence_lines(rec: dict, rows: bool = False) -> list:
    """(label, text) pairs of a claim's evidence, in reading order; ``rows`` adds the
    rows of the check. A text of several lines (the rows, the mutations) is a heading
    line and one line per item, joined by newlines."""
    ev = rec["evidence"]
    out = [("Verdict", short_verdict(rec, severity=False)
            + (f" (recorded: {_words(rec['recorded_verdict'])})" if rec.get("recorded_verdict") else ""))]
    if severity_text(rec):
        out.append(("Severity", severity_text(rec)))
    out += [("Measured", measured_text(rec, None)), ("Stated", stated_text(rec, None, None))]
    cx = counterexample_text(rec, None)
    if cx is not None:
        out.append(("Counterexample", cx))
    if tightness_text(rec):
        t = ev["tightness"]
        out.append(("Tightness", ("loose: " if t.get("loose") else "") + tightness_text(rec)
                    + (f" (factor {num(t['factor'])})" if t.get("factor") is not None else "")))
    if follows_text(rec):
        out.append(("Derivation", follows_text(rec)))
    if ev.get("margin") is not None:
        out.append(("Margin", f"{num(ev['margin'])} {tidy(ev.get('margin_unit') or '')}".strip()))
    out += [("Method", ev["method"]), ("Resolution", value(ev["resolution"]))]
    if ev.get("informative") is False:
        out.append(("Informative", "no: the check could not have failed where it ran"))
    if ev.get("sampling"):
        out.append(("Sampling", sampling_text(ev["sampling"])))
    if rows:
        lines = _rows_lines(rec)
        if lines:
            out.append(("Rows", "\n".join(lines)))
    if mutation_summary(rec):
        out.append(("Mutations", "\n".join([mutation_summary(rec)] + mutation_lines(rec))))
    if ev.get("settle"):
        out.append(("To settle", ev["settle"]))
    if rec.get("corrects"):
        out.append(("Corrects", rec["corrects"]))
    return out


def render_evidence(claim: Claim, ev: Evidence, title: str | None = None) -> str:
    """The claim, the verdict against the recorded one, and the evidence, as prose (a
    failing pytest item, ``python -m theory check``)."""
    rec = as_record(claim, ev)
    lines = [title or f"Claim {claim.id} ({claim.paper}, {claim.where})", f"  Statement: {claim.statement}"]
    lines += [f"  {label}: {text}".replace("\n", "\n    ") for label, text in evidence_lines(rec, rows=True)]
    lines.append(f"  Rerun: {claim.rerun}")
    return "\n".join(lines)


def summary_text(rec: dict, limit: int = 240) -> str:
    """What was measured and what the statement says, in one line (for a failure, the
    failing row with its coordinates; for an exact check, also the counterexample);
    each part at most ``limit`` characters, cut between phrases."""
    ev = rec["evidence"]
    cx = ev.get("counterexample")
    word = "corrected form" if rec.get("corrects") else "printed"
    if rec["verdict"] == "fails" and isinstance(cx, dict) and parts(cx).main is not None:
        return f"measured {_row(cx, _level(rec), limit)}; {word} {stated_text(rec, cx, limit)}"
    line = f"measured {measured_text(rec, limit)}; {word} {stated_text(rec, None, limit)}"
    if rec["verdict"] == "fails" and cx is not None:
        line += f"; counterexample: {counterexample_text(rec, limit)}"
    qualifier = verdict_text(rec)
    if qualifier != _words(rec["verdict"]):
        line += f"; {qualifier}"
    return line


def record_line(rec: dict, limit: int = 240) -> str:
    """One line: the claim, where, and :func:`summary_text`."""
    return f"{rec['id']} ({rec['where']}): {summary_text(rec, limit)}"


def short_verdict(rec: dict, severity: bool = True) -> str:
    """The verdict in a few words for tables: "holds, loose (factor 12.5)", "true, does
    not follow", "fails (misprint)" (the class only with ``severity``)."""
    ev, verdict = rec["evidence"], rec["verdict"]
    text = _words(verdict)
    f = ev.get("follows")
    if isinstance(f, dict) and f.get("follows") is False:
        text = ("true" if verdict in HOLDING else text) + ", does not follow"
    t = ev.get("tightness")
    if t and t.get("loose") and verdict in HOLDING:
        text += ", loose" + (f" (factor {num(t['factor'])})" if t.get("factor") is not None else "")
    if severity and rec.get("severity") and (verdict == "fails" or (isinstance(f, dict) and f.get("follows") is False)):
        text += f" ({rec['severity']})"
    return text


def one_line(claim: Claim, ev: Evidence) -> str:
    """:func:`record_line` of a live check (the pytest terminal summary)."""
    return record_line(as_record(claim, ev))


def findings(recs: list) -> dict:
    """The discrepancies among ``recs`` by severity class (keys in the order of
    :data:`SEVERITY_TITLES`, empty classes left out): every claim that fails, and every
    claim that holds but carries a class (a true step that does not follow from the steps
    it cites, or that follows only because two printed errors cancel)."""
    out: dict = {}
    for sev in SEVERITY_TITLES:
        group = [r for r in recs if r.get("severity") == sev and (r["verdict"] == "fails" or sev is not None)]
        if group:
            out[sev] = group
    return out


def short(x, limit: int = 300) -> str:
    """A recorded value in words, at most ``limit`` characters, cut between phrases."""
    return value(x, limit)
