"""paper_checks.html (theory/report/html.py): the committed page is the rendering of the
committed JSON, one self-contained file (no external resource; the plots embedded),
of a size that opens quickly; each claim carries what the filters and the browser
test read."""
import json
import re
from pathlib import Path

from theory.report import rendered_html
from theory.report.html import embedded_png

ROOT = Path(__file__).resolve().parents[3]
#: Budget of the page (the raw plots alone are about 2.1 MB; embedded as base64 they would be 2.8 MB).
MAX_BYTES = 3_000_000


def test_committed_html_is_the_rendering_of_its_json():
    assert rendered_html(ROOT) == (ROOT / "paper_checks.html").read_text(), \
        "rerender with: python -m theory report --render-only"


def test_the_page_is_self_contained_and_small():
    text = (ROOT / "paper_checks.html").read_text()
    assert len(text.encode()) < MAX_BYTES
    assert not re.findall(r"<(?:script|img|link|iframe)[^>]+(?:src|href)=\"(?!data:|#)", text)
    data = json.loads((ROOT / "paper_checks.json").read_text())["claims"]
    assert text.count('<article class="claim"') == len(data)
    assert text.count('<img class="plot" src="data:image/png;base64,') == sum(bool(r.get("plot")) for r in data)
    assert "../shared/papers" not in text


def test_plots_are_embedded_smaller_than_stored(tmp_path):
    path = next((ROOT / "figures" / "evidence").glob("*.png"))
    uri = embedded_png(path)
    assert uri.startswith("data:image/png;base64,") and len(uri) * 3 / 4 < path.stat().st_size * 1.05
