"""What one edit rewrites under `make serve`: the files, and their bytes, that the watcher writes again after one
record's edit (a name or a note, as bench_live.EDITS makes them), counted at the file system: the watcher writes a
file by renaming a new one over it, so a file written again has a new inode (publish/watch.py, `_replace`).

`python -m uasdb.tools.bench_edit [--data TREE] [--edit name|note] [--adapter ID]` prints how many files and bytes
the edit rewrote, by kind of file. Without --adapter it edits the first adapter the edit applies to.
"""
from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..paths import DATA_DIR
from ..publish.watch import State, refresh
from .bench_live import EDITS, _editable


def _stamps(out: Path) -> dict[str, tuple[int, int, int]]:
    return {p.relative_to(out).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns, p.stat().st_size)
            for p in out.rglob("*") if p.is_file()}


def kind_of(path: str) -> str:
    """A file's kind: its path with the part that names one entity as *, e.g. api/v1/adapters/*.json."""
    path = re.sub(r"^(api/v1|static/api/v1)/(adapters|chipsets|buy)/[^/]+\.json$", r"\1/\2/*.json", path)
    return re.sub(r"^(api/v1|static/api/v1)/(usb|ids)/[^/]+/[^/]+\.json$", r"\1/\2/*/*.json", path)


def measure_edit(data: Path, work: Path, edit: str = "name", adapter: str | None = None) -> dict[str, Any]:
    """Export a copy of `data` as the watcher does, make one edit, export again: which files were written again."""
    copy = work / "data"
    shutil.copytree(data, copy, ignore=shutil.ignore_patterns("*.md"))
    out = work / "generated"
    state = State()  # holds the envelope's time of the first export, so only what the edit changed differs
    problems = refresh(out, [copy], state)
    if problems:
        raise RuntimeError("the export refused the records: " + "; ".join(problems[:3]))
    change = EDITS[edit]
    records = sorted((copy / "adapters").glob("*.yaml"))
    record = next((p for p in records if (adapter is None or p.stem == adapter) and _editable(p, change)), None)
    if record is None:
        raise RuntimeError(f"no adapter record to make a {edit} edit in" + (f" named {adapter}" if adapter else ""))
    before = _stamps(out)
    record.write_text(change(record.read_text(encoding="utf-8"), "edited-by-bench"), encoding="utf-8")
    problems = refresh(out, [copy], state)
    if problems:
        raise RuntimeError("the edited record was refused: " + "; ".join(problems[:3]))
    after = _stamps(out)
    rewritten: list[str] = sorted({p for p, stamp in after.items() if before.get(p, (None,))[:2] != stamp[:2]}
                                  | (set(before) - set(after)))
    by_kind: Counter = Counter()
    size: Counter = Counter()
    for path in rewritten:
        by_kind[kind_of(path)] += 1
        size[kind_of(path)] += after.get(path, (0, 0, 0))[2]
    return {"edit": edit, "adapter": record.stem, "files": len(rewritten), "of_files": len(after),
            "bytes": sum(size.values()), "of_bytes": sum(s for _, _, s in after.values()), "rewritten": rewritten,
            "by_kind": {kind: (by_kind[kind], size[kind]) for kind in sorted(by_kind, key=lambda k: -size[k])}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.tools.bench_edit", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="the record tree (default: data/)")
    parser.add_argument("--edit", choices=sorted(EDITS), default="name")
    parser.add_argument("--adapter", help="the adapter to edit (default: the first one the edit applies to)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="uasdb-bench-edit-") as work:
        try:
            result = measure_edit(args.data, Path(work), args.edit, args.adapter)
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    print(f"a {result['edit']} edit of {result['adapter']} rewrote {result['files']} of {result['of_files']} files, "
          f"{result['bytes'] / 1e6:.2f} of {result['of_bytes'] / 1e6:.1f} MB:")
    for kind, (count, size) in result["by_kind"].items():
        print(f"  {count:6d} {size / 1e6:9.3f} MB  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
