"""Shared test helpers: build a tiny data tree from dicts and check it with a fixed 'today'."""
from __future__ import annotations

import contextlib
import copy
import datetime
import gc
import io
import os
import signal
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

import yaml

from uasdb.paths import walk_files
from uasdb.records.database import check
from uasdb.tools.synth import RecordDumper  # quotes what YAML 1.1 or 1.2 would misread, e.g. '0578'

TODAY = datetime.date(2026, 11, 21)
REPO = Path(__file__).resolve().parents[1]

BASE_ADAPTER: dict = {
    "id": "acme-box",
    "name": "Acme Box USB 3.0 SATA enclosure",
    "kind": "enclosure",
    "drive_interface": "sata",
    "chipset": "jms578",
    "usb_ids": [{"vid": "152d", "pid": "0578"}],
    "reports": [{
        "date": "2021-03-04",
        "source": {"url": "https://example.org/thread/1"},
        "host": "pi4",
        "driver": "uas",
        "uas": "works",
    }],
}
BASE_CHIPSET: dict = {
    "id": "jms578", "name": "JMS578", "maker": "JMicron", "drive_interface": "sata", "uas": True,
    "sources": ["https://example.org/jms578"],
}


def adapter(**changes) -> dict:
    """BASE_ADAPTER with top-level changes; `report` merges into the first report."""
    record = copy.deepcopy(BASE_ADAPTER)
    report_changes = changes.pop("report", None)
    record.update(changes)
    if report_changes is not None:
        record["reports"][0].update(report_changes)
        record["reports"][0] = {k: v for k, v in record["reports"][0].items() if v is not None}
    return {k: v for k, v in record.items() if v is not None}


def write_tree(root: Path, adapters: Iterable[dict] = (), chipsets: Iterable[dict] = (BASE_CHIPSET,)) -> Path:
    data = root / "data"
    for kind, records in (("adapters", adapters), ("chipsets", chipsets)):
        folder = data / kind
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            text = f"# yaml-language-server: $schema=../../schema/{kind[:-1]}.schema.json\n"
            text += yaml.dump(record, Dumper=RecordDumper, sort_keys=False, allow_unicode=True)
            (folder / f"{record['id']}.yaml").write_text(text, encoding="utf-8")
    return data


def problems_in(root: Path, adapters: Iterable[dict] = (), chipsets: Iterable[dict] = (BASE_CHIPSET,)) -> list:
    data = write_tree(root, adapters, chipsets)
    return check([data], today=TODAY).problems


def rule_hits(problems, rule_id: str) -> list[str]:
    """Field paths (as text) where `rule_id` fired."""
    from uasdb.records.problems import field_path_text
    return [field_path_text(p.field) for p in problems if p.rule == rule_id]


def run_uasdb(*args, cwd: Path | None = None, env: Mapping[str, str] | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """`uasdb ARGS` run in this process (`cli.main(argv)`, as check-jsonschema's acceptance tests do), its output
    captured: the answer a subprocess would give, without starting Python again (0.03 s instead of 0.8 s). `cwd` and
    `env` apply for the call only; a call still running after `timeout` seconds fails the test, as a hung command
    would. An exception escaping main() fails the test (a subprocess would have printed a traceback).
    One test per entry point still runs the real console script (test_cli.py)."""
    from uasdb.cli import main
    out, err = io.StringIO(), io.StringIO()
    saved_cwd, saved_env, saved_gc = os.getcwd(), dict(os.environ), gc.get_threshold()

    def hung(signum, frame):
        raise TimeoutError(f"uasdb {' '.join(map(str, args))} ran longer than {timeout} s")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        if cwd is not None:
            os.chdir(cwd)
        os.environ.update(env or {})
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as exit_:  # argparse: usage errors (2), --help and --version (0); sys.exit("why")
                if isinstance(exit_.code, str):
                    print(exit_.code, file=err)
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        gc.set_threshold(*saved_gc)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def tree_files(root: Path, skip: Iterable[str] = ()) -> dict[str, bytes]:
    """Every file under `root` as {its path relative to root, with /: its bytes}, sorted by path; the folders in
    `skip` (relative to root) left out. Tests compare exports whole with it, dozens of times a run: the package's
    own walk (uasdb.paths.walk_files) takes half the CPU of pathlib's rglob with a stat per file."""
    found: dict[str, bytes] = {}
    for relative, entry in walk_files(root, [os.path.join(root, folder) for folder in skip]):
        if entry.is_file():
            with open(entry.path, "rb") as handle:
                found[relative] = handle.read()
    return found


def tree_stamps(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under `root` as {its relative path: (inode, mtime in ns, size)}: what a test reads to tell a
    file rewritten from one left alone."""
    stamps: dict[str, tuple[int, int, int]] = {}
    for relative, entry in walk_files(root):
        if entry.is_file():
            state = entry.stat()
            stamps[relative] = (state.st_ino, state.st_mtime_ns, state.st_size)
    return stamps


def examples(full: int) -> int:
    """How many random inputs a property test draws: `full` in `make test`, a quarter (at least 25) in the fast lane
    (`make check` sets UASDB_FAST_LANE=1), which runs on every commit. The same tests, each still drawing its edge
    cases first; the full run explores as widely as before."""
    return max(25, full // 4) if os.environ.get("UASDB_FAST_LANE") else full


class IgnoreUasKernel:
    """The part of reference.KernelTable the expectations read: one unconditional IGNORE_UAS entry, for `usb_id`
    ("vid:pid")."""
    version = "6.12"

    class Entry:
        bcd_min, bcd_max, flags, condition = "0000", "9999", ("IGNORE_UAS",), None
        file, line = "drivers/usb/storage/unusual_uas.h", 42

    def __init__(self, usb_id: str) -> None:
        self.usb_id = tuple(usb_id.split(":"))

    def entries_for(self, vid: str, pid: str) -> list:
        return [self.Entry()] if (vid, pid) == self.usb_id else []
