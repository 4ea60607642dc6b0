"""Search latency and bytes in Chromium, on a built site: the figures `uasdb bench` reports.

Loads the home page, types a query into the search box, and measures in the page itself the time from the
last keystroke to the first rendered result, and (through the DevTools protocol) the bytes transferred for
that first query, counted from navigation: Pagefind's script, WASM, index chunks and fragments, whether the
page fetched them before or after the first keystroke. Figures only; nothing is asserted.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict

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


def measure_search(public: Path, query: str = "JMS578") -> Dict[str, float]:
    from playwright.sync_api import sync_playwright

    server = LoopbackServer(public).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            cdp = page.context.new_cdp_session(page)
            cdp.send("Network.enable")
            # Count Pagefind's bytes from navigation on: the page may fetch them before the first keystroke.
            urls: Dict[str, str] = {}
            transferred = {"bytes": 0.0}
            cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
            cdp.on("Network.loadingFinished", lambda event: transferred.__setitem__(
                "bytes", transferred["bytes"] + (event["encodedDataLength"] if "/pagefind/" in urls.get(event["requestId"], "") else 0)))
            page.goto(server.url + "/", wait_until="networkidle")
            page.evaluate(_WATCH)
            page.click('form[data-search] input[type="search"]')
            page.keyboard.type(query, delay=40)
            page.wait_for_function("() => window.__bench.results > 0", timeout=30000)
            page.wait_for_load_state("networkidle")
            timing = page.evaluate("() => window.__bench")
            browser.close()
    finally:
        server.stop()
    return {"search_ms": round(timing["results"] - timing["lastKey"], 1),
            "search_kb": round(transferred["bytes"] / 1024, 1),
            "search_query": query}
