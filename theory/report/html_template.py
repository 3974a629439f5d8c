"""The page around paper_checks.html's content: its style and the script of its filters
(kept as Python strings so the report needs no package data). The script hides a claim
unless it matches every active filter (paper, verdict, severity: buttons, one active
value each, "all" by default) and the search text (a substring of its id or
statement, case-insensitive), and says how many claims are shown."""

__all__ = ["PAGE"]

STYLE = """
:root { --fails: #b3261e; --holds: #1b6e3a; --approx: #4f7f2a; --inconclusive: #8a6d00; --muted: #5f6368; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #202124; }
header, main, #controls, #summary, #findings { max-width: 1100px; margin: 0 auto; padding: 0 1rem; }
h1 { margin: 1rem 0 0.3rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; } h3 { margin: 0.2rem 0; }
.lead { color: var(--muted); margin: 0.2rem 0; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f5f5f5; }
#controls { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: 0.5rem 1rem;
  z-index: 2; }
#controls .row { display: flex; flex-wrap: wrap; gap: 0.3rem; align-items: center; margin: 0.2rem 0; }
#controls .label { width: 5.5rem; color: var(--muted); font-size: 13px; }
button.filter { border: 1px solid #bbb; background: #fafafa; border-radius: 1rem; padding: 0.1rem 0.7rem;
  cursor: pointer; font-size: 13px; }
button.filter.active { background: #1a73e8; border-color: #1a73e8; color: #fff; }
#search { width: 22rem; max-width: 100%; padding: 0.3rem 0.5rem; font-size: 14px; }
#shown { margin-left: auto; color: var(--muted); font-size: 13px; }
article.claim { border: 1px solid #ddd; border-radius: 6px; padding: 0.6rem 0.9rem; margin: 0.8rem 0; }
article.claim.hidden { display: none; }
.where { color: var(--muted); font-style: italic; margin: 0.1rem 0 0.4rem; }
blockquote { margin: 0.3rem 0; padding: 0.2rem 0.8rem; border-left: 3px solid #ccc; background: #fafafa; }
.verdict { font-weight: 600; }
.v-fails { color: var(--fails); } .v-holds { color: var(--holds); } .v-holds_approximately { color: var(--approx); }
.v-inconclusive { color: var(--inconclusive); }
dl { display: grid; grid-template-columns: 10rem 1fr; gap: 0.15rem 0.8rem; margin: 0.4rem 0; font-size: 14px; }
dt { color: var(--muted); } dd { margin: 0; overflow-wrap: anywhere; }
img.plot { max-width: 100%; height: auto; border: 1px solid #eee; margin-top: 0.4rem; }
code { background: #f1f3f4; padding: 0 0.25rem; border-radius: 3px; font-size: 13px; overflow-wrap: anywhere; }
.findings li { margin: 0.25rem 0; } .severity { color: var(--muted); font-weight: normal; }
"""

SCRIPT = """
(function () {
  const active = {paper: "all", verdict: "all", severity: "all"};
  const claims = Array.from(document.querySelectorAll("article.claim"));
  const search = document.getElementById("search");
  const shown = document.getElementById("shown");
  function update() {
    const text = search.value.trim().toLowerCase();
    let n = 0;
    for (const c of claims) {
      const ok = Object.keys(active).every(k => active[k] === "all" || c.dataset[k] === active[k])
        && (!text || c.dataset.search.includes(text));
      c.classList.toggle("hidden", !ok);
      if (ok) n += 1;
    }
    shown.textContent = n + " of " + claims.length + " claims shown";
  }
  for (const b of document.querySelectorAll("button.filter")) {
    b.addEventListener("click", function () {
      active[b.dataset.filter] = b.dataset.value;
      for (const o of document.querySelectorAll('button.filter[data-filter="' + b.dataset.filter + '"]')) {
        o.classList.toggle("active", o === b);
      }
      update();
    });
  }
  search.addEventListener("input", update);
  update();
})();
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Paper checks</title>
<style>{style}</style>
</head>
<body>
{body}
<script>{script}</script>
</body>
</html>
"""


def page(body: str) -> str:
    """The whole document around ``body``."""
    return PAGE.format(style=STYLE, body=body, script=SCRIPT)
