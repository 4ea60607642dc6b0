"""`python -m uasdb.watch`: keep the export Hugo's server reads in step with data/ while `make serve` runs.

Polls the record trees four times a second; when a file changes it re-runs the export into a scratch folder and
moves the result into OUT (site/data/generated), keeping OUT/static/pagefind (the search index `make serve`
built once). Hugo's server watches OUT, rebuilds and reloads the browser. When the data has errors the last
good export stays, the problems are printed in the terminal, and `serve_errors` is added to OUT/site.json so
every page shows them (layouts/_partials/serve-errors.html) until they are fixed.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .paths import DATA_DIR
from .export import export_tree

Snapshot = Dict[str, Tuple[int, int]]
# A snapshot of today's records takes about 4 ms, so a quarter-second poll costs little and keeps the wait
# between saving and re-exporting short (make bench measures the whole live edit).
POLL_SECONDS = 0.25


def snapshot(trees: Sequence[Path]) -> Snapshot:
    """Every file's modification time and size: a change to either (or a file added or removed) is an edit."""
    seen: Snapshot = {}
    for tree in trees:
        for path in Path(tree).rglob("*"):
            if path.is_file():
                stat = path.stat()
                seen[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return seen


def _sync(source: Path, target: Path) -> int:
    """Make `target` hold what `source` holds, writing only files whose bytes differ and removing files `source`
    no longer has. Hugo's server rebuilds on every file event, and one edited record changes a handful of the
    API's files, so leaving the rest alone keeps a live edit quick. Returns how many files changed."""
    changed = 0
    if source.is_file():
        data = source.read_bytes()
        if not (target.is_file() and target.read_bytes() == data):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            changed += 1
        return changed
    for path in source.rglob("*"):
        if path.is_file():
            changed += _sync(path, target / path.relative_to(source))
    for path in sorted(target.rglob("*"), reverse=True) if target.is_dir() else []:
        if not (source / path.relative_to(target)).exists():
            shutil.rmtree(path) if path.is_dir() else path.unlink()
            changed += 1
    return changed


def _write_json_in_place(path: Path, payload) -> None:
    # In place, like site.json in refresh(): Hugo's server watches the file itself.
    path.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def refresh(out_dir: Path, data_dirs: Optional[Sequence[Path]] = None) -> List[str]:
    """Export into OUT; returns the problems (empty when the export was written)."""
    out_dir = Path(out_dir)
    captured = io.StringIO()
    with tempfile.TemporaryDirectory(prefix="uasdb-watch-") as scratch:
        fresh = Path(scratch) / "generated"
        with contextlib.redirect_stderr(captured):
            site = export_tree(fresh, data_dirs)
        problems = [line for line in captured.getvalue().splitlines() if line.strip()]
        if site is None:
            site_json = out_dir / "site.json"
            if site_json.is_file():  # keep the last good data, and say what is wrong on every page
                payload = json.loads(site_json.read_text(encoding="utf-8"))
                payload["serve_errors"] = problems
                _write_json_in_place(site_json, payload)
            return problems or ["export refused the data (run `uasdb validate`)"]
        (out_dir / "static").mkdir(parents=True, exist_ok=True)
        for item in (fresh / "static").iterdir():
            if item.name != "pagefind":
                _sync(item, out_dir / "static" / item.name)
        # Written in place, not renamed over: Hugo's server watches site.json itself, and a rename replaces the
        # file it watches, so the change would wait for its next full rebuild.
        _sync(fresh / "site.json", out_dir / "site.json")
    return []


def watch(out_dir: Path, data_dirs: Sequence[Path], interval: float = POLL_SECONDS, once: bool = False) -> int:
    trees = [Path(d) for d in data_dirs]
    last = snapshot(trees)
    print(f"watching {', '.join(str(t) for t in trees)} for changes (re-exports into {out_dir})", flush=True)
    while True:
        time.sleep(interval)
        now = snapshot(trees)
        if now == last:
            continue
        last = now
        problems = refresh(out_dir, trees)
        stamp = time.strftime("%H:%M:%S")
        if problems:
            print(f"{stamp} data changed: NOT exported, the site keeps the last good data and shows these:", file=sys.stderr)
            for line in problems:
                print(f"  {line}", file=sys.stderr)
            sys.stderr.flush()
        else:
            print(f"{stamp} data changed: exported again; the browser reloads", flush=True)
        if once:
            return 1 if problems else 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.watch", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the export folder Hugo's server reads")
    parser.add_argument("--data", type=Path, action="append", help="record trees to watch (default: data/)")
    parser.add_argument("--interval", type=float, default=POLL_SECONDS, help="seconds between polls")
    args = parser.parse_args(argv)
    try:
        return watch(args.out, args.data or [DATA_DIR], args.interval)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
