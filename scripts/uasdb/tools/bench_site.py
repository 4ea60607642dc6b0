"""Site budgets, measured and printed (never asserted): `make bench-site`.

  page weight   HTML + CSS of a page, gzip-compressed as a server sends it, before search is used
                (budget: adapter page <= 30 KB); the deferred script is listed separately
  Lighthouse    scores (budget: >= 95 in every category) and cumulative layout shift (budget: <= 0.05) of ten
                pages, mobile and desktop, the median of --runs runs, via `npx --yes lighthouse@12` driving
                Debian's Chromium against the site served as GitHub Pages serves it (gzip; bench_search.PagesHandler)

Usage: python -m uasdb.tools.bench_site [--site public] [--adapter ID] [--runs N] [--only PAGE,...] [--no-lighthouse]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from .bench_search import pages_server

WEIGHT_BUDGET = 30 * 1024
SCORE_BUDGET = 95
CLS_BUDGET = 0.05
FORM_FACTORS = ("mobile", "desktop")
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking"


def _fetch(url: str) -> bytes:
    return urllib.request.urlopen(url, timeout=30).read()


def page_weight(base: str, path: str) -> dict[str, int]:
    html = _fetch(base + path)
    css = [_fetch(base + href) for href in re.findall(r'<link rel="?stylesheet"? href="?([^" >]+)', html.decode())]
    js = [_fetch(base + src) for src in re.findall(r'<script[^>]+src="?([^" >]+)', html.decode())]
    gz = lambda data: len(gzip.compress(data, 6))  # noqa: E731  (level 6: what web servers use by default)
    return {"html": gz(html), "css": sum(gz(c) for c in css), "js": sum(gz(j) for j in js),
            "raw": len(html) + sum(len(c) for c in css)}


def lighthouse(url: str, form_factor: str = "mobile") -> dict[str, float] | None:
    """One Lighthouse run: the four category scores (0-100) and the page's cumulative layout shift ("cls")."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = ["npx", "--yes", "lighthouse@12", url, "--output=json", f"--output-path={report}", "--quiet",
                   "--only-categories=performance,accessibility,best-practices,seo", f"--chrome-flags={CHROME_FLAGS}"]
        if form_factor == "desktop":
            command.append("--preset=desktop")
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROME}, capture_output=True, text=True,
                              timeout=600)
        if done.returncode != 0 or not report.exists():
            print(f"  lighthouse failed on {url}: {done.stderr.strip()[-500:]}", file=sys.stderr)
            return None
        result = json.loads(report.read_text())
        scores: dict[str, float] = {name: round(c["score"] * 100) for name, c in result["categories"].items()
                                    if c["score"] is not None}
        scores["cls"] = round(result["audits"]["cumulative-layout-shift"]["numericValue"], 3)
        return scores


def lighthouse_median(url: str, form_factor: str, runs: int) -> dict[str, float] | None:
    """The median of `runs` Lighthouse runs, figure by figure."""
    done = [r for r in (lighthouse(url, form_factor) for _ in range(runs)) if r]
    if not done:
        return None
    return {key: statistics.median(r[key] for r in done if key in r) for key in done[0]}


def measured_pages(adapter: str) -> dict[str, str]:
    """The pages each user of the site lands on: home, an adapter, the long lists, what to buy, a USB ID, the
    chips, the check page and the quirk builder."""
    return {"home": "/", "adapter": f"/adapters/{adapter}/", "adapters": "/adapters/", "check": "/check/",
            "naughty": "/naughty/", "nice": "/nice/", "buy": "/buy/pi5/", "usb": "/usb/152d/0578/",
            "chipsets": "/chipsets/", "quirks": "/quirks/"}


def measure_real_site(public: Path | None = None, with_lighthouse: bool = True, runs: int = 3) -> dict[str, object]:
    """Weights (gzip KB of HTML+CSS) of every measured page, and their Lighthouse scores and layout shift, mobile
    and desktop (the median of `runs`), keyed for the benchmark report."""
    from ..paths import REPO_ROOT
    public = public or REPO_ROOT / "public"
    pages = _pages(public, None)
    figures: dict[str, object] = {"measured_adapter_page": pages["adapter"]}
    server = pages_server(public)
    server.start()
    try:
        for name, path in pages.items():
            w = page_weight(server.url, path)
            figures[f"{name}_page_kb"] = round((w["html"] + w["css"]) / 1024, 1)
            if with_lighthouse:
                for form_factor in FORM_FACTORS:
                    for key, value in (lighthouse_median(server.url + path, form_factor, runs) or {}).items():
                        figures[f"{'cls' if key == 'cls' else 'lighthouse'} {name} {form_factor}{'' if key == 'cls' else ' ' + key}"] = value
    finally:
        server.stop()
    return figures


def _pages(public: Path, adapter: str | None) -> dict[str, str]:
    adapters = json.loads((public / "api/v1/adapter-rows.json").read_text())["result"]
    if not adapter:
        full = json.loads((public / "api/v1/adapters.json").read_text())["result"] if (public / "api/v1/adapters.json").exists() else []
        adapter = max(full, key=lambda a: (len(a["reports"]), a["id"]))["id"] if full else adapters[0]["id"]
    pages = measured_pages(adapter)
    return {name: path for name, path in pages.items() if (public / path.lstrip("/") / "index.html").exists()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="public", help="built site (make site)")
    parser.add_argument("--adapter", help="adapter id to measure (default: the one with the most reports)")
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page and form factor (the median is printed)")
    parser.add_argument("--only", help="comma-separated page names to measure (default: all): " + ", ".join(measured_pages("ID")))
    parser.add_argument("--no-lighthouse", action="store_true")
    args = parser.parse_args(argv)
    public = Path(args.site)
    if not (public / "index.html").exists():
        print(f"{public}/index.html not found: run `make site` first", file=sys.stderr)
        return 1
    if not json.loads((public / "api/v1/adapter-rows.json").read_text())["result"]:
        print("the site has no adapters to measure", file=sys.stderr)
        return 1
    pages = _pages(public, args.adapter)
    if args.only:
        pages = {name: path for name, path in pages.items() if name in args.only.split(",")}
    server = pages_server(public)
    server.start()
    failed = False
    try:
        print(f"page weight, gzip (budget: adapter page HTML+CSS <= {WEIGHT_BUDGET // 1024} KB)")
        for name, path in pages.items():
            w = page_weight(server.url, path)
            total = w["html"] + w["css"]
            mark = "ok" if total <= WEIGHT_BUDGET else "OVER"
            print(f"  {name:8} {path:40} HTML {w['html'] / 1024:5.1f} KB + CSS {w['css'] / 1024:4.1f} KB = "
                  f"{total / 1024:5.1f} KB [{mark}]  (uncompressed {w['raw'] / 1024:.1f} KB; deferred JS {w['js'] / 1024:.1f} KB)")
        if not args.no_lighthouse:
            print(f"Lighthouse 12, served gzip, median of {args.runs} (budget: >= {SCORE_BUDGET} in every category, CLS <= {CLS_BUDGET})")
            for name, path in pages.items():
                for form_factor in FORM_FACTORS:
                    scores = lighthouse_median(server.url + path, form_factor, args.runs)
                    if scores is None:
                        failed = True
                        continue
                    low = [k for k, v in scores.items() if (v > CLS_BUDGET if k == "cls" else v < SCORE_BUDGET)]
                    print(f"  {name:8} {form_factor:7} " + "  ".join(f"{k} {v}" for k, v in scores.items())
                          + ("  [below: " + ", ".join(low) + "]" if low else "  [ok]"), flush=True)
    finally:
        server.stop()
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
