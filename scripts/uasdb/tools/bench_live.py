"""How long a contributor waits, under `make serve`, between saving a record and seeing the change on its page.

Runs what `make serve` runs on a copy of the records: the watcher (uasdb.publish.watch, with the interval `make serve`
uses) re-exporting into a staged site, and Hugo's server reading it. Then it edits one adapter's name, polls that
adapter's page over HTTP until the new name is served, and puts the edit back. The figure is the median of a few
edits, from the moment the file is written to the first response that shows it.
"""
from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from ..publish.export import export_tree
from ..publish.sitebuild import hugo_binary, stage_site
from ..publish.watch import POLL_SECONDS as SERVE_INTERVAL  # the watcher's poll, as `make serve` runs it


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except (urllib.error.URLError, http.client.HTTPException, OSError):
        return None   # not up yet, or the server rebuilt the page while sending it: ask again


def _wait_for(url: str, text: str, timeout: float, present: bool = True) -> float | None:
    """Seconds until the page at `url` contains `text` (or, with present=False, is served without it), polling
    every 20 ms; None on timeout."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        body = _get(url)
        if body is not None and (text in body) == present:
            return time.monotonic() - started
        time.sleep(0.02)
    return None


def _wait_for_line(path: Path, text: str, timeout: float) -> bool:
    """Whether a line containing `text` reaches the log at `path` within `timeout` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if text in path.read_text(encoding="utf-8", errors="replace"):
            return True
        time.sleep(0.1)
    return False


def _wait_for_count(path: Path, text: str, count: int, timeout: float) -> bool:
    """Whether the log at `path` holds `count` lines containing `text` within `timeout` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if path.read_text(encoding="utf-8", errors="replace").count(text) >= count:
            return True
        time.sleep(0.05)
    return False


def _renamed(source: str, marker: str) -> str:
    """The record with `marker` appended to its top-level name (plain or double-quoted YAML scalar)."""
    match = re.search(r'^name: (")?(.*?)(")?$', source, re.M)
    if not match:
        raise ValueError("no top-level `name:` line to edit")
    quote = match.group(1) or ""
    return source[:match.start()] + f"name: {quote}{match.group(2)} {marker}{match.group(3) or ''}" + source[match.end():]


def _noted(source: str, marker: str) -> str:
    """The record with `marker` appended to its first nested note (a report's or a firmware's, plain or folded):
    text only the adapter's page shows, so the edit changes its model and not pages.json."""
    lines = source.split("\n")
    for n, line in enumerate(lines):
        match = re.match(r"^\s+notes: (.*)$", line)
        if not match:
            continue
        value = match.group(1).strip()
        if value in (">", ">-", "|", "|-") and n + 1 < len(lines) and lines[n + 1].strip():
            lines[n + 1] += f" {marker}"
            return "\n".join(lines)
        if value and value[0] not in "'\"&*!>|[{":
            lines[n] += f" {marker}"
            return "\n".join(lines)
    raise ValueError("no nested `notes:` to edit")


# What a live edit changes: an adapter's name (its page, the lists and pages.json) or a note (its model only).
EDITS = {"name": _renamed, "note": _noted}


def measure_live_edit(data: Path, work: Path, edits: int = 3, interval: float = SERVE_INTERVAL,
                      edit: str = "name") -> dict[str, object]:
    """Median seconds from saving an edited record to its page showing the edit, with `make serve`'s setup.
    `edit` is what changes (EDITS): the first adapter's name, or the note of the first adapter that has one."""
    # In a checkout generated_at comes from the last commit touching data/ and stays put between edits; the copy
    # is outside git, so pin it the same way (for the first export here and for the watcher), or every API file
    # would change on every export. The caller's environment is put back afterwards.
    pinned = "SOURCE_DATE_EPOCH" not in os.environ
    if pinned:
        os.environ["SOURCE_DATE_EPOCH"] = str(int(time.time()))
    try:
        return _measure(data, work, edits, interval, EDITS[edit])
    finally:
        if pinned:
            del os.environ["SOURCE_DATE_EPOCH"]


def _editable(path: Path, change: Callable[[str, str], str]) -> bool:
    try:
        change(path.read_text(encoding="utf-8"), "x")
        return True
    except ValueError:
        return False


def _measure(data: Path, work: Path, edits: int, interval: float, change: Callable[[str, str], str]) -> dict[str, object]:
    data_copy = work / "data"
    shutil.copytree(data, data_copy, ignore=shutil.ignore_patterns("*.md"))
    site = stage_site(work)
    generated = site / "data" / "generated"
    if export_tree(generated, [data_copy]) is None:
        raise RuntimeError("the export refused the records (run `uasdb validate`)")
    record = next(path for path in sorted((data_copy / "adapters").glob("*.yaml")) if _editable(path, change))
    adapter_id = record.stem
    port = _free_port()
    url = f"http://127.0.0.1:{port}/adapters/{adapter_id}/"
    log = open(work / "hugo-server.log", "w")   # kept with --keep: which rebuild showed the edit, and when
    watch_log = open(work / "watch.log", "w")   # the watcher's line per export, with the seconds it took
    watcher = subprocess.Popen([sys.executable, "-m", "uasdb.publish.watch", "--out", str(generated), "--data", str(data_copy),
                                "--interval", str(interval), "--server", f"http://127.0.0.1:{port}/"],
                               stdout=watch_log, stderr=subprocess.STDOUT)
    server = subprocess.Popen([hugo_binary(), "server", "--source", str(site), "--bind", "127.0.0.1", "--port", str(port),
                               "--baseURL", f"http://127.0.0.1:{port}/"], stdout=log, stderr=log)
    original = record.read_text(encoding="utf-8")
    seconds: list[float] = []
    try:
        if _wait_for(url, adapter_id, timeout=300) is None:
            raise RuntimeError(f"hugo server never served {url}")
        # The watcher checks the whole tree once at start (as under `make serve`); an edit saved before that ends
        # would be timed with it. It says "watching" when it is ready.
        if not _wait_for_line(work / "watch.log", "watching", timeout=600):
            raise RuntimeError("the watcher never finished its first check (see watch.log)")
        # As under `make serve`, the watcher sets Hugo's server up once it answers (watch.ServerPrimer); an edit
        # saved before that would be timed with the rebuild it causes.
        if not _wait_for_line(work / "watch.log", "Hugo's server is up", timeout=600):
            raise RuntimeError("the watcher never saw Hugo's server (see watch.log)")
        if not _wait_for_line(work / "hugo-server.log", "Total in", timeout=300):  # the rebuild that follows
            raise RuntimeError("hugo server never rebuilt after the watcher set it up (see hugo-server.log)")
        time.sleep(interval * 2)   # let the watcher take its first snapshot
        for n in range(edits):
            marker = f"live-edit-{n}-{int(time.time())}"
            record.write_text(change(original, marker), encoding="utf-8")
            waited = _wait_for(url, marker, timeout=300)
            if waited is None:
                raise RuntimeError(f"the edit never reached {url}")
            seconds.append(waited)
            record.write_text(original, encoding="utf-8")
            # Each edit is timed alone: wait until the page is back to the original (the undo's own export and
            # rebuild), or the next edit would be timed behind the undo. The watcher writes the product's own file
            # first and the rest of the export after, so the page is back before the undo's export is over: wait
            # for the watcher's line for the edit and for the undo too.
            if _wait_for(url, marker, timeout=300, present=False) is None:
                raise RuntimeError(f"undoing the edit never reached {url}")
            if not _wait_for_count(work / "watch.log", "data changed", 2 * (n + 1), timeout=600):
                raise RuntimeError("the watcher never finished exporting the undo (see watch.log)")
            time.sleep(interval * 2)
    finally:
        record.write_text(original, encoding="utf-8")
        for process in (server, watcher):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()
        watch_log.close()
    adapters = sum(1 for _ in (data_copy / "adapters").glob("*.yaml"))
    result = {"live_edit_s": round(statistics.median(seconds), 2), "live_edit_adapters": adapters,
              "live_edit_runs": ", ".join(f"{s:.2f}" for s in seconds)}
    result.update(split_live_edit((work / "watch.log").read_text(encoding="utf-8"),
                                  (work / "hugo-server.log").read_text(encoding="utf-8")))
    return result


def split_live_edit(watch_log: str, hugo_log: str) -> dict[str, float]:
    """Where a live edit's time goes, from the two processes' logs: the watcher's export (its "exported again in
    N s" lines) and Hugo's rebuilds after the export changed (a rebuild whose changes begin with a product's model,
    "Asset changed /api/v1/adapters/", or with the export's data, "Data changed", up to its "Total in N ms"; not
    the one that follows the watcher's priming, which rewrites data/common.json once). Medians over the edits; the
    edit and its undo both count, as both are exports of one changed record. The watcher's first phase (the
    edited product's own file, written before the rest: "page first, in N s") is its own figure."""
    exports = [float(s) for s in re.findall(r"exported again in ([0-9.]+) s", watch_log)]
    firsts = [float(s) for s in re.findall(r"page first, in ([0-9.]+) s", watch_log)]
    if "Hugo's server is up" in watch_log:  # the first data change is the priming, not an edit
        hugo_log = re.sub(r"Data changed /generated/common\.json\n", "", hugo_log, count=1)
    rebuilds = [int(ms) / 1000 for ms in re.findall(r"\n(?:Data changed |Asset changed /api/v1/adapters/)[^\n]*\n"
                                                      r"(?:(?!Change detected)[^\n]*\n)*?Total in (\d+) ms", "\n" + hugo_log)]
    split = {}
    if exports:
        split["live_edit_export_s"] = round(statistics.median(exports), 2)
    if firsts:
        split["live_edit_first_phase_s"] = round(statistics.median(firsts), 3)
    if rebuilds:
        split["live_edit_hugo_s"] = round(statistics.median(rebuilds), 2)
    return split
