"""Record text is data, never markup: hostile names, notes and links render as inert text, the CSP forbids
inline script, and no page makes a request to another origin."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

HOSTILE_PAGES = ["/adapters/fixture-hostile/", "/adapters/fixture-hostile-markdown/", "/naughty/", "/adapters/",
                 "/usb/abcd/1234/", "/"]


@pytest.mark.parametrize("path", HOSTILE_PAGES)
def test_hostile_record_text_is_inert(watched_page, path):
    page = watched_page
    page.goto(path)
    if path == "/":
        page.get_by_role("searchbox").fill("Hostile")  # search results carry the hostile name too
        page.locator(".search-status").filter(has_text="result").wait_for()
    # Whatever ran on load (an injected handler, a script's work) has run, and its result is painted.
    page.wait_for_load_state("load")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("window.__xss") is None
    assert page.problems == []  # no alert dialog, no errors
    # The only script is our fingerprinted bundle; no injected element exists.
    scripts = page.locator("script").evaluate_all("els => els.map(e => e.src)")
    assert len(scripts) == 1 and re.search(r"/js/main\.[0-9a-f]+\.js$", scripts[0])
    assert page.locator("img, iframe, svg[onload], [onerror], [onload]").count() == 0
    hrefs = page.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert not [h for h in hrefs if h.strip().lower().startswith(("javascript:", "data:", "vbscript:"))]


def test_hostile_name_shows_as_text(watched_page, site):
    page = watched_page
    page.goto("/adapters/fixture-hostile/")
    assert page.locator("h1").inner_text() == site.adapter("fixture-hostile")["name"]
    assert "<script>window.__xss=3</script>" in page.locator("#facts ~ dl.facts").inner_text()
    assert "</pre><script>window.__xss=10</script>" in page.locator("#report-1 + tr pre").text_content()


def test_unsafe_markdown_is_dropped_or_defused(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-hostile-markdown/")
    notes = page.locator("#facts ~ .md")
    assert "click me" in notes.inner_text()  # the link text stays, as text
    assert notes.locator("a").count() == 0
    report_notes = page.locator("#report-1 + tr .md")
    assert "report link" in report_notes.inner_text() and report_notes.locator("a").count() == 0


@pytest.mark.parametrize("path", ["/", "/adapters/fixture-naughty-jms/", "/naughty/", "/404.html"])
def test_csp_forbids_inline_script_and_other_origins(site, path):
    html = (site.public / path.strip("/") / ("" if path.endswith(".html") else "index.html")).read_text()
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"
    assert "unsafe-inline" not in csp and "http" not in csp
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script found"
    assert not re.search(r"<[a-zA-Z][^<>]*\son[a-z]+\s*=", html), "inline event handler found"


def test_assets_are_fingerprinted_with_sri(site):
    html = (site.public / "index.html").read_text()
    for tag in re.findall(r"<(?:link rel=\"?stylesheet|script)[^>]+>", html):
        assert re.search(r'integrity="sha384-[A-Za-z0-9+/=]+"', tag), tag
        assert re.search(r"\.[0-9a-f]{64,}\.(css|js)", tag), tag
