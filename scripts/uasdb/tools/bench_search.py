"""Search latency and bytes, and the check page's bytes, in Chromium on a built site: figures `uasdb bench` reports.

The site is served as GitHub Pages serves it (PagesHandler: text gzip-compressed, `Cache-Control: max-age=600`),
and every request is counted at the server, with the bytes it sent: Pagefind fetches its index from a Web Worker,
whose requests the page's DevTools session never sees. measure_search times three first queries (a USB ID, a
product, a chip), each twice: cold, opened as a link (`/?q=…`) with an empty cache, counting everything from
navigation to the results; and warm, typed into the home page's box once the page is idle, counting what the query
fetched after idle and the time from the last keystroke to the first rendered result. measure_check pastes two
IDs into /check/ and counts every byte the page fetched from navigation to the result. Figures only; nothing is
asserted.
"""
from __future__ import annotations

import contextlib
import email.utils
import gzip
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..publish.sitebuild import LoopbackServer, SiteHandler

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# What GitHub Pages compresses (text); Pagefind's index files are gzip already and go as they are.
COMPRESSED_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".csv", ".txt", ".py", ".yaml", ".md"}
# The first queries the bench times: a USB ID, a product and a chip (all in the real data).
QUERIES = {"id": "152d:0578", "product": "Samsung T7", "chip": "JMS583"}


class PagesHandler(SiteHandler):
    """SiteHandler as GitHub Pages sends: text gzip-compressed when the client accepts it, cached for ten
    minutes, and each request's path and body bytes recorded on `counter` (a PagesServer)."""

    counter: PagesServer

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            return super().do_GET()  # the 404 page: send_error counts it
        body = path.read_bytes()
        encoding = None
        if path.suffix in COMPRESSED_SUFFIXES and "gzip" in self.headers.get("Accept-Encoding", ""):
            body, encoding = gzip.compress(body, 6, mtime=0), "gzip"
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=600")
        self.send_header("Last-Modified", email.utils.formatdate(path.stat().st_mtime, usegmt=True))
        if encoding:
            self.send_header("Content-Encoding", encoding)
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)
        self.counter.record(self.path, len(body))

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        self.counter.record(self.path, len(gzip.compress(page.read_bytes(), 6)) if code == 404 and page.exists() else 0)
        super().send_error(code, message, explain)


class PagesServer(LoopbackServer):
    """A loopback server for a built site that sends what GitHub Pages sends and counts it: `requests` holds
    (path, body bytes) for every request, in the order they were answered."""

    def __init__(self, root: Path):
        self.requests: list[tuple[str, int]] = []
        self.lock = threading.Lock()
        handler = type("CountedPagesHandler", (PagesHandler,), {"counter": self})
        super().__init__(root, handler)

    def record(self, path: str, size: int) -> None:
        with self.lock:
            self.requests.append((path, size))


def pages_server(public: Path) -> PagesServer:
    return PagesServer(public)


# Records the time of the last keydown and of the first result the search renders after it (results for the words
# typed so far may show before the query is whole).
_WATCH = """() => {
  window.__bench = {lastKey: 0, results: 0};
  const input = document.querySelector('form[data-search] input[type="search"]');
  input.addEventListener('keydown', () => { window.__bench.lastKey = performance.now(); window.__bench.results = 0; });
  const list = document.querySelector('form[data-search] [data-results]');
  new MutationObserver(() => {
    if (list.children.length && !window.__bench.results) window.__bench.results = performance.now();
  }).observe(list, {childList: true});
}"""


@contextlib.contextmanager
def _browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _settle(server: PagesServer, quiet: float = 0.5, timeout: float = 30.0) -> None:
    """Wait until the server has had no request for `quiet` seconds (the page and its worker are idle)."""
    started = time.monotonic()
    count, since = len(server.requests), time.monotonic()
    while time.monotonic() - started < timeout:
        time.sleep(0.05)
        if len(server.requests) != count:
            count, since = len(server.requests), time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def _kb(requests: list[tuple[str, int]]) -> float:
    return round(sum(size for _, size in requests) / 1024, 1)


def _first_result(page: Any) -> None:
    page.wait_for_function(
        "() => document.querySelector('form[data-search] [data-results]')?.children.length > 0", timeout=30000)


def measure_query(browser: Any, server: PagesServer, query: str) -> dict[str, Any]:
    """One query, cold (a link to /?q=…, empty cache) and warm (typed once the home page is idle)."""
    requests = server.requests
    context = browser.new_context()
    page = context.new_page()
    del requests[:]
    started = time.monotonic()
    page.goto(f"{server.url}/?q={query}")
    _first_result(page)
    cold_ms = (time.monotonic() - started) * 1000
    _settle(server)
    cold = list(requests)
    context.close()

    context = browser.new_context()
    page = context.new_page()
    del requests[:]
    page.goto(server.url + "/", wait_until="networkidle")
    _settle(server)
    idle = list(requests)
    del requests[:]
    page.evaluate(_WATCH)
    page.click('form[data-search] input[type="search"]')
    page.keyboard.type(query, delay=40)
    page.wait_for_function("() => window.__bench.results > 0", timeout=30000)
    timing = page.evaluate("() => window.__bench")
    _settle(server)
    warm = list(requests)
    context.close()
    return {"cold_kb": _kb(cold), "cold_requests": len(cold), "cold_ms": round(cold_ms),
            "idle_kb": _kb(idle), "warm_kb": _kb(warm), "warm_requests": len(warm),
            "warm_ms": round(timing["results"] - timing["lastKey"], 1),
            "warm_files": sorted(urlsplit(path).path.rsplit("/", 1)[-1] for path, _ in warm)}


def _api(public: Path, name: str) -> Any:
    return json.loads((public / "api" / "v1" / name).read_text(encoding="utf-8"))["result"]


def site_queries(public: Path) -> dict[str, str]:
    """QUERIES, each kept when the site has it (the real data does), else one of the site's own (a synthetic one):
    the first ID a product reports, the first two words of the first adapter's name, the first chip with adapters."""
    rows = _api(public, "adapter-rows.json")
    vid, pid = QUERIES["id"].split(":")
    chips = [c for c in _api(public, "chipsets.json") if c["adapters"]]
    return {
        "id": QUERIES["id"] if (public / "usb" / vid / pid).is_dir() else _two_ids(public)[0],
        "product": QUERIES["product"] if any(QUERIES["product"] in r["name"] for r in rows)
        else " ".join(rows[0]["name"].split()[:2]),
        "chip": QUERIES["chip"] if any(c["name"] == QUERIES["chip"] for c in chips) else chips[0]["name"],
    }


def measure_search(public: Path, queries: dict[str, str] | None = None, browser: Any = None) -> dict[str, object]:
    """Each query's figures (search_<kind>_<figure>), and the worst warm query's as search_ms and search_kb (the
    targets: <= 300 ms from the last key to the first result, <= 150 KB fetched after the page is idle). In
    `browser` when given (each query opens contexts of its own), else in a Chromium started for it."""
    queries = queries or site_queries(public)
    figures: dict[str, object] = {}
    server = pages_server(public)
    server.start()
    try:
        with (contextlib.nullcontext(browser) if browser is not None else _browser()) as browser:
            for kind, query in queries.items():
                measured = measure_query(browser, server, query)
                figures[f"search_{kind}_query"] = query
                for key, value in measured.items():
                    if key != "warm_files":
                        figures[f"search_{kind}_{key}"] = value
    finally:
        server.stop()
    figures["search_ms"] = max(float(str(figures[f"search_{kind}_warm_ms"])) for kind in queries)
    figures["search_kb"] = max(float(str(figures[f"search_{kind}_warm_kb"])) for kind in queries)
    figures["search_query"] = ", ".join(queries.values())
    return figures


def main() -> int:
    """`python -m uasdb.tools.bench_search PUBLIC`: print the search figures of a built site."""
    import sys
    public = Path(sys.argv[1] if len(sys.argv) > 1 else "public")
    server = pages_server(public)
    server.start()
    try:
        with _browser() as browser:
            for kind, query in site_queries(public).items():
                print(kind, query, json.dumps(measure_query(browser, server, query)))
    finally:
        server.stop()
    return 0


def _two_ids(public: Path) -> list[str]:
    """Two IDs that products report (the first two in /api/v1/usb.json), as a user's lsusb would print them."""
    rows = json.loads((public / "api" / "v1" / "usb.json").read_text(encoding="utf-8"))["result"]
    return [r["key"] for r in rows if r["products"]][:2]


def measure_check(public: Path, browser: Any = None) -> dict[str, object]:
    """Every byte /check/ fetches from navigation to the result of a two-ID paste, counted at the server as
    GitHub Pages sends it (gzip for HTML, CSS, JS and JSON). In `browser` when given (in a context of its own)."""
    ids = _two_ids(public)
    paste = "\n".join(f"Bus 002 Device 00{n + 2}: ID {key} Mass Storage" for n, key in enumerate(ids))
    server = pages_server(public)
    server.start()
    try:
        with (contextlib.nullcontext(browser) if browser is not None else _browser()) as browser:
            context = browser.new_context()  # an empty cache, as a first visit has
            page = context.new_page()
            page.goto(server.url + "/check/", wait_until="networkidle")
            page.locator("#check-paste").fill(paste)
            page.get_by_role("button", name="Check").click()
            page.locator(".check-status").filter(has_text="Found").wait_for(timeout=30000)
            _settle(server)
            fetched = list(server.requests)
            context.close()
    finally:
        server.stop()
    return {"check_two_ids_kb": _kb(fetched), "check_two_ids_requests": len(fetched), "check_two_ids": " ".join(ids)}


if __name__ == "__main__":
    raise SystemExit(main())
