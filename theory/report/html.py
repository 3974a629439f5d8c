"""paper_checks.html: the report as one self-contained page that opens from disk.

The same content as paper_checks.md (:mod:`.markdown`), from the same JSON and the same
renderer (:mod:`theory.core.render`): the summary, the findings per paper by severity,
then every claim with its statement, place in the paper, verdict, evidence in words,
its evidence plot inline (a PNG embedded as a data URI, reduced to a 256-colour palette
where Pillow is installed), its corrected twin linked and its rerun command. Filters by
paper, verdict and severity and a search box over ids and statements run in the page
(:mod:`.html_template`); nothing is fetched.

Each claim is an ``<article class="claim">`` with ``data-paper``, ``data-verdict``
(the JSON's verdict) and ``data-severity`` (its class; ``unclassified`` for a
discrepancy without one, empty otherwise), which the browser test counts against the
JSON.
"""
from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from ..core.registry import papers
from ..core.render import SEVERITY_TITLES, evidence_lines, findings, short_verdict, summary_text
from ..core.severity import SEVERITIES
from .html_template import page
from .markdown import _WORDS, anchor, calibration_summary, commit_lines, short_reference

__all__ = ["render_html", "embedded_png", "severity_key"]

_E = html.escape


def embedded_png(path: Path) -> str:
    """A data URI of the PNG at ``path``: palette-reduced (256 colours, lossless for the
    few colours of a plot) when Pillow is there and that is smaller, else as stored."""
    raw = Path(path).read_bytes()
    try:
        from PIL import Image

        with Image.open(io.BytesIO(raw)) as im:
            small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
            buf = io.BytesIO()
            small.save(buf, format="PNG", optimize=True)
        if buf.tell() < len(raw):
            raw = buf.getvalue()
    except ImportError:  # pragma: no cover - Pillow comes with matplotlib
        pass
    return "data:image/png;base64," + base64.b64encode(raw).decode("ascii")


def severity_key(rec: dict) -> str:
    """The value of a claim's severity filter: its class, ``unclassified`` for a
    discrepancy that has none yet, "" for a claim that is not a discrepancy."""
    if rec.get("severity"):
        return rec["severity"]
    not_following = (rec["evidence"].get("follows") or {}).get("follows") is False
    return "unclassified" if rec["verdict"] == "fails" or not_following else ""


def _link(claim_id: str) -> str:
    return f'<a href="#{anchor(claim_id)}"><code>{_E(claim_id)}</code></a>'


def _summary(data: dict, calibration: dict | None) -> str:
    ctx, prov = data["context"], data["provenance"]
    recs = data["claims"]
    rows = []
    for p in papers():
        mine = [r for r in recs if r["paper"] == p.key]
        if not mine:
            continue
        count = {v: sum(r["verdict"] == v for r in mine) for v in _WORDS}
        rows.append(f'<tr><td><a href="#{p.key}">{_E(short_reference(p))}</a></td><td>{len(mine)}</td>'
                    + "".join(f"<td>{count[v]}</td>" for v in _WORDS) + "</tr>")
    n_mc = sum(r["monte_carlo"] for r in recs)
    return (f'<section id="summary"><p class="lead">Run: commit {_E(prov["commit"][:10])}'
            f'{" (with uncommitted changes)" if prov.get("dirty") else ""}, seed {ctx["seed"]}, Monte-Carlo scale '
            f'{ctx["scale"]:g}, backend {_E(ctx["backend"])}; {len(recs)} claims, {n_mc} of them Monte Carlo, each '
            f'allowed a false verdict with probability {ctx["claim_alpha"]:g}. Full statistics and calibration: '
            f'paper_checks.md.</p><p class="lead">{_E(calibration_summary(calibration).split(" ([tables]")[0])}.</p>'
            "<table><tr><th>paper</th><th>claims</th><th>holds</th><th>holds approximately</th>"
            "<th>fails as printed</th><th>inconclusive</th></tr>" + "".join(rows) + "</table></section>")


def _findings(data: dict, by_id: dict, fixes: dict) -> str:
    out = ['<section id="findings"><h2>Findings</h2>']
    for p in papers():
        recs = [r for r in data["claims"] if r["paper"] == p.key]
        if not recs:
            continue
        out.append(f"<h3>{_E(short_reference(p))}</h3>")
        groups = findings(recs)
        if not groups:
            out.append("<p>No discrepancy found.</p>")
        for sev, group in groups.items():
            out.append(f'<h4>{_E(SEVERITY_TITLES[sev])} ({len(group)})</h4><ul class="findings">')
            for r in group:
                fix = "".join(f" Corrected: {_link(f)} {_E(short_verdict(by_id[f]))}." for f in fixes.get(r["id"], ()))
                impact = f" {_E(r['impact'].rstrip('.'))}." if r.get("impact") else ""
                text = summary_text(r)
                out.append(f"<li>{_link(r['id'])} ({_E(r['where'])}):{impact} {_E(text[0].upper() + text[1:])}.{fix}"
                           "</li>")
            out.append("</ul>")
    return "".join(out) + "</section>"


def _buttons(name: str, values: list) -> str:
    items = [("all", "all")] + values
    return (f'<div class="row"><span class="label">{name}</span>'
            + "".join(f'<button class="filter{" active" if v == "all" else ""}" data-filter="{name}" '
                      f'data-value="{_E(v)}">{_E(label)}</button>' for v, label in items) + "</div>")


def _controls(data: dict) -> str:
    keys = [p.key for p in papers() if any(r["paper"] == p.key for r in data["claims"])]
    sev = [(s, s) for s in SEVERITIES] + [("unclassified", "not classified yet")]
    return ('<section id="controls"><div class="row"><input id="search" type="search" '
            'placeholder="Search claim ids and statements" aria-label="search"><span id="shown"></span></div>'
            + _buttons("paper", [(k, k) for k in keys])
            + _buttons("verdict", [(v, w) for v, w in _WORDS.items()])
            + _buttons("severity", sev) + "</section>")


def _claim(r: dict, images: dict, fixes: dict) -> str:
    dl = []
    for label, text in evidence_lines(r):
        if label == "Verdict":
            continue
        if label == "Corrects":
            dl.append(f"<dt>Corrects</dt><dd>{_link(text)}</dd>")
        else:
            head, *items = text.split("\n")
            extra = "<ul>" + "".join(f"<li>{_E(i)}</li>" for i in items) + "</ul>" if items else ""
            dl.append(f"<dt>{_E(label)}</dt><dd>{_E(head)}{extra}</dd>")
    for fix in fixes.get(r["id"], ()):
        dl.append(f"<dt>Corrected by</dt><dd>{_link(fix)}</dd>")
    if r.get("note"):
        dl.append(f"<dt>Note</dt><dd>{_E(r['note'])}</dd>")
    dl.append(f"<dt>Rerun</dt><dd><code>{_E(r['rerun'])}</code></dd>")
    img = (f'<img class="plot" src="{images[r["id"]]}" alt="Evidence plot of {_E(r["id"])}">'
           if r["id"] in images else "")
    search = _E(f"{r['id']} {r['statement']}".lower())
    return (f'<article class="claim" id="{anchor(r["id"])}" data-paper="{_E(r["paper"])}" '
            f'data-verdict="{_E(r["verdict"])}" data-severity="{_E(severity_key(r))}" data-search="{search}">'
            f'<h3>{_E(r["id"])}</h3><p class="where">{_E(r["where"])} ({_E(r["kind"])}'
            f'{", slow" if r.get("slow") else ""})</p><blockquote>{_E(r["statement"])}</blockquote>'
            f'<p class="verdict v-{_E(r["verdict"])}">{_E(short_verdict(r))} '
            f'<span class="severity">(recorded: {_WORDS[r["recorded_verdict"]]})</span></p>'
            f'<dl>{"".join(dl)}</dl>{img}</article>')


def render_html(data: dict, plots: dict | None = None, root: Path | str = ".",
                calibration: dict | None = None) -> str:
    """The page from the JSON ``data`` (records with every declared field), the evidence
    plots ``plots`` ({claim id: path relative to ``root``}) embedded, and the
    calibration.json ``calibration`` summarised in one line."""
    root = Path(root)
    images = {cid: embedded_png(root / rel) for cid, rel in (plots or {}).items() if (root / rel).exists()}
    recs = data["claims"]
    by_id = {r["id"]: r for r in recs}
    fixes: dict = {}
    for r in recs:
        if r["corrects"]:
            fixes.setdefault(r["corrects"], []).append(r["id"])
    body = ['<header><h1>Paper checks</h1><p class="lead">Generated by <code>python -m theory report</code> from the '
            "claim catalogue; do not edit by hand.</p></header>", _summary(data, calibration),
            _findings(data, by_id, fixes), _controls(data), "<main>"]
    for p in papers():
        mine = [r for r in recs if r["paper"] == p.key]
        if not mine:
            continue
        ref = (f'<a href="{_E(p.url)}">{_E(p.reference)}</a>' if p.url else _E(p.reference))
        body.append(f'<section class="paper" id="{p.key}"><h2>{_E(short_reference(p))}</h2><p class="lead">{ref}. '
                    f'{_E(commit_lines(data, p.key)[0])}</p>')
        body += [_claim(r, images, fixes) for r in mine]
        body.append("</section>")
    body.append("</main>")
    return page("\n".join(body))
