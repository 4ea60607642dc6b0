"""Finding, loading and checking the records under data/."""
from __future__ import annotations

import concurrent.futures
import contextlib
import copy
import dataclasses
import datetime
import fnmatch
import gc
import marshal
import multiprocessing
import os
import pickle
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import DATA_DIR
from . import cache as content_cache
from .kernel_flags import quirk_letters
from .loader import Loaded, load_file, load_text, read_record
from .problems import Finding, Problem
from .reference import KernelTable, UsbIds, load_kernel, load_usbids
from .rules import checking_rules
from .rules.removals import removal_problems
from .rules.waivers import apply_waivers
from .schema import schema_problems

KIND_DIRS = {"adapter": "adapters", "chipset": "chipsets", "distribution": "distributions"}


@dataclass
class Record:
    kind: str
    loaded: Loaded

    @property
    def path(self) -> str:
        return self.loaded.path

    @property
    def data(self) -> dict[str, Any]:
        return self.loaded.data

    @property
    def text(self) -> str:
        return self.loaded.text


@dataclass
class Context:
    chipset_ids: set
    today: datetime.date
    # Each chipset record's drive-side links (`drive_links`), by id, for rules that compare an adapter with its chip.
    chipset_links: dict[str, tuple[str, ...]] = field(default_factory=dict)
    quirk_letters: dict[str, str] = field(default_factory=quirk_letters)
    # Generated reference data (data/kernel/, data/usb-ids/); tests pass small tables instead.
    kernel: KernelTable = field(default_factory=load_kernel)
    usbids: UsbIds = field(default_factory=load_usbids)


@dataclass
class Result:
    records: list[Record]
    problems: list[Problem]
    waived: list[Problem] = field(default_factory=list)  # warnings data/waivers.yaml acknowledges, not shown

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]


def kind_of(path: Path) -> str | None:
    for kind, folder in KIND_DIRS.items():
        if path.parent.name == folder:
            return kind
    return None


# Files under data/ that are not records, each read by a command: the waivers (rules/waivers.py), the removal notes
# (docs/maintaining.md, "Deleting a record"), the generated reference tables (reference.py, the importers) and the
# README files beside them. Anything else under data/ is never read, so a run that meets it fails (`unread_files`).
OTHER_DATA_FILES = ("waivers.yaml", "removed.yaml", "kernel/linux-*.yaml", "usb-ids/usb-ids.yaml",
                    "smartmontools/drivedb-usb.yaml", "linuxhw/lsusb-storage.yaml", "README*.md", "*/README*.md")
# What an editor keeps beside a file only while it is open (vim's swap files, Emacs' lock and autosave files).
EDITOR_SCRATCH = (".*.sw[a-p]", ".*.swx", ".#*", "#*#")


def _record_folders(paths: Sequence[Path]) -> list[Path]:
    return list(paths) or [d for d in (DATA_DIR / folder for folder in KIND_DIRS.values()) if d.is_dir()]


def discover(paths: Sequence[Path] = ()) -> list[Path]:
    """Record files under the given files/folders (default: all of data/), sorted: `<id>.yaml` directly inside
    data/adapters/, data/chipsets/ or data/distributions/ (a file named on the command line is taken as it is)."""
    files: list[Path] = []
    for root in _record_folders(paths):
        root = Path(root)
        if root.is_dir():
            # rglob does not enter a linked folder, so a record folder that is a symbolic link (data/chipsets ->
            # elsewhere) is listed by name: its records are checked, as the export reads them.
            linked = [root / f for f in KIND_DIRS.values() if (root / f).is_symlink() and (root / f).is_dir()]
            for folder in [root, *linked]:
                files.extend(p for p in folder.rglob("*.yaml") if kind_of(p) and not p.name.startswith("."))
        else:
            files.append(root)
    return sorted(set(files))


def unread_files(paths: Sequence[Path], records: Sequence[Path]) -> list[Problem]:
    """A problem for each file under the given folders (default: all of data/) that neither `check` nor any other
    command reads: `x.YAML`, `x.yml`, `x.yaml.orig`, `sub/x.yaml` in a record folder, a record put straight into
    data/. Skipping them would let a contributor see "0 errors" for a record that is never checked nor published."""
    roots = [Path(p) for p in paths if Path(p).is_dir()] if paths else [DATA_DIR]
    record_files = set(records)
    found: list[Problem] = []
    for root in roots:
        is_record_folder = root.name in KIND_DIRS.values()
        for path in sorted(root.rglob("*")):
            if path in record_files or path.is_dir() or any(fnmatch.fnmatchcase(path.name, p) for p in EDITOR_SCRATCH):
                continue
            inside = path.relative_to(root.parent if is_record_folder else root).as_posix()
            in_record_folder = is_record_folder or any(part in KIND_DIRS.values() for part in inside.split("/")[:-1])
            if not in_record_folder and any(fnmatch.fnmatchcase(inside, p) for p in OTHER_DATA_FILES):
                continue
            found.append(Problem(display_path(path), 1, 1, (), *_why_unread(path), "file-location"))
    return found


def _why_unread(path: Path) -> tuple[str, str]:
    folder = path.parent.name
    if folder in KIND_DIRS.values():
        stem = path.name.split(".")[0]
        if path.name.lower().endswith((".yaml", ".yml")) and stem:
            return (f"`{path.name}` is never read: records are named `<id>.yaml`, in lower case",
                    f"rename it to `{stem.lower()}.yaml`")
        return (f"`{path.name}` is never read: only `<id>.yaml` records belong in data/{folder}/",
                "delete it, or move it out of data/ (a backup or merge leftover is not a record)")
    kind_folder = next((p.name for p in path.parents if p.name in KIND_DIRS.values()), None)
    if kind_folder:
        return (f"`{path.name}` is in a subfolder of data/{kind_folder}/, where nothing is read",
                f"move it to data/{kind_folder}/{path.name}" if path.suffix == ".yaml" else "delete it")
    return ("this file under data/ is never read: records go in data/adapters/, data/chipsets/ or data/distributions/",
            "move a record into the folder for its kind, or delete the file")


def relative_to(path, root) -> str:
    """`path` relative to `root` when it lies inside it, else as given (abspath: no symlink lookups, it runs per file)."""
    absolute, root = os.path.abspath(path), os.path.abspath(root)
    return os.path.relpath(absolute, root) if absolute.startswith(root + os.sep) else str(path)


def display_path(path) -> str:
    """A record's path as a contributor sees it from where they stand."""
    return relative_to(path, os.getcwd())


def today_for_checks() -> datetime.date:
    """Today, or UASDB_TODAY (YYYY-MM-DD) so that test runs do not depend on the calendar."""
    fixed = os.environ.get("UASDB_TODAY")
    return datetime.date.fromisoformat(fixed) if fixed else datetime.date.today()


def _load_one(path: Path, kept_only: bool = False):
    """Read, parse and schema-check one file: the per-file half of `check`, independent of every other file. The
    parse and the schema check depend on the file's bytes and kind alone, so they come from the content cache
    (records/cache.py) when an earlier run did them. `kept_only`: None unless they do (or the file is unreadable)."""
    kind = kind_of(path)
    raw = read_record(path)
    parsed = (raw, []) if isinstance(raw, Loaded) else _parsed(kind, raw, kept_only)
    if parsed is None:
        return None
    loaded, schema_found = parsed
    # The parse named no file (so that its result holds in any copy of the tree); every problem names the file as
    # the contributor sees it.
    loaded.path = display_path(path)
    loaded.problems = [dataclasses.replace(p, file=loaded.path) for p in loaded.problems]
    schema_found = [dataclasses.replace(p, file=loaded.path) for p in schema_found]
    problems = list(loaded.problems)
    if kind is None:
        problems.append(loaded.problem((), "not inside data/adapters/, data/chipsets/ or data/distributions/",
                                       "move the file into the folder for its kind", "file-location"))
        return kind, loaded, problems
    if path.suffix != ".yaml":
        problems.append(loaded.problem((), "record files end in .yaml", f"rename it to {path.stem}.yaml", "file-location"))
    problems.extend(schema_found)
    loaded.problems.extend(schema_found)
    return kind, loaded, problems


def _parsed(kind: str | None, raw: bytes, kept_only: bool = False) -> tuple[Loaded, list[Problem]] | None:
    """The file parsed with its marks, and what the schema finds in it that the loader did not already explain:
    from the cache when these bytes were read before as this kind, else worked out (and kept; `kept_only`: None)."""
    store = content_cache.store()
    digest = content_cache.content_digest(raw)
    key = store.key("parsed", kind, digest) if store else ""
    known = _from_entry(store.get(key)) if store else None
    if known is not None or kept_only:
        return known
    loaded = load_text("", raw)
    loaded.digest = digest
    schema_found: list[Problem] = []
    if kind is not None and loaded.data is not None:
        # Where the loader already explained a value (alias, unquoted yes), the schema's view of it adds nothing.
        explained = {p.field for p in loaded.problems}
        schema_found = [p for p in schema_problems(kind, loaded) if p.field not in explained]
    if store:
        packed = marshal.dumps((loaded.marks, loaded.key_marks, loaded.plain_text, loaded.text))
        store.put(key, (loaded.data, packed, [dataclasses.astuple(p) for p in loaded.problems], digest,
                        [dataclasses.astuple(p) for p in schema_found]))
    return loaded, schema_found


def _from_entry(entry: Any) -> tuple[Loaded, list[Problem]] | None:
    """A `_parsed` result from its cache entry, or None when the entry is not one (a miss)."""
    try:
        data, packed, problems, digest, schema_found = entry
        if type(packed) is not bytes:
            return None
        return (_KeptLoaded(data, packed, [Problem(*p) for p in problems], digest),
                [Problem(*p) for p in schema_found])
    except (TypeError, ValueError):
        return None


_PACKED = ("marks", "key_marks", "plain_text", "text")


def _packed_field(name: str) -> Any:
    slot = f"_{name}"

    def get(self: _KeptLoaded) -> Any:
        self._unpack()
        return self.__dict__[slot]

    def put(self: _KeptLoaded, value: Any) -> None:
        self._unpack()
        self.__dict__[slot] = value
    return property(get, put)


class _KeptLoaded(Loaded):
    """A parse read back from the content cache, whose marks, plain texts and text (three quarters of the entry)
    are decoded only when asked for: a clean record's (whose per-record findings are kept with their places,
    `_record_findings`) never is, and loading 10,000 records is that much quicker."""

    def __init__(self, data: Any, packed: bytes, problems: list[Problem], digest: str) -> None:
        self.__dict__["_packed"] = None
        super().__init__("", data, problems=problems, digest=digest)
        self.__dict__["_packed"] = packed

    def _unpack(self) -> None:
        packed = self.__dict__.get("_packed")
        if packed is None:
            return
        self.__dict__["_packed"] = None
        try:
            values = marshal.loads(packed)
            if not (isinstance(values, tuple) and len(values) == len(_PACKED)):
                raise ValueError("not a parse's marks")
        except (ValueError, TypeError, EOFError):  # only a bug could write one: no marks, every place at 1:1
            values = ({}, {}, {}, "")
        for name, value in zip(_PACKED, values, strict=True):
            self.__dict__[f"_{name}"] = value

    marks = _packed_field("marks")
    key_marks = _packed_field("key_marks")
    plain_text = _packed_field("plain_text")
    text = _packed_field("text")


PARALLEL_FROM_FILES = 400


class LoadCache:
    """Per-file results (parse and schema check) kept between runs of `check` in one process, keyed by each file's
    path, modification time and size: the watcher behind `make serve` re-checks only the records that changed.
    Each call gets fresh objects (unpickled from bytes, several times faster than a deep copy), so whatever the
    export adds to a record never leaks into the next run."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[int, int] | None, bytes]] = {}
        # What the per-record rules found in each record, keyed by its path, and valid while the record's text and
        # the context the rules read (chipset ids, today, the reference tables) are unchanged: a per-record rule
        # sees nothing else.
        self.findings: dict[str, tuple[str, Any, list[Problem]]] = {}
        # The context the last `check` with this cache gave the per-record rules (with its key and the content
        # cache's digest of it), for `check_record`.
        self.context: tuple[Context, Any, str] | None = None

    def load_one(self, path: Path):
        """`load` of one file, leaving every other file's entry as it is: the watcher's first phase reads the
        edited record alone, and the next `load` of the whole tree finds it read already."""
        try:
            info = os.lstat(path)
            key: tuple[int, int] | None = (info.st_mtime_ns, info.st_size)
        except OSError:
            key = None
        known = self._entries.get(str(path))
        if key is None or known is None or known[0] != key:
            known = self._entries[str(path)] = (key, pickle.dumps(_load_one(path), pickle.HIGHEST_PROTOCOL))
        return pickle.loads(known[1])

    def load(self, files: list[Path]):
        keys: dict[str, tuple[int, int] | None] = {}
        for path in files:
            try:  # the file may be gone since it was listed, or be a dangling link: load_file says which
                info = os.lstat(path)
                keys[str(path)] = (info.st_mtime_ns, info.st_size)
            except OSError:
                keys[str(path)] = None
        stale = [p for p in files if keys[str(p)] is None or self._entries.get(str(p), (None,))[0] != keys[str(p)]]
        for path, result in zip(stale, _load_all(stale), strict=True):
            self._entries[str(path)] = (keys[str(path)], pickle.dumps(result, pickle.HIGHEST_PROTOCOL))
        for gone in set(self._entries) - set(keys):
            del self._entries[gone]
        return [pickle.loads(self._entries[str(p)][1]) for p in files]


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector paused while a whole tree's records and what is made of them pile up: it walks every
    object again and again as they grow (loading 5,000 records from the content cache took 12 s of CPU with it, 1.5
    without), and these values hold no cycles to find. It runs again afterwards, as it was, with what was made
    meanwhile counted as long-lived."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            # What was made meanwhile is all in the youngest generation, which the first collection after this
            # would walk whole (2 s for an export's catalog at 10,000 products): it goes to the oldest, as what
            # lives long does. A cycle among it is still found, by the next full collection.
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _load_all(files: list[Path]):
    """Per-file work: the files the content cache holds read here, one after another (reading an entry costs far
    less than sending its result back from another process), the others parsed on every core for large trees (fork
    keeps start-up cheap); in order, so output is stable."""
    with paused_gc():
        found = [_load_one(path, kept_only=True) for path in files] if content_cache.store() else [None] * len(files)
    missing = [path for path, result in zip(files, found, strict=True) if result is None]
    workers = os.cpu_count() or 1
    if len(missing) < PARALLEL_FROM_FILES or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        parsed = iter([_load_one(path) for path in missing])
    else:
        with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            parsed = iter(list(pool.map(_load_one, missing, chunksize=max(16, len(missing) // (workers * 8)))))
    return [result if result is not None else next(parsed) for result in found]


def check(paths: Sequence[Path] = (), today: datetime.date | None = None,
          cache: LoadCache | None = None) -> Result:
    """Load every record, validate it against its schema, run every rule; return all problems. With `cache`,
    files unchanged since its last run are not parsed again."""
    problems: list[Problem] = []
    records: list[Record] = []
    files = discover(paths)
    problems.extend(unread_files(paths, files))
    for kind, loaded, file_problems in (cache.load(files) if cache else _load_all(files)):
        problems.extend(file_problems)
        if kind is not None and loaded.data is not None:
            records.append(Record(kind, loaded))

    # A record's chipset resolves within its own data tree (data/adapters/x.yaml -> data/chipsets/),
    # even when only some files were named on the command line.
    chipset_ids = {r.data.get("id") for r in records if r.kind == "chipset"}
    chipset_links = {r.data.get("id"): _links(r.data) for r in records if r.kind == "chipset"}
    for folder in {os.path.dirname(os.path.dirname(os.path.abspath(r.path))) for r in records if r.kind == "adapter"}:
        for path in (Path(folder) / KIND_DIRS["chipset"]).glob("*.yaml"):
            chipset_ids.add(path.stem)
            if path.stem not in chipset_links:  # a chip record not named on the command line: read it for its links
                chipset_links[path.stem] = _links(load_file(path).data)
    ctx = Context(chipset_ids=chipset_ids, today=today or today_for_checks(),
                  chipset_links={k: v for k, v in chipset_links.items() if v and isinstance(k, str)})

    rules = checking_rules()
    per_record = [rule for rule in rules if rule.scope != "tree"]
    context_key = (frozenset(chipset_ids), frozenset(ctx.chipset_links.items()), ctx.today, id(ctx.kernel), id(ctx.usbids))
    # The same context as the content cache's part of a key (the reference tables are in its code version).
    store = content_cache.store()
    context_digest = content_cache.content_digest(repr((sorted(map(repr, chipset_ids)), sorted(ctx.chipset_links.items()),
                                                        ctx.today.isoformat())).encode()) if store else ""
    if cache:
        cache.context = (ctx, context_key, context_digest)
    for record in records:
        known = cache.findings.get(record.path) if cache else None
        if known and known[0] == record.text and known[1] == context_key:
            problems.extend(known[2])
            continue
        found = _record_findings(record, per_record, ctx, store, context_digest)
        if cache:
            cache.findings[record.path] = (record.text, context_key, found)
        problems.extend(found)
    if cache:
        for gone in set(cache.findings) - {record.path for record in records}:
            del cache.findings[gone]
    problems.extend(problem for _, problem in tree_findings(records, ctx))
    # Each data/ folder involved may hold a waivers.yaml (the real tree's acknowledges its expected warnings).
    roots = {os.path.dirname(os.path.dirname(os.path.abspath(r.path))) for r in records} if paths else {str(DATA_DIR)}
    checked = {os.path.abspath(r.path) for r in records}
    problems.extend(removal_problems(sorted(roots), records, display_path))
    problems, waived = apply_waivers(sorted(roots), problems, checked, display_path)
    return Result(records, sorted(problems, key=Problem.sort_key), waived)


def check_record(path: Path, cache: LoadCache) -> tuple[Record | None, list[Problem]]:
    """One record file read, schema-checked and put through the per-record rules, in the context the last `check`
    with `cache` gave them (its chipsets, today, the reference tables), as that `check` would for this file; what
    it finds is kept in `cache` for the next `check`. The tree's rules, removal notes and waivers are not run here.
    (None, []) when no `check` ran with this cache, or the day has changed since."""
    if cache.context is None:
        return None, []
    ctx, context_key, context_digest = cache.context
    if ctx.today != today_for_checks():
        return None, []
    kind, loaded, problems = cache.load_one(path)
    if kind is None or loaded.data is None:
        return None, problems
    record = Record(kind, loaded)
    known = cache.findings.get(record.path)
    if known and known[0] == record.text and known[1] == context_key:
        return record, problems + known[2]
    store = content_cache.store() if context_digest else None
    found = _record_findings(record, [rule for rule in checking_rules() if rule.scope != "tree"], ctx, store, context_digest)
    cache.findings[record.path] = (record.text, context_key, found)
    return record, problems + found


def tree_findings(records: Sequence[Record], ctx: Context) -> list[tuple[Record, Problem]]:
    """What the tree's rules (scope "tree") find in these records, each finding with its record, as `check`
    reports them."""
    found = []
    for rule in checking_rules():
        if rule.scope != "tree":
            continue
        for record, finding in _safe_tree(rule, [r for r in records if r.kind in rule.kinds], ctx):
            found.append((record, record.loaded.problem(finding.field, finding.message, finding.fix, rule.id,
                                                        finding.severity or rule.severity)))
    return found


def _record_findings(record: Record, rules: list[Any], ctx: Context, store: content_cache.Store | None,
                     context_digest: str) -> list[Problem]:
    """What the per-record rules find in one record. A per-record rule sees the record (its bytes, kind and file
    name) and the context (chipset ids and links, today, the reference tables), nothing else, so its findings are
    kept in the content cache under those; they are kept without the file's path, which a copy of the tree changes."""
    key = (store.key("findings", record.kind, os.path.basename(record.path), record.loaded.digest, context_digest)
           if store and record.loaded.digest else "")
    known = store.get(key) if key and store else None
    if not (isinstance(known, list) and all(isinstance(f, tuple) and len(f) == 7 and type(f[5]) is int
                                            and type(f[6]) is int for f in known)):
        seen_by_rules = _without_too_long(record)
        # Each with its line and column (they follow from the file's bytes): read back, a finding needs no marks.
        known = [(finding.field, finding.message, finding.fix, rule.id, finding.severity or rule.severity,
                  *record.loaded.position(finding.field))
                 for rule in rules if record.kind in rule.kinds for finding in _safe(rule, seen_by_rules, ctx)]
        if key and store:
            store.put(key, known)
    return [Problem(record.path, line, column, tuple(field_path), message, fix, rule_id, severity)
            for field_path, message, fix, rule_id, severity, line, column in known]


def _without_too_long(record: Record) -> Record:
    """The record as the per-record rules see it: without the values the schema already refused as too long
    (`schema-maxlength`). The schema's error says what is wrong with such a value; no rule spends time on it (a
    256 KiB evidence block once kept the issue bot busy for seconds), and no rule adds a second opinion of it."""
    too_long = [p.field for p in record.loaded.problems if p.rule == "schema-maxlength" and p.field]
    if not too_long:
        return record
    data = copy.deepcopy(record.data)
    for path in too_long:
        parent: Any = data
        for step in path[:-1]:
            if isinstance(parent, dict):
                parent = parent.get(step)
            elif isinstance(parent, list) and isinstance(step, int) and step < len(parent):
                parent = parent[step]
            else:
                parent = None
        if isinstance(parent, dict) and isinstance(path[-1], str):
            parent.pop(path[-1], None)
        elif isinstance(parent, list) and isinstance(path[-1], int) and path[-1] < len(parent):
            parent[path[-1]] = ""
    return Record(record.kind, dataclasses.replace(record.loaded, data=data))


def _links(data: Any) -> tuple[str, ...]:
    """A chipset record's `drive_links` as a tuple of text, or () when absent or malformed (the schema reports that)."""
    links = data.get("drive_links") if isinstance(data, dict) else None
    return tuple(x for x in links if isinstance(x, str)) if isinstance(links, list) else ()


# What a rule may trip over on data the schema rejected (or on values no rule anticipated).
_RULE_TRIPS = (AttributeError, TypeError, KeyError, ValueError, OverflowError, IndexError, RecursionError)


def _safe(rule, record: Record, ctx: Context) -> Iterable[Finding]:
    """Rules read data the schema may have rejected; a rule tripping over bad shape stays silent
    because the schema problem for that field is already reported. On a record the schema accepted,
    the trip is reported as a problem of that rule (never a traceback)."""
    try:
        return list(rule.check(record, ctx))
    except _RULE_TRIPS as exc:
        if any(p.severity == "error" for p in record.loaded.problems):
            return []
        return [Finding((), f"this check could not finish on the record ({type(exc).__name__}: {str(exc)[:120]})",
                        "look for an unusual value in the record; if it is valid, report it as a uasdb bug")]


def _safe_tree(rule, records: list[Record], ctx: Context):
    try:
        return list(rule.check(records, ctx))
    except _RULE_TRIPS:
        clean = [r for r in records if not any(p.severity == "error" for p in r.loaded.problems)]
        try:
            return list(rule.check(clean, ctx))
        except _RULE_TRIPS as exc:
            return [(r, Finding((), f"this check could not finish ({type(exc).__name__}: {str(exc)[:120]})",
                                "look for an unusual value in the records; if they are valid, report it as a uasdb bug"))
                    for r in clean[:1]]
