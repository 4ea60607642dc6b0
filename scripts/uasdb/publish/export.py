"""Export records with their computed verdicts: the data Hugo renders and the static JSON API.

`uasdb export --out DIR [--data TREE ...]` builds one catalog in memory (`build`: the records, their verdicts and
what is known besides) and writes it as pages' models (publish/, which says which file holds what):
  DIR/data/common.json         what every page shares; DIR/data/pages.json which pages Hugo makes;
  DIR/data/names.json          every product's name by id (the one copy pages look names up in)
  DIR/api/v1/...               one file per page and entity: the page's model and its JSON API file at once
                               (API.md documents them), read by Hugo as resources and published unchanged
  DIR/static/api/v1/...        the API files no page reads (adapters.json, the browser tools' shards)
  DIR/static/adapters.csv      one row per adapter
  DIR/static/adapters/<id>/    a redirect page for each removed record (data/removed.yaml)
`build` is a list of named steps, each returning data: the page modules make their part of the catalog
(adapter.py, usb.py, chipset.py, lists.py, buy.py, home.py), and what Linux, usb.ids and smartmontools know
(kernel.py, see docs/kernel.md), what distributions set (distributions.py), how common each ID is
(linux-hardware.org, linuxhw.py), the expectations and the answers (verdicts/) are joined on in turn.
Every JSON file of the API is wrapped as {"schema_version", "generated_at", "result"}.
The export refuses to run on data with errors, so nothing invalid or partial is published.
`--data` points at other record trees (folders holding adapters/ and chipsets/), e.g. the
test fixtures the browser tests build their site from.
"""
from __future__ import annotations

import datetime
import hashlib
import os
import posixpath
import shutil
import subprocess
import sys
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..paths import DATA_DIR, REPO_ROOT, Folder, OutsideFolder, walk_files
from ..records import cache as content_cache
from ..records.database import KIND_DIRS, LoadCache, Record, check, paused_gc, relative_to, today_for_checks
from ..records.loader import Loaded
from ..records.reference import load_kernel, load_linuxhw
from ..records.rules.removals import removal_notes
from ..verdicts.answer import with_answers
from ..verdicts.expectations_cache import with_expectations
from . import api_index, probebuild
from .adapter import BuildCache, adapter_entries
from .buy import BUY_PLATFORMS, buy_rankings
from .chipset import chipset_entries
from .common import HOST_LABELS, site_constants
from .distributions import distribution_facts, with_distributions
from .files import Manifest, export_files
from .home import latest_reports
from .kernel import with_reference
from .linuxhw import with_popularity, with_wanted
from .lists import LISTS, list_catalog, quirk_line_fit
from .report_link import report_form, report_query
from .usb import slot_texts, usb_slots


def _generated_at(pathspecs: Sequence[str] = ("data",)) -> str:
    # Reproducible builds: honour SOURCE_DATE_EPOCH, else the last commit touching the data, else now.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        epoch = _git(["log", "-1", "--format=%ct", "--", *pathspecs]) or None
    moment = datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch else datetime.datetime.now(datetime.UTC)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _git(args: list[str]) -> str:
    pathspecs = args[args.index("--") + 1:] if "--" in args else []
    if any(os.path.isabs(spec) for spec in pathspecs):
        return ""  # a tree outside the repository (`_pathspecs` keeps those absolute): git refuses it, unasked
    try:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _last_changes(pathspecs: Sequence[str] = ("data",)) -> dict[str, dict[str, str]]:
    """First and last commit date of every data file, from one `git log` call."""
    output = _git(["log", "--format=@%cs", "--name-only", "--", *pathspecs])
    dates: dict[str, dict[str, str]] = {}
    current = ""
    for line in output.splitlines():
        if line.startswith("@"):
            current = line[1:]
        elif line.strip():
            entry = dates.setdefault(line.strip(), {"changed": current})
            entry["added"] = current  # log runs newest first, so the last one seen is the first commit
    return dates


def inputs_digest(data_dirs: Sequence[Path], files: dict[str, str] | None = None) -> str:
    """A digest of everything an export of these record trees reads that can change while a process runs: every
    file under the trees (its path and bytes: records, waivers, removal notes; a link as its target), and git's
    dates for them. The code, the schema and the reference tables are read once per process (records/cache.py's
    code version covers them for what is kept on disk). Two equal digests in one process mean the same export: the
    watcher stops there. Plain os calls on text paths: at 10,000 records pathlib's objects cost most of the time. `files`, when given, is filled with each file's own digest."""
    trees = [os.fspath(d) for d in data_dirs]
    digest = hashlib.sha256()
    for path, is_link in sorted(entry for tree in trees for entry in _tree_files(tree)):
        try:
            if is_link:
                content = b"link\0" + os.fsencode(os.readlink(path))
            else:
                with open(path, "rb") as handle:
                    content = b"file\0" + handle.read()
        except OSError as error:
            content = f"unreadable\0{error.errno}".encode()
        digest.update(f"{path}\0{len(content)}\0".encode("utf-8", "surrogateescape"))
        digest.update(content)
        if files is not None:  # each file's own digest, for the watcher to tell which file an edit changed
            files[path] = hashlib.sha256(content).hexdigest()
    digest.update(_git(["log", "--format=@%cs", "--name-only", "--", *_pathspecs([Path(t) for t in trees])]).encode())
    return digest.hexdigest()


def _tree_files(tree: str, top: bool = True) -> list[tuple[str, bool]]:
    """Every file under `tree` (path, whether it is a link), not following links, except a record folder right
    under the tree that is one (data/chipsets -> elsewhere), which `check` reads as `discover` does."""
    found: list[tuple[str, bool]] = []
    try:
        entries = list(os.scandir(tree))
    except OSError:
        return found
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            found += _tree_files(entry.path, top=False)
        elif top and entry.is_symlink() and entry.name in KIND_DIRS.values() and os.path.isdir(entry.path):
            found += [(entry.path, True)] + _tree_files(entry.path, top=False)
        else:
            found.append((entry.path, entry.is_symlink()))
    return found


def _pathspecs(trees: Sequence[Path]) -> list[str]:
    return [relative_to(str(t), REPO_ROOT) for t in trees]


def build(records: Sequence[Record], pathspecs: Sequence[str] = ("data",), cache: BuildCache | None = None
          ) -> dict[str, Any]:
    """The catalog of these records: everything the export's files are made from. Each step returns data (the
    `with_` ones the catalog with their facts added) and changes nothing it is given. With `cache`, adapters
    whose record text is unchanged since an earlier call reuse what that call worked out for them. (The watcher's
    first phase makes one product's page from the last catalog instead: publish/preview.py.)"""
    site, chipsets, verdict_by_id, distributions = sources_catalog(records, pathspecs, cache)
    site = with_expectations(site, [r.data for r in records if r.kind == "adapter"], verdict_by_id,
                             distributions, list(chipsets.values()), kept=cache is None,
                             memo=cache.expectations if cache else None)
    site = with_answers(site, verdict_by_id)
    return _with_page_facts(site, chipsets, verdict_by_id)  # each product's page is made as its file is written


def sources_catalog(records: Sequence[Record], pathspecs: Sequence[str] = ("data",), cache: BuildCache | None = None
                    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Any], list[dict[str, Any]]]:
    """The steps of `build` before the expectations: the catalog of the records with each source's facts joined
    on; with the chipsets by id, the verdicts by adapter id and the distributions, which the later steps read."""
    chipsets = {r.data["id"]: r.data for r in records if r.kind == "chipset"}
    distributions = [r.data for r in records if r.kind == "distribution"]
    shipped, linuxhw, kernel_table = distribution_facts(distributions, HOST_LABELS), load_linuxhw(), load_kernel()
    adapters, verdict_by_id = adapter_entries(records, chipsets, _last_changes(pathspecs), cache)
    # Every USB ID with a page, made once: those the records report, then those distributions ship a quirk for,
    # linux-hardware.org counts and Linux's own tables list, so each step below finds the slot it adds to.
    usb = usb_slots(adapters, chipsets, verdict_by_id,
                    [*shipped, *(f"{d['vid']}:{d['pid']}" for d in linuxhw["devices"]), *kernel_table.ids()])
    site = _catalog(adapters, chipset_entries(chipsets, adapters, verdict_by_id), usb,
                    list_catalog(adapters, verdict_by_id, usb))
    # Then each source's facts, in turn: what distributions ship, how common linux-hardware.org finds each ID, and
    # what Linux, usb.ids and smartmontools know (kernel.py); then what follows from them all.
    site = with_distributions(site, distributions, shipped)
    site = with_popularity(site, linuxhw)
    site = with_reference(site, kernel_table, kernel_of=cache.adapter_kernel if cache else None)
    site = with_wanted(site)
    return site, chipsets, verdict_by_id, distributions


def _catalog(adapters: list[dict[str, Any]], chipsets: list[dict[str, Any]], usb: dict[str, dict[str, Any]],
             lists: dict[str, Any]) -> dict[str, Any]:
    """The catalog of the records alone, with the site's constants and the counts."""
    return {"adapters": adapters, "chipsets": chipsets, "usb": dict(sorted(usb.items())), "lists": lists,
            **site_constants(),
            "counts": {"adapters": len(adapters), "chipsets": len(chipsets), "usb_ids": len(usb),
                       "reports": sum(len(a["reports"]) for a in adapters), **{name: len(lists[name]) for name in LISTS}}}


def _with_page_facts(site: dict[str, Any], chipsets: dict[str, dict[str, Any]], verdict_by_id: dict[str, Any]) -> dict[str, Any]:
    """The catalog with what pages work out once every source's facts are on it: the naughty line's fit, each
    ID's texts (usb.slot_texts), the what-to-buy rankings, the latest reports and the report link."""
    kernel_version = (site.get("kernel") or {}).get("version")
    return dict(site, lists=dict(site["lists"], **quirk_line_fit(site["lists"])),
                usb={key: dict(slot, **slot_texts(key, slot, chipsets, kernel_version)) for key, slot in site["usb"].items()},
                buy=buy_rankings(site["adapters"], verdict_by_id), buy_order=list(BUY_PLATFORMS),
                latest_reports=latest_reports(site["adapters"]), report_query=report_query())


def write(out_dir: Path, site: dict[str, Any], generated_at: str, stamp: str = "") -> None:
    """Make OUT hold exactly the export's files. A file whose bytes are already there is left alone (its time too,
    so Hugo, rsync and CI caches see what really changed); the others are written, and every other file in OUT is
    removed. An OUT holding anything but plain folders and files (a link) is emptied first, as it always was.
    With the content cache on, what this writes is noted (files.Manifest), with `stamp` (the inputs, inputs_stamp):
    the next export into OUT neither encodes nor reads back a file whose inputs and state on disk are unchanged
    since, and one of the same stamp finds OUT as this one left it and stops there (`unchanged_export`)."""
    existing = _plain_files(out_dir)
    if existing is None:
        shutil.rmtree(out_dir)
        existing = set()
    store = content_cache.store()
    manifest = _manifest(store, out_dir) if store else None
    produced = set()
    folders = set()  # made already
    guard = Folder(out_dir)
    for relative, parts in export_files(site, generated_at, known=manifest):
        where = guard.checked(relative)  # relative paths as posix text: no Path per file (20,000 at scale)
        relative = posixpath.normpath(relative)  # as the listing of OUT spells it
        produced.add(relative)
        mark = getattr(parts, "fingerprint", None)
        if manifest is not None and relative in existing and manifest.kept(relative, mark):
            continue
        path = Path(where)
        if not (relative in existing and _holds(path, parts)):
            if path.parent not in folders:
                path.parent.mkdir(parents=True, exist_ok=True)
                folders.add(path.parent)
            # Written beside and moved in place: adapters.json's parts may be read from the file it replaces.
            staging = path.with_name(f".{path.name}.{os.getpid()}.part")
            with staging.open("w", encoding="utf-8") as out:
                out.writelines(parts)
            os.replace(staging, path)
        if manifest is not None:
            manifest.note(relative, mark)
    for stale in sorted(existing - produced):
        (out_dir / stale).unlink()
    for folder, _, _ in sorted(os.walk(out_dir), reverse=True):  # deepest first: folders the export left empty
        if folder != str(out_dir) and not os.listdir(folder):
            os.rmdir(folder)
    if store is not None and manifest is not None:
        store.put(_manifest_key(store, out_dir), manifest.entry(stamp, site.get("counts")))


def _manifest_key(store: content_cache.Store, out_dir: Path) -> str:
    return store.key("export-manifest", os.path.realpath(out_dir))


def _manifest(store: content_cache.Store, out_dir: Path) -> Manifest:
    return Manifest(out_dir, store.get(_manifest_key(store, out_dir)))


def inputs_stamp(trees: Sequence[Path], ignore_rules: Collection[str] = ()) -> str:
    """A digest of everything an export of these record trees reads besides the code and the reference tables (the
    content cache's code version, which keys the manifest that keeps this): every file under the trees with git's
    dates for them (inputs_digest), where the trees are and where this runs (the export names records' paths),
    the rules left out, the envelope's time, today (rules bound to dates can refuse the data), the issue form the
    report links fill in, and API.md (the /api/v1/ page)."""
    try:
        api_doc = content_cache.content_digest(api_index.API_DOC.read_bytes())
    except OSError:
        api_doc = "unreadable"
    return content_cache.content_digest(repr((
        inputs_digest(trees), [(str(t), os.path.realpath(t)) for t in trees], os.getcwd(), sorted(ignore_rules),
        _generated_at(_pathspecs(trees)), today_for_checks().isoformat(), repr(report_form()), api_doc,
    )).encode("utf-8", "surrogateescape"))


def unchanged_export(out_dir: Path, trees: Sequence[Path], stamp: str | None = None) -> dict[str, Any] | None:
    """The counts of the last export into OUT when it was made from the same inputs (inputs_stamp) by the same code
    and OUT still holds exactly what it wrote, each file as it left it (size, times, inode): then this export
    would write the same bytes, and there is nothing to do. None otherwise (or with the cache off). `stamp` is
    inputs_stamp(trees) when the caller worked it out already."""
    store = content_cache.store()
    if store is None:
        return None
    manifest = _manifest(store, out_dir)
    if not manifest.stamp or manifest.stamp != (stamp if stamp is not None else inputs_stamp(trees)):
        return None
    found = _plain_files(Path(out_dir))
    if not found or not manifest.intact(found):
        return None
    counts = manifest.counts
    return counts if all(isinstance(counts.get(k), int) for k in ("adapters", "chipsets", "usb_ids")) else None


def _plain_files(out_dir: Path) -> set[str] | None:
    """The files in OUT (relative, posix), or None when OUT holds a link or anything else but folders and regular
    files. One scandir per folder, no stat per file: OUT holds 20,000 files at 10,000 products."""
    found: set[str] = set()
    if not out_dir.exists():
        return found
    if not out_dir.is_dir() or out_dir.is_symlink():
        return None
    for relative, entry in walk_files(out_dir):
        if not entry.is_file(follow_symlinks=False):
            return None
        found.add(relative)
    return found


def _holds(path: Path, parts: Iterable[str]) -> bool:
    """Whether the file at `path` holds exactly these pieces of text, read piece by piece (adapters.json is
    hundreds of MB at 10,000 products and is never joined into one string)."""
    try:
        with path.open("rb") as held:
            for part in parts:
                data = part.encode("utf-8")
                if held.read(len(data)) != data:
                    return False
            return held.read(1) == b""
    except OSError:
        return False


def record_folders(trees: Sequence[Path]) -> list[Path]:
    """The record folders (adapters/, chipsets/, distributions/) that exist in these data trees."""
    return [Path(t) / folder for t in trees for folder in KIND_DIRS.values() if (Path(t) / folder).is_dir()]


def prepare(data_dirs: Sequence[Path] | None = None, ignore_rules: Collection[str] = (),
            cache: LoadCache | None = None,
            build_cache: BuildCache | None = None) -> tuple[dict[str, Any], str] | None:
    """Check the record trees (default: data/) and build the export: (site, generated_at), or None (and the
    problems on stderr) when the data has errors. `cache` keeps unchanged files parsed and checked between calls,
    `build_cache` their adapters' verdicts and charts (both for the watcher)."""
    content_cache.forget_made_from()  # what the last export noted: held no longer
    trees = [Path(d) for d in (data_dirs or [DATA_DIR])]
    missing = [str(t) for t in trees if not t.is_dir()]
    if missing:
        print(f"export: no such data folder: {', '.join(missing)} (give folders holding adapters/ and chipsets/)",
              file=sys.stderr)
        return None
    paths = record_folders(trees)
    result = check(paths, cache=cache) if paths else check([])
    errors = [p for p in result.errors if p.rule not in ignore_rules]
    if errors:
        for problem in errors:
            print(problem.render(), file=sys.stderr)
        print(f"export refused: {len(errors)} error(s) in the data (run `uasdb validate`)", file=sys.stderr)
        return None
    pathspecs = _pathspecs(trees)
    # Removed records' addresses (data/removed.yaml, already checked): each becomes a redirect page.
    removed = [{k: note[k] for k in ("id", "kind", "redirect", "reason")}
               for tree in trees for note in removal_notes(tree, str)[0]]
    # What the export reads of each record: its kind, file and data (and its text, which BuildCache compares, and
    # the digest of its bytes, which keys what the content cache keeps of it). The
    # parse's marks (where each value sits) served the check and go now: at 10,000 records they are 300 MB.
    records = [Record(r.kind, Loaded(r.path, r.data, text=r.text if build_cache else "", digest=r.loaded.digest))
               for r in result.records]
    del result
    site = build(records, pathspecs, build_cache)
    return dict(site, removed=removed), _generated_at(pathspecs)


def export_tree(out_dir: Path, data_dirs: Sequence[Path] | None = None,
                ignore_rules: Collection[str] = (), stamp: str | None = None) -> dict[str, Any] | None:
    """Check the record trees (default: data/) and write the export; None (and the problems on stderr) when
    the data has errors. `ignore_rules` exists for tests that must publish deliberately unsafe text. `stamp` is
    _stamp(trees, ignore_rules) when the caller worked it out already."""
    trees = [Path(d) for d in (data_dirs or [DATA_DIR])]
    # Worked out before the records are read: an edit while this runs leaves a stamp the next export does not match.
    if stamp is None:
        stamp = _stamp(trees, ignore_rules)
    try:
        with paused_gc():  # the whole catalog is made and written: see paused_gc
            prepared = prepare(data_dirs, ignore_rules)
            if prepared is None:
                return None
            site, generated_at = prepared
            write(out_dir, site, generated_at, stamp)
    finally:
        content_cache.forget_made_from()  # the values it names go with the catalog, not at the process's end
    return site


def _stamp(trees: Sequence[Path], ignore_rules: Collection[str] = ()) -> str:
    """inputs_stamp, or "" (nothing noted, nothing believed) with the content cache off or a tree missing."""
    return inputs_stamp(trees, ignore_rules) if content_cache.store() and all(t.is_dir() for t in trees) else ""


def run_export(out_dir: Path, data_dirs: Sequence[Path] | None = None) -> int:
    trees = [Path(d) for d in (data_dirs or [DATA_DIR])]
    stamp = _stamp(trees)  # hashes every file of the trees: once, for both the check below and the export
    counts = unchanged_export(out_dir, trees, stamp) if stamp else None
    if counts is not None:
        print(f"exported {counts['adapters']} adapters, {counts['chipsets']} chipsets, {counts['usb_ids']} USB IDs to "
              f"{out_dir} (nothing changed since the last export there)")
        return 0
    try:
        site = export_tree(out_dir, data_dirs, stamp=stamp)
    except probebuild.BundleError as error:
        print(f"error: cannot build /probe.py: {error}", file=sys.stderr)
        return 1
    except api_index.ApiDocError as error:
        print(f"error: cannot write the /api/v1/ page: {error}", file=sys.stderr)
        return 1
    except OutsideFolder as error:
        print(f"error: export refused: {error} (run `uasdb validate`)", file=sys.stderr)
        return 1
    if site is None:
        return 1
    counts = site["counts"]
    print(f"exported {counts['adapters']} adapters, {counts['chipsets']} chipsets, {counts['usb_ids']} USB IDs to {out_dir}")
    return 0
