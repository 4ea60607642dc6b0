"""What one edit rewrites under `make serve`: the files, and their bytes, that the watcher writes again after one
record's edit (a name or a note, as bench_live.EDITS makes them), counted at the file system: the watcher writes a
file by renaming a new one over it, so a file written again has a new inode (publish/watch.py, `_replace`).

`python -m uasdb.tools.bench_edit [--data TREE] [--edit name|note] [--adapter ID]` prints how many files and bytes
the edit rewrote, by kind of file. Without --adapter it edits the first adapter the edit applies to.

`python -m uasdb.tools.bench_edit --expectations N` measures instead what the expectations step (expectations
and their leave-one-out evaluation, verdicts/) costs at N synthetic products (`uasdb synth`): from scratch, as the
command-line export works it out on a changed tree, and in the watcher's memo (verdicts/expectations_memo.py)
after each kind of edit (a note; an outcome that changes what the product says everywhere, so its chip's products
are decided again; a new record), with the CPU time, the peak memory and how many products were worked out again.
"""
from __future__ import annotations

import argparse
import copy
import gc
import os
import re
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from ..paths import DATA_DIR, walk_files
from ..publish.adapter import BuildCache
from ..publish.export import sources_catalog
from ..publish.watch import State, refresh
from ..records.database import Record, check
from ..verdicts.expectations_memo import Memo
from .bench_live import EDITS, _editable
from .synth import RecordDumper, generate


def _stamps(out: Path) -> dict[str, tuple[int, int, int]]:
    return {relative: (state.st_ino, state.st_mtime_ns, state.st_size)
            for relative, entry in walk_files(out) if entry.is_file() for state in [entry.stat()]}


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


def _edited_tree(records: list[Record], kind: str, folder: Path) -> list[Record]:
    """The records after one edit of an adapter a third of the way in (the first there with a report of UAS
    working), written to its file (or a new file) and read back as `uasdb export` reads it."""
    adapters = [r for r in records if r.kind == "adapter"]
    target = next((r for r in adapters[len(adapters) // 3:] if any(p.get("uas") == "works" for p in r.data["reports"])),
                  adapters[len(adapters) // 3])
    data = copy.deepcopy(target.data)
    if kind == "note":
        data["notes"] = (data.get("notes") or "") + " Edited by the benchmark."
    elif kind == "outcome":  # every report now shows a failure: what it says changes on every platform it has
        for report in data["reports"]:
            if "uas" in report and report["uas"] != "host-no-uas":
                report.update(uas="broken", driver="uas", notes="Resets under sustained writes.",
                              evidence={"dmesg": "uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"})
                report.pop("quirks", None)
    else:
        data["id"] = "synthetic-adapter-new"
    path = folder / f"{data['id']}.yaml"
    path.write_text("# yaml-language-server: $schema=../../schema/adapter.schema.json\n"
                    + yaml.dump(data, Dumper=RecordDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    fresh = [r for r in check([path]).records if r.kind == "adapter"]
    if kind == "new":
        return records[:records.index(target)] + fresh + records[records.index(target):]
    return [fresh[0] if r is target else r for r in records]


def measure_expectations(adapters: int, work: Path) -> dict[str, Any]:
    """The expectations step at `adapters` synthetic products (the module's docstring says what is measured)."""
    from ..verdicts import expectations
    generate(work, adapters, seed=adapters)
    folder = work / "data" / "adapters"
    before = os.environ.get("UASDB_CACHE")
    os.environ["UASDB_CACHE"] = "off"  # the synthetic records stay out of the checkout's cache
    try:
        records = check([work / "data"]).records
        build = BuildCache()

        def inputs(tree: list[Record]) -> tuple[Any, ...]:
            site, chipsets, verdict_by_id, distributions = sources_catalog(tree, [str(work / "data")], build)
            return site, [r.data for r in tree if r.kind == "adapter"], verdict_by_id, distributions, list(chipsets.values())

        first = inputs(records)
        gc.collect()
        rss, cpu = _peak_mib(), time.process_time()
        expectations.with_expectations(*first)
        out: dict[str, Any] = {"adapters": adapters, "scratch_cpu": time.process_time() - cpu,
                               "scratch_peak_mib": _peak_mib() - rss, "edits": {}}
        memo = Memo()
        cpu = time.process_time()
        memo.with_expectations(*first)
        out["memo_cold_cpu"] = time.process_time() - cpu
        for kind in ("note", "outcome", "new"):
            step = inputs(_edited_tree(records, kind, folder))
            gc.collect()
            cpu = time.process_time()
            memo.with_expectations(*step)
            spent, worked_out, decided = time.process_time() - cpu, len(memo.worked_out), len(memo.decided_again)
            memo.with_expectations(*first)  # back to the tree before the edit, to trace the same edit's memory
            gc.collect()
            tracemalloc.start()
            memo.with_expectations(*step)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            memo.with_expectations(*first)
            out["edits"][kind] = {"cpu": spent, "peak_mib": peak, "worked_out": worked_out, "decided_again": decided}
        return out
    finally:
        if before is None:
            os.environ.pop("UASDB_CACHE", None)
        else:
            os.environ["UASDB_CACHE"] = before


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def expectations_lines(result: Mapping[str, Any]) -> list[str]:
    n = result["adapters"]
    lines = [f"expectations step at {n} synthetic products: from scratch {result['scratch_cpu']:.2f} s CPU, "
             f"peak +{result['scratch_peak_mib']:.0f} MiB over its inputs; the watcher's memo cold "
             f"{result['memo_cold_cpu']:.2f} s CPU"]
    for kind, edit in result["edits"].items():
        lines.append(f"  after {'an' if kind == 'outcome' else 'a'} {kind} edit: {edit['cpu']:.2f} s CPU, peak {edit['peak_mib']:.0f} MiB traced, "
                     f"{edit['worked_out']} of {n + (kind == 'new')} products worked out again, "
                     f"{edit['decided_again']} decided again from their kept evidence (their chip's changed)")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.tools.bench_edit", description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="the record tree (default: data/)")
    parser.add_argument("--edit", choices=sorted(EDITS), default="name")
    parser.add_argument("--adapter", help="the adapter to edit (default: the first one the edit applies to)")
    parser.add_argument("--expectations", type=int, metavar="N",
                        help="measure the expectations step at N synthetic products instead")
    args = parser.parse_args(argv)
    if args.expectations:
        with tempfile.TemporaryDirectory(prefix="uasdb-bench-expectations-") as work:
            print("\n".join(expectations_lines(measure_expectations(args.expectations, Path(work)))))
        return 0
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
