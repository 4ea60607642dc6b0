"""`python -m uasdb.publish.watch`: keep the export Hugo's server reads in step with data/ while `make serve` runs.

Polls the record trees ten times a second; when a file changes it hashes the trees' files and, when a byte
changed since the last export (export.inputs_digest), exports again in two phases. First, when the save changed
one adapter record and nothing else (no file added or removed, the same id and aliases, no errors), that
product's own file (api/v1/adapters/<id>.json, its page's model) is written at once, from that record alone and
the last export's catalog (preview.py: no whole-tree pass, a few tens of ms at 10,000 products), with the last
export's expectations (labelled expectations, which never count; they catch up in the second phase). Second, the
export re-runs in memory, parsing again only the records whose files changed, and writes into OUT
(site/data/generated) only the files whose text changed, keeping OUT/static/pagefind (the search index): OUT is
then byte for byte what `uasdb export` writes. Hugo's server watches OUT, rebuilds and reloads the browser. With
`--search`, as `make serve` runs it, the search index follows the data too: after each clean export it is built
again from the export in the background (`SearchRefresh`; Pagefind runs only when an indexed word changed) and
put in OUT/static/pagefind, so an edit's page shows at once and its words become searchable a moment later. When the data has errors the last
good export stays, the problems are printed in the terminal, and `serve_errors` is added to OUT/data/common.json so
every page shows them (layouts/_partials/serve-errors.html) until they are fixed.

With `--server URL` (Hugo's server, as `make serve` runs it) the watcher also sets Hugo's server up for quick
rebuilds once it has built the site (`ServerPrimer`): Hugo checks every change against every page it has rendered,
and its first build renders them all (1 to 3 s per change at 10,000 products); the data rewritten once, as it is,
makes Hugo drop those pages, which it then renders when a browser asks for one (its "fast render mode"), so a save
costs Hugo the pages being looked at.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from pathlib import Path

from .. import relax_gc
from ..paths import DATA_DIR, Folder, inside
from ..records.database import KIND_DIRS, LoadCache
from .adapter import BuildCache
from .export import inputs_digest, prepare, record_folders
from .files import COMMON_JSON, EncodeMemo, adapter_files, export_files
from .preview import Neighbours, product_preview

Snapshot = dict[str, tuple[int, int]]
# Seconds between polls. A snapshot of today's records takes about 5 ms; the watcher takes a whole snapshot at most
# every ten times as long as its last one took, so polling never costs more than a tenth of a core on a larger
# tree, and looks at the files saved lately at every poll (HotFiles).
POLL_SECONDS = 0.1
# Seconds the full export waits after the first phase wrote the edited product's page, under `make serve`: Hugo's
# server gathers file events for half a second, then rebuilds the page, and the export (tens of seconds of CPU at
# 10,000 products) would take the cores from it meanwhile. A refresh called alone does not wait.
SETTLE_SECONDS = 1.0


def snapshot(trees: Sequence[Path]) -> Snapshot:
    """Every file's modification time and size: a change to either (or a file added or removed) is an edit.
    Walked with os.scandir, not Path.rglob: at 10,000 records a snapshot took 0.1-0.2 s, and the watcher waits ten
    times that between polls, which a save then waited for."""
    seen: Snapshot = {}
    for tree in trees:
        _walk(str(tree), seen)
    return seen


def _walk(folder: str, seen: Snapshot) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:  # a folder deleted since it was listed: seen as it is, never fatal
        return
    for entry in entries:
        try:  # a file deleted since it was listed, a dangling link: seen as they are, never fatal
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        seen[entry.path] = (info.st_mtime_ns, info.st_size)
        if entry.is_dir(follow_symlinks=False):
            _walk(entry.path, seen)


class State:
    """What the watcher keeps between exports, so that an edit costs the records it touches and the files whose
    text changed: each record parsed and checked (again only when its file changes), each adapter's verdicts and
    charts (again only when its text changes), the JSON text of each piece, and the text of every file written."""

    def __init__(self) -> None:
        self.cache = LoadCache()
        self.build = BuildCache()
        self.memo = EncodeMemo()
        self.written: dict[str, str] = {}
        # The envelope's time, fixed at the first export: outside git (or before the first commit) it would be
        # "now" on every edit and change every file the preview serves.
        self.generated_at: str | None = None
        # The digest of the inputs of the last export (export.inputs_digest), kept only after a clean one: a save
        # that changed no byte (an editor that writes on focus loss, `touch`, a branch switched and back) costs
        # re-hashing.
        self.inputs: str | None = None
        # The last good export's catalog and each input file's digest then: the first phase of a refresh
        # (`_first_phase`) takes the expectations from that catalog and needs to know which one file changed.
        self.catalog: dict | None = None
        # Seconds the full export waits after a first phase that wrote a file (SETTLE_SECONDS under `watch`).
        self.settle = 0.0
        self.files: dict[str, str] | None = None
        # How many files the last refresh's first phase wrote, and the seconds it took (the terminal says so).
        self.first_phase: tuple[int, float] = (0, 0.0)
        # Which of that catalog's adapters share a USB ID, a name or a shop code (preview.Neighbours): the first
        # phase runs the tree's rules over those alone.
        self.neighbours: Neighbours | None = None


def _existing(out_dir: Path) -> set[str]:
    """The export's files now in OUT (relative, posix), leaving out the search index `make serve` built once."""
    found: set[str] = set()
    for top in ("data", "api", "static"):
        for folder, dirs, files in os.walk(out_dir / top):
            if Path(folder) == out_dir / "static" and "pagefind" in dirs:
                dirs.remove("pagefind")
            found.update(Path(folder, f).relative_to(out_dir).as_posix() for f in files)
    return found


def _sync(out_dir: Path, guard: Folder, files: Iterable[tuple[str, Path, list[str]]], state: State) -> int:
    """Make OUT hold `files` (each relative path with where `guard`, OUT's Folder, put it, and its text), writing
    only those whose text differs from what is there and removing files the export no longer has. Hugo's server rebuilds on
    every file event, and one edited record changes a handful of the API's files, so leaving the rest alone keeps
    a live edit quick. Returns how many files changed."""
    changed = 0
    existing = _existing(out_dir)
    produced = set()
    folders: set[Path] = set()  # made already in this sync
    for relative, path, parts in files:
        text = "".join(parts)
        produced.add(relative)
        if relative in existing:
            known = state.written.get(relative)
            if known is None:  # `path` was checked by the guard; a file the export no longer has is checked below
                known = path.read_text(encoding="utf-8")
            if known == text:
                state.written[relative] = text
                continue
        if path.parent not in folders:
            path.parent.mkdir(parents=True, exist_ok=True)
            folders.add(path.parent)
        _replace(out_dir, path, text)
        state.written[relative] = text
        changed += 1
    for relative in sorted(existing - produced):
        guard.path(relative).unlink()
        state.written.pop(relative, None)
        changed += 1
    return changed


def _replace(out_dir: Path, path: Path, text: str) -> None:
    """Put `text` at `path` (a file in OUT that `inside` gave, whose folder exists) in one step: written beside
    OUT's mounted folders, then renamed over the old file. Hugo's server reads a file as soon as it changes; a
    large file takes a moment to write, and Hugo once read one half-written (an empty export, then no further
    rebuild). Hugo mounts the folders (data/, api/, static/), not the files, so it sees the renamed file as the
    change it is."""
    staging = out_dir / f".writing-{os.getpid()}"
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def refresh(out_dir: Path, data_dirs: Sequence[Path] | None = None, state: State | None = None) -> list[str]:
    """Export into OUT; returns the problems (empty when the export was written). Pass the same `state` on each
    call to skip unchanged records and files."""
    out_dir = Path(out_dir)
    state = state or State()
    captured = io.StringIO()
    trees = [Path(d) for d in (data_dirs or [DATA_DIR])]
    files: dict[str, str] | None = {}
    try:
        inputs: str | None = inputs_digest(trees, files)
    except Exception:  # noqa: BLE001 - a tree that cannot be read is for the export to report
        inputs, files = None, None
    if inputs is not None and inputs == state.inputs:
        return []  # the last export was clean, and no byte changed since
    state.inputs = None  # set again once this export is over, whichever way it ends
    previous, state.catalog, last_files, state.files = state.catalog, None, state.files, None
    neighbours, state.neighbours = state.neighbours, None
    state.first_phase = (0, 0.0)
    if previous is not None and files is not None and last_files is not None:
        began, wrote = time.monotonic(), 0
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                wrote = _first_phase(out_dir, trees, state, previous, _edited(last_files, files), neighbours)
        except Exception:  # noqa: BLE001 - the second phase does it all again, and reports what is wrong
            state.build = BuildCache()  # it may hold what was worked out half-way
        state.first_phase = (wrote, time.monotonic() - began)
        if wrote and state.settle > 0:
            time.sleep(state.settle)
    try:
        with contextlib.redirect_stderr(captured):
            prepared = prepare(data_dirs, cache=state.cache, build_cache=state.build)
        problems = [line for line in captured.getvalue().splitlines() if line.strip()]
        if prepared is None:
            return _keep_last_good(out_dir, state, problems or ["export refused the data (run `uasdb validate`)"])
        catalog, generated_at = prepared
        state.generated_at = state.generated_at or generated_at
        # Every file is rendered, and its path checked, before the first is written, so a failure part-way leaves
        # the last good export.
        guard = Folder(out_dir)
        written = [(relative, guard.path(relative), ["".join(parts)])
                   for relative, parts in export_files(catalog, state.generated_at, memo=state.memo)]
        _sync(out_dir, guard, written, state)
        _remember(state, trees, inputs)
        # The next save's first phase builds on this clean export, even when a file changed while it ran (a second
        # save soon after the first, at 10,000 products): a file changed since `files` were read counts as edited,
        # so a second save of the same record still shows first; the full export after it settles everything.
        state.catalog, state.files, state.neighbours = catalog, files, Neighbours(catalog["adapters"])
    except Exception as error:  # noqa: BLE001 - the watcher outlives whatever the file system or the data does
        problems = [line for line in captured.getvalue().splitlines() if line.strip()]
        problem = f"export failed: {type(error).__name__}: {error} (the next change to data/ tries again)"
        # The cache may hold what was read half-way: start the next export from nothing.
        state.cache, state.build, state.memo, state.written = LoadCache(), BuildCache(), EncodeMemo(), {}
        try:
            return _keep_last_good(out_dir, state, problems + [problem])
        except Exception:  # noqa: BLE001 - not even the overlay could be written: the terminal still says it
            return problems + [problem]
    return []


def _edited(before: dict[str, str], now: dict[str, str]) -> str | None:
    """The one adapter record an edit changed, or None when it added or removed a file, changed another kind of
    file (a chipset, a distribution, removed.yaml, a waiver) or more than one."""
    if before.keys() != now.keys():
        return None
    changed = [path for path, digest in now.items() if before[path] != digest]
    if len(changed) != 1 or Path(changed[0]).parent.name != KIND_DIRS["adapter"] or not changed[0].endswith(".yaml"):
        return None
    return changed[0]


def _first_phase(out_dir: Path, trees: Sequence[Path], state: State, previous: dict, edited: str | None,
                 neighbours: Neighbours | None = None) -> int:
    """Write the edited product's own file (its page's model and API file, api/v1/adapters/<id>.json) before the
    rest of the export, at the cost of that record (preview.py): the record read and checked alone, its verdicts
    and page worked out, and whatever the page reads of other products, and the expectations and their
    evaluation, taken from the last export as they were (an expectation is labelled as one, and the full export
    that follows brings them up to date). Only for an edit of one adapter record whose data has no errors and
    whose id and aliases stay as they were; otherwise nothing is written here. Returns how many files it wrote."""
    if edited is None or state.generated_at is None:
        return 0
    catalog = product_preview(Path(edited), previous, trees, state.cache, state.build, neighbours)
    if catalog is None:
        return 0
    count = 0
    for relative, parts in adapter_files(catalog, state.generated_at):
        text = "".join(parts)
        if state.written.get(relative) == text:
            continue
        path = inside(out_dir, relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        _replace(out_dir, path, text)
        state.written[relative] = text
        count += 1
    return count


def _remember(state: State, trees: list[Path], inputs: str | None) -> None:
    """After a clean export, keep the digest of its inputs, so that a refresh where nothing changed stops at once —
    only if the tree still has that digest. Never after an export with problems: a file written or deleted while
    the export read the tree (an editor's temporary file) may have been read in a state no digest saw, and a
    problem it caused must not outlive it, so such an export is always done again."""
    try:
        settled = inputs is not None and inputs_digest(trees) == inputs
    except Exception:  # noqa: BLE001 - a tree that cannot be read now is for the next refresh to report
        settled = False
    state.inputs = inputs if settled else None


def _keep_last_good(out_dir: Path, state: State, problems: list[str]) -> list[str]:
    """Keep the last good data, and say what is wrong on every page (OUT/data/common.json's `serve_errors`)."""
    common_json = out_dir / COMMON_JSON
    if common_json.is_file():
        payload = json.loads(common_json.read_text(encoding="utf-8"))
        payload["serve_errors"] = problems
        _replace(out_dir, inside(out_dir, COMMON_JSON), json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n")
        state.written.pop(COMMON_JSON, None)
    return problems


class ServerPrimer:
    """Once Hugo's server at `url` answers (it does when its first build is over), rewrite OUT/data/common.json
    with the bytes it has. Hugo takes that for a data change: its content adapter runs again and every page is
    made anew, none rendered (the pages a browser is showing are rendered again at once). From then on a change
    is checked against the pages rendered since, those a browser asked for, not against all of them: at 10,000
    products an edited model's rebuild went from 1.5-4 s to 0.5-0.8 s, and the first visit of a page renders it
    (Hugo's fast render mode; `hugo server --disableFastRender` renders every page on each change instead)."""

    def __init__(self, url: str, out_dir: Path, every: float = 1.0) -> None:
        self.url, self.out_dir, self.every = url, out_dir, every
        self.primed = False
        self.next_try = 0.0

    def poll(self) -> bool:
        """Try (at most once every `every` seconds) until the server answers, then prime it; True once done."""
        if self.primed or time.monotonic() < self.next_try:
            return self.primed
        self.next_try = time.monotonic() + self.every
        try:
            with urllib.request.urlopen(self.url, timeout=2) as response:
                response.read(1)
        except urllib.error.HTTPError:
            pass   # it answered (a 404 is an answer): its first build is over
        except (urllib.error.URLError, OSError, ValueError):
            return False   # not up yet
        common_json = self.out_dir / COMMON_JSON
        if common_json.is_file():
            _replace(self.out_dir, inside(self.out_dir, COMMON_JSON), common_json.read_text(encoding="utf-8"))
        self.primed = True
        print(f"{time.strftime('%H:%M:%S')} Hugo's server is up: it renders a page when it is first asked for, and "
              "after a save the pages being shown", flush=True)
        return True


class SearchRefresh:
    """The search index rebuilt from OUT after each clean export, in a separate process so that the watcher goes on
    polling (and the next edit's page shows) while Pagefind runs: `python -m uasdb.publish.search_index build`, which
    keeps its index in the content cache (.cache/uasdb/search/, where `make site` left it) and runs Pagefind only when
    an indexed word changed, then puts the index in OUT/static/pagefind for Hugo's server. Saves that come while a
    build runs are answered by one more build when it ends, from the export as it is then."""

    def __init__(self, out_dir: Path, cache: Path | None = None) -> None:
        self.out_dir, self.cache = out_dir, cache
        self.running: subprocess.Popen[str] | None = None
        self.wanted = False

    def request(self) -> None:
        self.wanted = True
        self.poll()

    def poll(self) -> None:
        """Start the build that is wanted once the one running (if any) has ended; say when a build failed."""
        if self.running is not None:
            if self.running.poll() is None:
                return
            _, errors = self.running.communicate()
            if self.running.returncode != 0:
                print(f"{time.strftime('%H:%M:%S')} search index NOT rebuilt; search shows the last index:\n{errors}",
                      file=sys.stderr, flush=True)
            self.running = None
        if self.wanted:
            self.wanted = False
            command = [sys.executable, "-m", "uasdb.publish.search_index", "build", "--export", str(self.out_dir),
                       "--public", str(self.out_dir / "static")]
            if self.cache is not None:
                command += ["--cache", str(self.cache)]
            self.running = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def wait(self) -> None:
        """Until no build runs or is wanted."""
        while self.running is not None or self.wanted:
            if self.running is not None:
                self.running.wait()
            self.poll()


def watch(out_dir: Path, data_dirs: Sequence[Path], interval: float = POLL_SECONDS, once: bool = False,
          search: SearchRefresh | None = None, primer: ServerPrimer | None = None) -> int:
    trees = [Path(d) for d in data_dirs]
    last = _poll(trees)
    state = State()
    state.settle = SETTLE_SECONDS
    folders = record_folders(trees)
    if folders:
        # Export once now (files are written only where they differ from what `make export` left), so that every
        # cache is warm and the first edit costs only its own record, as every later one does.
        problems = refresh(out_dir, trees, state)
        _tell(problems, "data checked at start")
        if search is not None and not problems:
            search.request()
    print(f"watching {', '.join(str(t) for t in trees)} for changes (re-exports into {out_dir})", flush=True)
    took, polled = 0.0, time.monotonic()
    hot = HotFiles()
    while True:
        time.sleep(interval)
        if search is not None:
            search.poll()
        if primer is not None:
            primer.poll()
        # The whole snapshot at most every ten times what it takes; the files saved lately at every poll.
        if time.monotonic() - polled < 10 * took and not hot.changed(last):
            continue
        started = polled = time.monotonic()
        now = _poll(trees)
        took = time.monotonic() - started
        if now == last:
            continue
        hot.add(now, last)
        last = now
        began = time.monotonic()
        problems = refresh(out_dir, trees, state)
        _tell(problems, "data changed", time.monotonic() - began, state.first_phase)
        if search is not None and not problems:
            search.request()
        if once:
            if search is not None:
                search.wait()
            return 1 if problems else 0


class HotFiles:
    """The files changed by the last few saves, looked at on every poll (a few `lstat` calls) while the whole
    snapshot waits ten times what it takes (at 10,000 records 0.05 s, so half a second): a contributor saves the
    record they are editing again and again, and that save is seen within one poll."""

    KEEP = 32

    def __init__(self) -> None:
        self.paths: dict[str, None] = {}   # in the order they last changed, the latest last

    def add(self, now: Snapshot, last: Snapshot) -> None:
        for path in [p for p in now.keys() | last.keys() if now.get(p) != last.get(p)]:
            self.paths.pop(path, None)
            self.paths[path] = None
        for path in list(self.paths)[:-self.KEEP]:
            del self.paths[path]

    def changed(self, last: Snapshot) -> bool:
        """Whether one of them differs from `last` (changed, replaced, gone or back)."""
        for path in self.paths:
            try:
                info = os.lstat(path)
                seen: tuple[int, int] | None = (info.st_mtime_ns, info.st_size)
            except OSError:
                seen = None
            if seen != last.get(path):
                return True
        return False


def _poll(trees: Sequence[Path]) -> Snapshot:
    """The snapshot, or (when even listing the trees fails) a marker that differs from every snapshot, after
    saying why: the next poll tries again."""
    try:
        return snapshot(trees)
    except Exception as error:  # noqa: BLE001 - a tree that vanished (or worse) is said, and polled again
        _tell([f"cannot read the data folders: {type(error).__name__}: {error}"], "data changed")
        return {"": (-1, -1)}


def _tell(problems: list[str], what: str, spent: float | None = None, first: tuple[int, float] = (0, 0.0)) -> None:
    stamp = time.strftime("%H:%M:%S")
    if problems:
        print(f"{stamp} {what}: NOT exported, the site keeps the last good data and shows these:", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        sys.stderr.flush()
    elif spent is not None:
        early = f" (the edited product's page first, in {first[1]:.2f} s)" if first[0] else ""
        print(f"{stamp} {what}: exported again in {spent:.2f} s{early}; the browser reloads", flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.publish.watch", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the export folder Hugo's server reads")
    parser.add_argument("--data", type=Path, action="append", help="record trees to watch (default: data/)")
    parser.add_argument("--interval", type=float, default=POLL_SECONDS, help="seconds between polls")
    parser.add_argument("--search", action="store_true", help="also rebuild the search index into "
                        "OUT/static/pagefind after each clean export, in the background")
    parser.add_argument("--server", metavar="URL", help="Hugo's server reading OUT: once it answers, set it up to "
                        "render only the pages asked for (ServerPrimer)")
    args = parser.parse_args(argv)
    relax_gc()
    try:
        return watch(args.out, args.data or [DATA_DIR], args.interval,
                     search=SearchRefresh(args.out) if args.search else None,
                     primer=ServerPrimer(args.server, args.out) if args.server else None)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
