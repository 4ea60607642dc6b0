"""Site budgets, measured and printed (never asserted): `make bench-site`.

  page weight   HTML + CSS of a page, gzip-compressed as a server sends it, before search is used
                (budget: adapter page <= 30 KB); the deferred script is listed separately
  Lighthouse    scores of the home page, an adapter page and the naughty list (budget: >= 95 in every
                category), via `npx --yes lighthouse@12` driving Debian's Chromium

Usage: python -m uasdb.tools.bench_site [--site public] [--adapter ID] [--no-lighthouse]
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Dict, List, Optional

from ..publish.sitebuild import LoopbackServer

WEIGHT_BUDGET = 30 * 1024
SCORE_BUDGET = 95
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking"


def _fetch(url: str) -> bytes:
    return urllib.request.urlopen(url, timeout=30).read()


def page_weight(base: str, path: str) -> Dict[str, int]:
    html = _fetch(base + path)
    css = [_fetch(base + href) for href in re.findall(r'<link rel="?stylesheet"? href="?([^" >]+)', html.decode())]
    js = [_fetch(base + src) for src in re.findall(r'<script[^>]+src="?([^" >]+)', html.decode())]
    gz = lambda data: len(gzip.compress(data, 6))  # noqa: E731  (level 6: what web servers use by default)
    return {"html": gz(html), "css": sum(gz(c) for c in css), "js": sum(gz(j) for j in js),
            "raw": len(html) + sum(len(c) for c in css)}


def lighthouse(url: str) -> Optional[Dict[str, int]]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = ["npx", "--yes", "lighthouse@12", url, "--output=json", f"--output-path={report}", "--quiet",
                   "--only-categories=performance,accessibility,best-practices,seo", f"--chrome-flags={CHROME_FLAGS}"]
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROME}, capture_output=True, text=True,
                              timeout=600)
        if done.returncode != 0 or not report.exists():
            print(f"  lighthouse failed on {url}: {done.stderr.strip()[-500:]}", file=sys.stderr)
            return None
        categories = json.loads(report.read_text())["categories"]
        return {name: round(c["score"] * 100) for name, c in categories.items() if c["score"] is not None}


def measured_pages(adapter: str) -> Dict[str, str]:
    """The pages each user of the site lands on: home, an adapter, the naughty list, what to buy, the check page."""
    return {"home": "/", "adapter": f"/adapters/{adapter}/", "naughty": "/naughty/", "buy": "/buy/pi5/", "check": "/check/"}


def measure_real_site(public: Optional[Path] = None, with_lighthouse: bool = True) -> Dict[str, object]:
    """Weights (gzip KB of HTML+CSS) and Lighthouse scores of the home, an adapter and the naughty page,
    keyed for the benchmark report."""
    from ..paths import REPO_ROOT
    public = public or REPO_ROOT / "public"
    adapters = json.loads((public / "api/v1/adapters.json").read_text())["result"]
    adapter = max(adapters, key=lambda a: (len(a["reports"]), a["id"]))["id"]
    pages = measured_pages(adapter)
    figures: Dict[str, object] = {"measured_adapter_page": pages["adapter"]}
    server = LoopbackServer(public).start()
    try:
        for name, path in pages.items():
            w = page_weight(server.url, path)
            figures[f"{name}_page_kb"] = round((w["html"] + w["css"]) / 1024, 1)
            if with_lighthouse:
                for category, score in (lighthouse(server.url + path) or {}).items():
                    figures[f"lighthouse {name} {category}"] = score
    finally:
        server.stop()
    return figures


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="public", help="built site (make site)")
    parser.add_argument("--adapter", help="adapter id to measure (default: the one with the most reports)")
    parser.add_argument("--no-lighthouse", action="store_true")
    args = parser.parse_args(argv)
    public = Path(args.site)
    if not (public / "index.html").exists():
        print(f"{public}/index.html not found: run `make site` first", file=sys.stderr)
        return 1
    adapters = json.loads((public / "api/v1/adapters.json").read_text())["result"]
    if not adapters:
        print("the site has no adapters to measure", file=sys.stderr)
        return 1
    adapter = args.adapter or max(adapters, key=lambda a: (len(a["reports"]), a["id"]))["id"]
    pages = measured_pages(adapter)
    server = LoopbackServer(public).start()
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
            print(f"Lighthouse 12 (budget: >= {SCORE_BUDGET} in every category)")
            for name, path in pages.items():
                scores = lighthouse(server.url + path)
                if scores is None:
                    failed = True
                    continue
                low = [k for k, v in scores.items() if v < SCORE_BUDGET]
                print(f"  {name:8} " + "  ".join(f"{k} {v}" for k, v in scores.items()) + ("  [below: " + ", ".join(low) + "]" if low else "  [ok]"))
    finally:
        server.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
