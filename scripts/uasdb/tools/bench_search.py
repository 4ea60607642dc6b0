"""Search latency and bytes, and the check page's bytes, in Chromium on a built site: figures `uasdb bench` reports.

Loads the home page, types a query into the search box, and measures in the page itself the time from the
last keystroke to the first rendered result, and (through the DevTools protocol) the bytes transferred for
that first query, counted from navigation: Pagefind's script, WASM, index chunks and fragments, whether the
page fetched them before or after the first keystroke. measure_check pastes two IDs into /check/ and counts
every byte the page fetched from navigation to the result (HTML, CSS, JS and the ID files it looks up).
Figures only; nothing is asserted.
"""
from __future__ import annotations

import contextlib
import gzip
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple
from urllib.parse import urlsplit

from ..publish.sitebuild import LoopbackServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# Records the time of the last keydown and of the first result the search renders.
_WATCH = """() => {
  window.__bench = {lastKey: 0, results: 0};
  const input = document.querySelector('form[data-search] input[type="search"]');
  input.addEventListener('keydown', () => { window.__bench.lastKey = performance.now(); });
  const list = document.querySelector('form[data-search] [data-results]');
  new MutationObserver(() => {
    if (list.children.length && !window.__bench.results) window.__bench.results = performance.now();
  }).observe(list, {childList: true});
}"""


@contextlib.contextmanager
def _recorded_page(public: Path) -> Iterator[Tuple[Any, str, List[Tuple[str, float]]]]:
    """A Chromium page on a loopback server for `public`, and the list it fills with (url, bytes on the wire) for
    every request the page finishes, counted from navigation on (through the DevTools protocol)."""
    from playwright.sync_api import sync_playwright

    server = LoopbackServer(public).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Network.enable")
            urls: Dict[str, str] = {}
            fetched: List[Tuple[str, float]] = []
            cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
            cdp.on("Network.loadingFinished", lambda event: fetched.append(
                (urls.get(event["requestId"], ""), event["encodedDataLength"])))
            try:
                yield page, server.url, fetched
            finally:
                browser.close()
    finally:
        server.stop()


def measure_search(public: Path, query: str = "JMS578") -> Dict[str, float]:
    # Pagefind's bytes count from navigation on: the page may fetch them before the first keystroke.
    with _recorded_page(public) as (page, url, fetched):
        page.goto(url + "/", wait_until="networkidle")
        page.evaluate(_WATCH)
        page.click('form[data-search] input[type="search"]')
        page.keyboard.type(query, delay=40)
        page.wait_for_function("() => window.__bench.results > 0", timeout=30000)
        page.wait_for_load_state("networkidle")
        timing = page.evaluate("() => window.__bench")
    transferred = sum(size for fetched_url, size in fetched if "/pagefind/" in fetched_url)
    return {"search_ms": round(timing["results"] - timing["lastKey"], 1),
            "search_kb": round(transferred / 1024, 1),
            "search_query": query}


def _two_ids(public: Path) -> List[str]:
    """Two IDs that products report (the first two in /api/v1/usb.json), as a user's lsusb would print them."""
    rows = json.loads((public / "api" / "v1" / "usb.json").read_text(encoding="utf-8"))["result"]
    return [r["key"] for r in rows if r["products"]][:2]


def _gzip_size(public: Path, url: str) -> int:
    """What GitHub Pages would send for a file of the site: its gzip size (the loopback server sends it raw)."""
    path = urlsplit(url).path
    file = public / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    return len(gzip.compress(file.read_bytes(), 6)) if file.is_file() else 0


def measure_check(public: Path) -> Dict[str, object]:
    """Every byte /check/ fetches from navigation to the result of a two-ID paste: as sent here (raw) and as
    gzip, which GitHub Pages uses for HTML, CSS, JS and JSON."""
    ids = _two_ids(public)
    paste = "\n".join(f"Bus 002 Device 00{n + 2}: ID {key} Mass Storage" for n, key in enumerate(ids))
    with _recorded_page(public) as (page, url, fetched):
        page.goto(url + "/check/", wait_until="networkidle")
        page.locator("#check-paste").fill(paste)
        page.get_by_role("button", name="Check").click()
        page.locator(".check-status").filter(has_text="Found").wait_for(timeout=30000)
        page.wait_for_load_state("networkidle")
    return {"check_two_ids_kb": round(sum(_gzip_size(public, url) for url, _ in fetched) / 1024, 1),
            "check_two_ids_raw_kb": round(sum(size for _, size in fetched) / 1024, 1),
            "check_two_ids_requests": len(fetched), "check_two_ids": " ".join(ids)}
