"""paper_checks.html in a real browser (Debian's chromium driven by Playwright): the
committed page loads from disk with no console error, every filter shows as many
claims as the JSON has of that paper, verdict or severity, the search box finds a
claim by its id, and every evidence plot loads. Skips, saying why, where Playwright or
a chromium binary is missing (``pip install -e ".[browser]"`` and ``apt-get install
chromium``); under CI (``CI`` set: .ci/run installs both) a missing one is an error."""
import json
import os
import shutil
from pathlib import Path

import pytest

from theory.report.html import severity_key
from theory.report.records import with_declarations

ROOT = Path(__file__).resolve().parents[3]
#: Flags for a headless chromium in a container (no sandbox, no network chatter).
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


def _chromium() -> str | None:
    for name in (os.environ.get("PAPERCHECKS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        path = name and shutil.which(name)
        if path:
            return path
    return None


def _missing(reason: str):
    """Skip for want of a browser; under CI (which installs one, .ci/run) that is an error."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def page():
    try:
        from playwright import sync_api
    except ImportError:
        _missing('Playwright is not installed: pip install -e ".[browser]"')
    binary = _chromium()
    if binary is None:
        _missing("no chromium binary on PATH: apt-get install chromium (or set PAPERCHECKS_CHROMIUM)")
    errors = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=binary, args=FLAGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto((ROOT / "paper_checks.html").as_uri(), wait_until="load")
        tab.errors = errors
        yield tab
        browser.close()


def _records() -> list:
    return with_declarations(json.loads((ROOT / "paper_checks.json").read_text())["claims"])


def _visible(page) -> int:
    return page.locator("article.claim:visible").count()


def _click(page, name: str, value: str) -> None:
    page.locator(f'button.filter[data-filter="{name}"][data-value="{value}"]').click()


def test_the_page_loads_without_a_console_error(page):
    assert page.title() == "Paper checks"
    assert _visible(page) == len(_records())
    assert page.errors == []


@pytest.mark.parametrize("name,key", [("paper", lambda r: r["paper"]), ("verdict", lambda r: r["verdict"]),
                                      ("severity", severity_key)])
def test_every_filter_shows_as_many_claims_as_the_json_has(page, name, key):
    recs = _records()
    values = page.eval_on_selector_all(f'button.filter[data-filter="{name}"]', "bs => bs.map(b => b.dataset.value)")
    assert values[0] == "all" and len(values) > 2
    for value in values[1:]:
        _click(page, name, value)
        assert _visible(page) == sum(key(r) == value for r in recs), (name, value)
        assert page.locator("#shown").inner_text().startswith(f"{_visible(page)} of {len(recs)}")
    _click(page, name, "all")
    assert _visible(page) == len(recs) and page.errors == []


def test_filters_combine_and_the_search_box_finds_a_claim(page):
    recs = _records()
    _click(page, "paper", "arpit2019")
    _click(page, "verdict", "fails")
    assert _visible(page) == sum(r["paper"] == "arpit2019" and r["verdict"] == "fails" for r in recs)
    _click(page, "paper", "all")
    _click(page, "verdict", "all")
    page.fill("#search", "arpit2019.thm8.eq60_corrected")
    assert _visible(page) == 1
    page.fill("#search", "")
    assert _visible(page) == len(recs) and page.errors == []


def test_every_plot_loads(page):
    with_plots = [r["id"] for r in _records() if r.get("plot")]
    loaded = page.eval_on_selector_all("img.plot", "ims => ims.map(i => i.complete && i.naturalWidth > 0)")
    assert len(loaded) == len(with_plots) and all(loaded)
