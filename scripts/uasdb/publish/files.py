"""Every file of the export (`export_files`), each written in the API's envelope where it is JSON, and the helpers
that encode them once. Which files there are: publish/__init__.py."""
from __future__ import annotations

import codecs
import csv
import hashlib
import html
import io
import json
import marshal
import os
import tempfile
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..records import cache as content_cache
from ..records.reference import load_usbids
from ..records.rules.removals import PAGE_FOLDERS
from ..records.vocabulary import LIST_PLATFORMS, PLATFORMS
from . import adapter as adapter_page
from . import api_index, probebuild
from . import buy as buy_page
from . import chipset as chipset_page
from . import lists as lists_page
from . import usb as usb_page
from .common import common, pages, product_names
from .home import home
from .rows import adapter_row
from .search_vocabulary import VOCABULARY_FILE, vocabulary

API_SCHEMA_VERSION = 1
# Where the export's Hugo data go: a folder of its own, which site/hugo.yaml mounts as Hugo's data/generated/,
# so `make serve` can replace a file whole (watch.py) while Hugo's server watches the folder.
COMMON_JSON = "data/common.json"
PAGES_JSON = "data/pages.json"
NAMES_JSON = "data/names.json"  # every product's name by id (common.product_names)
# The JSON API, published at /api/v1/, in two folders. A page's model goes to api/v1/, which site/hugo.yaml mounts
# once, as Hugo assets: the page reads it and publishes it, so Hugo's server re-renders the page when only its
# model changed. A file no page reads (adapters.json, the browser tools' shards) goes to static/api/v1/, published
# as it is. `api_file` finds either.
API = "api/v1"
PUBLISHED_API = "static/api/v1"


def with_pages(catalog: Mapping[str, Any], only: Collection[str]) -> list[dict[str, Any]]:
    """These adapters of the catalog, each with its `page` (publish/adapter.py), for the watcher's first phase,
    which writes their files alone. A full export makes each page as it writes the product's file (export_files)
    and holds none after: at 10,000 products they are 60 MB."""
    chipsets = {c["id"]: c for c in catalog["chipsets"]}
    return [dict(adapter, page=adapter_page.page(adapter, catalog, chipsets)) for adapter in catalog["adapters"]
            if adapter["id"] in only]


RELATED_PER_VENDOR = 5


def id_shards(catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """/api/v1/ids/<vid>/<first two digits of the pid>.json: the product IDs of that vendor the database has a file
    for, and up to five products of the vendor (what the check page offers when a pasted ID has no record). Small
    at any size: a vendor with thousands of IDs is split 256 ways."""
    related: dict[str, list[dict[str, str]]] = {}
    shards: dict[tuple[str, str], dict[str, Any]] = {}
    for key, slot in catalog["usb"].items():
        vid, pid = slot["vid"], slot["pid"]
        shards.setdefault((vid, pid[:2]), {"pids": [], "related": []})["pids"].append(pid)
        vendor = related.setdefault(vid, [])
        for adapter_id in slot["adapters"]:
            if len(vendor) < RELATED_PER_VENDOR and all(r["id"] != adapter_id for r in vendor):
                vendor.append({"id": adapter_id, "name": adapters[adapter_id]["name"], "usb_id": key})
    for (vid, _), shard in shards.items():
        shard["related"] = related[vid]
    return shards


def usbids_by_vendor(usbids: Any) -> dict[str, dict[str, Any]]:
    """/api/v1/usbids/<first two digits of the vid>.json: usb.ids' vendor names and storage product names
    ({"vendors": {vid: name}, "products": {vid:pid: name}}) of the vendor IDs that start so (256 small files)."""
    shards: dict[str, dict[str, Any]] = {}
    for vid, name in usbids.vendors.items():
        shards.setdefault(vid[:2], {"vendors": {}, "products": {}})["vendors"][vid] = name
    for key, name in usbids.products.items():
        shards.setdefault(key[:2], {"vendors": {}, "products": {}})["products"][key] = name
    return shards


def quirk_index(catalog: Mapping[str, Any]) -> dict[str, Any]:
    """/api/v1/quirk-index.json: the adapters whose reports needed a quirk line (the quirk builder's list)."""
    quirky = [{"id": a["id"], "name": a["name"], "vendor": a.get("vendor"), "model": a.get("model"),
               "chipset": a.get("chipset"), "chipset_name": a.get("chipset_name"),
               "usb_ids": [{"vid": u["vid"], "pid": u["pid"], **({"bcd_device": u["bcd_device"]} if u.get("bcd_device") else {})}
                           for u in a.get("usb_ids", [])],
               "quirk_entries": a["verdict"]["quirk_entries"], "quirk_sources": a["verdict"]["quirk_sources"],
               # Per platform where a quirk was needed, not needed, or tried in vain: the product's answer in words.
               "answers": [a["answers"][p]["sentence"] for p in a["answers"]
                           if a["answers"][p]["do"] in ("quirk", "quirk-applied", "not-needed", "tried")]}
              for a in catalog["adapters"] if a["verdict"]["quirk_entries"]]
    return {"adapters": quirky, "total": len(catalog["adapters"])}


def _wrap(result: Any, generated_at: str) -> dict[str, Any]:
    return {"schema_version": API_SCHEMA_VERSION, "generated_at": generated_at, "result": result}


# The verdict columns: the established ones (column, question, platform), in the order consumers know, then one
# `<platform>_uas` (and on a Pi `<platform>_boot`) for every other platform of the schema, so a platform added there
# gets its columns with no edit here.
_ESTABLISHED = [("pi4_uas", "uas", "pi4"), ("pi4_boot", "boot", "pi4"), ("pi5_uas", "uas", "pi5"), ("pi3", "uas", "pi3"),
                ("linux_uas", "uas", "linux"), ("macos_uas", "uas", "macos")]
_ESTABLISHED_PLATFORMS = {"pi4", "pi5", "pi3", "linux", "macos", "windows"}
VERDICT_COLUMNS = _ESTABLISHED + [column for name, spec in PLATFORMS.items() if name not in _ESTABLISHED_PLATFORMS
                                  for column in [(f"{name}_uas", "uas", name)]
                                  + ([(f"{name}_boot", "boot", name)] if spec["pi"] else [])]
CSV_COLUMNS = (["id", "name", "vendor", "model", "kind", "drive_interface", "chipset", "usb_ids", "list"]
               + [column for column, _, _ in VERDICT_COLUMNS] + ["quirk_line", "quirk_from"]
               + [f"{platform}_do" for platform in LIST_PLATFORMS] + ["reports"])


# What makes a spreadsheet read a cell as a formula (`=HYPERLINK(…)`, `+cmd|' /C calc'!A0`, `@SUM(1+1)`), the
# leads OWASP's "CSV Injection" page lists.
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell people can open in a spreadsheet: text that starts like a formula gets a leading apostrophe,
    which spreadsheets show as text and do not run (API.md says so; the JSON API keeps the value as it is)."""
    if isinstance(value, str) and value.startswith(FORMULA_LEADS):
        return "'" + value
    return value


def adapters_csv(adapters: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in adapters:
        v = a["verdict"]
        row = [a["id"], a["name"], a.get("vendor", ""), a.get("model", ""), a["kind"], a.get("drive_interface", ""),
               a.get("chipset", ""), " ".join(f"{u['vid']}:{u['pid']}" for u in a.get("usb_ids", [])),
               v["list"] or "", *[(v[question].get(platform) or {}).get("verdict", "") for _, question, platform in VERDICT_COLUMNS],
               v["quirk_line"] or "", "; ".join(f"{q['entry']}: {q['where']}" for q in v["quirk_sources"]),
               *[a["answers"][platform]["text"] for platform in LIST_PLATFORMS], len(a["reports"])]
        writer.writerow([spreadsheet_cell(cell) for cell in row])
    return out.getvalue()


def removed_page(note: dict[str, str]) -> str:
    """The page left at a removed record's address: it says why and sends the visitor to the record named in the
    note. The address is relative (`../<redirect>/`), so it holds under any base path the site is published at."""
    target, reason = html.escape(f"../{note['redirect']}/"), html.escape(note["reason"])
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta http-equiv="Content-Security-Policy" content="default-src \'self\'; script-src \'none\'; '
            'style-src \'self\'; object-src \'none\'; base-uri \'self\'">\n'
            f'<title>Removed: {html.escape(note["id"])}</title>\n<meta name="robots" content="noindex">\n'
            f'<meta http-equiv="refresh" content="0; url={target}">\n</head>\n'
            f'<body><p>This record was removed: {reason}. See <a href="{target}">{html.escape(note["redirect"])}</a>.'
            '</p></body>\n</html>\n')


def _dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def _spliced(payload: Any, placeholder: str, encoded: list[str]) -> list[str]:
    """`payload` as JSON, in pieces, with the string `placeholder` replaced by the pieces of already-encoded JSON:
    each adapter is encoded once and reused in adapters.json and its own file (the export's largest cost), and
    the big files are never joined into one string (their text is written piece by piece)."""
    text = _dumps(payload)
    quoted = _dumps(placeholder)
    assert text.count(quoted) == 1, "placeholder must occur exactly once"
    before, after = text.split(quoted)
    return [before, *encoded, after, "\n"]


_SCALARS = frozenset({str, int, float, bool, type(None)})


def same_json(a: Any, b: Any) -> bool:
    """Whether `a` and `b` encode to the same JSON: equal, and of the same types all the way down (Python takes
    360 for 360.0, JSON does not), keys in the same order. A shared object is the same as itself at once, so
    unchanged parts that the caches keep cost nothing to compare. (Loops rather than `all()` over generators, and
    scalars compared in place: the watcher compares every piece of every export, a million values at 1,000.)"""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if isinstance(a, dict):
        if len(a) != len(b):
            return False
        for (ka, va), (kb, vb) in zip(a.items(), b.items(), strict=True):  # same keys, same order, same values
            if ka != kb or not _same(va, vb):
                return False
        return True
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return False
        for x, y in zip(a, b, strict=True):
            if not _same(x, y):
                return False
        return True
    return bool(a == b)


def _same(a: Any, b: Any) -> bool:
    """same_json, with the common cases (the very object, a scalar) answered without a call."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _SCALARS:
        return bool(a == b)
    return same_json(a, b)


class EncodeMemo:
    """The JSON text of each piece of the last export (an adapter, one API file) with the value it encodes: an
    equal value is not encoded again. Comparing is much cheaper than encoding, above all when the values share
    the parts `BuildCache` keeps (`same_json` compares a shared object with itself by identity, and tells 1 from
    1.0). A piece may also give a fingerprint that must match too: an adapter gives the identity of its verdict,
    which `BuildCache` keeps only while the record's text is unchanged."""

    def __init__(self) -> None:
        self._previous: dict[Any, tuple[Any, Any, str]] = {}
        self._current: dict[Any, tuple[Any, Any, str]] = {}

    def start(self) -> None:
        """Begin an export: what the last one encoded is what this one may reuse."""
        self._previous, self._current = self._current, {}

    def dumps(self, key: Any, payload: Any, fingerprint: Any = None) -> str:
        known = self._previous.get(key)
        if known is not None and known[0] == fingerprint and same_json(known[1], payload):
            text = known[2]
        else:
            text = _dumps(payload)
        self._current[key] = (fingerprint, payload, text)
        return text


# Where already-encoded JSON goes into an envelope (_spliced); cannot occur in data: the loader refuses control
# characters.
ADAPTERS_PLACEHOLDER = "\u0000adapters\u0000"


class Spool:
    """The texts of adapters.json's items, in order, kept in an unnamed temporary file rather than in memory
    (hundreds of MB at 10,000 products), and read back as that file's pieces (`joined`) as often as the writer
    reads them: `export.write` compares them with the file on disk, then writes them. An item may also be a stretch
    of the adapters.json the last export wrote (`add_kept`: an adapter whose text is unchanged is not encoded again);
    `spans` says where each item will sit in the joined file, for the next export to find it there."""

    CHUNK = 1 << 20  # bytes read back at a time

    def __init__(self, head: str = "") -> None:
        self._file = tempfile.TemporaryFile("w+b")
        self._count = 0
        self._written = 0                       # bytes in the temporary file
        self._at = len(head.encode("utf-8"))    # where the next item starts in the joined file (`head` before it)
        # Where the joined text comes from, in order: (None, start, end) in the temporary file, (path, start, end)
        # in a file the last export wrote.
        self._segments: list[tuple[str | None, int, int]] = []
        self.spans: dict[str, tuple[bytes, int, int]] = {}

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def _put(self, data: bytes) -> None:
        self._file.write(data)
        if self._segments and self._segments[-1][0] is None:
            self._segments[-1] = (None, self._segments[-1][1], self._written + len(data))
        else:
            self._segments.append((None, self._written, self._written + len(data)))
        self._written += len(data)
        self._at += len(data)

    def _comma(self) -> None:
        if self._count:
            self._put(b",")
        self._count += 1

    def add(self, text: str, key: str | None = None, fingerprint: bytes | None = None) -> None:
        self._comma()
        start = self._at
        self._put(text.encode("utf-8"))
        if key is not None and fingerprint is not None:
            self.spans[key] = (fingerprint, start, self._at)

    def add_kept(self, path: str, start: int, end: int, key: str, fingerprint: bytes) -> None:
        """An item whose text is bytes start..end of the file at `path` (the last export's adapters.json)."""
        self._comma()
        self._segments.append((path, start, end))
        self.spans[key] = (fingerprint, self._at, self._at + end - start)
        self._at += end - start

    def joined(self, head: str, tail: str, fingerprint: bytes | None = None) -> SpooledParts:
        return SpooledParts(self, head, tail, fingerprint)

    def read_all(self) -> Iterator[str]:
        self._file.flush()
        decoder = codecs.getincrementaldecoder("utf-8")()
        handles: dict[str, Any] = {}
        try:
            for source, start, end in self._segments:
                handle: Any
                if source is None:
                    handle = self._file
                elif source not in handles:
                    handle = handles[source] = open(source, "rb")  # noqa: SIM115 - closed below
                else:
                    handle = handles[source]
                handle.seek(start)
                left = end - start
                while left > 0:
                    chunk = handle.read(min(self.CHUNK, left))
                    if not chunk:
                        raise OSError(f"{source} ended before byte {end}")
                    left -= len(chunk)
                    if text := decoder.decode(chunk):
                        yield text
            if text := decoder.decode(b"", final=True):
                yield text
        finally:
            for handle in handles.values():
                handle.close()
            self._file.seek(0, io.SEEK_END)  # further items are added at the end


class SpooledParts:
    """A file's text in pieces: `head`, every item the spool holds (comma-separated), `tail`. Iterable more than
    once, each time from the start, while the spool is open (export_files keeps it open until the writer asks
    for the next file). `fingerprint`: see `Lazy`."""

    def __init__(self, spool: Spool, head: str, tail: str, fingerprint: bytes | None = None) -> None:
        self._spool, self._head, self._tail = spool, head, tail
        self.fingerprint = fingerprint

    def __iter__(self) -> Iterator[str]:
        yield self._head
        yield from self._spool.read_all()
        yield self._tail


def fingerprint(value: Any, top: int = 0) -> bytes | None:
    """A digest of a JSON payload that two payloads share only when they are the same value, of the same types all
    the way down, keys in the same order (marshal's bytes tell 1 from 1.0 and keep a dict's order), so they encode
    to the same text; several times quicker than encoding it. A large dict or list is digested an item at a time
    (marshal makes one bytes object of the whole), and so are the `top` levels of a file that lists the whole
    catalog (its envelope and result: evaluation.json's bytes were 98 MB at once at 10,000 products). None for a
    value marshal cannot write: then the file is encoded and compared as always."""
    digest = hashlib.blake2b(digest_size=20)
    try:
        _fingerprint_into(digest, value, 3 + top, top)
    except (ValueError, TypeError):
        return None
    return digest.digest()


def _fingerprint_into(digest: Any, value: Any, depth: int, top: int = 0) -> None:
    """Into `digest`: `value`, a container of more than MANY items (or any, in the `top` levels) an item at a time
    down to `depth` levels, the rest as marshal's bytes of the whole."""
    kind = type(value)
    if depth and (kind is dict or kind is list) and (len(value) > MANY or top > 0):
        digest.update(b"D" if kind is dict else b"L")
        digest.update(len(value).to_bytes(8, "big"))
        if kind is dict:
            for key, item in value.items():
                _fingerprint_into(digest, key, 0)
                _fingerprint_into(digest, item, depth - 1, top - 1)
        else:
            for item in value:
                _fingerprint_into(digest, item, depth - 1, top - 1)
        return
    data = marshal.dumps(value, 2)  # version 2: no back-references, so the bytes follow the value alone, not its sharing
    digest.update(b"M")
    digest.update(len(data).to_bytes(8, "big"))
    digest.update(data)


def known_fingerprint(value: dict[str, Any]) -> bytes | None:
    """`fingerprint` of a dict some of whose values are known by what they were made from (records/cache.py,
    note_made_from: an adapter's verdict, chart and expectations): such a value's token is digested in its place,
    the other items in runs as marshal's bytes. As sound as the tokens: a token names every input of its value; one
    value digested by token here and by its bytes elsewhere gives two fingerprints, which costs an encoding only."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(b"K")
    run: list[tuple[str, Any]] = []
    try:
        for key, item in value.items():
            token = content_cache.made_from(item)
            if token is None:
                run.append((key, item))
                continue
            if run:
                _fingerprint_into(digest, run, 0)
                run = []
            _fingerprint_into(digest, key, 0)
            data = token.encode("utf-8", "surrogatepass")
            digest.update(b"T")
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        if run:
            _fingerprint_into(digest, run, 0)
    except (ValueError, TypeError):
        return None
    return digest.digest()


def combined(*fingerprints: bytes | None | str) -> bytes | None:
    """One fingerprint of several (None when one of them is None)."""
    digest = hashlib.blake2b(digest_size=20)
    for part in fingerprints:
        if part is None:
            return None
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.digest()


class Lazy:
    """A file's text in pieces, made only when first read, with the `fingerprint` of what it is made from: the
    writer (export.write) skips a file whose fingerprint and state on disk are those the last export left
    (Manifest), without encoding it or reading it back."""

    def __init__(self, fingerprint: bytes | None, make: Any) -> None:
        self.fingerprint = fingerprint
        self._make = make
        self._parts: list[str] | None = None

    def __iter__(self) -> Iterator[str]:
        if self._parts is None:
            self._parts = self._make()
        return iter(self._parts)


class Manifest:
    """What the last `export.write` into a folder left there, kept in the content cache (records/cache.py): each
    file's fingerprint (of what it was made from) and its state on disk (size, modification and change times, inode;
    the change time moves with any write, and no tool sets it back), and where each adapter's text sits in
    adapters.json. A file whose fingerprint is unchanged and whose state on disk is what the last export left holds
    what this export would write: it is neither encoded nor read. One changed or removed by hand since, or of a
    fingerprint that changed, is compared and written as always. A missing or damaged entry is an empty manifest:
    every file is compared, as without the cache."""

    ADAPTERS = f"{PUBLISHED_API}/adapters.json"

    def __init__(self, out_dir: Path, entry: Any = None) -> None:
        self.out_dir = Path(out_dir)
        self.files: dict[str, tuple[bytes, int, int, int, int]] = {}
        self.spans: dict[str, tuple[bytes, int, int]] = {}
        self.stamp, self.counts = "", {}  # the last export's inputs (export.inputs_stamp) and its counts
        try:
            files, spans, stamp, counts = entry
            if isinstance(files, dict) and isinstance(spans, dict) and isinstance(stamp, str) and isinstance(counts, dict):
                self.files, self.spans, self.stamp, self.counts = files, spans, stamp, counts
        except (TypeError, ValueError):
            pass
        # The spans hold only while adapters.json is the file the last export wrote, and only spans inside it.
        if not self.on_disk(self.ADAPTERS) or not self._spans_fit(self.files[self.ADAPTERS][1]):
            self.spans = {}
        self.written: dict[str, tuple[bytes, int, int, int, int]] = {}  # this export's, as `note` sees them
        self.new_spans: dict[str, tuple[bytes, int, int]] = {}

    def _spans_fit(self, size: int) -> bool:
        return all(type(span) is tuple and len(span) == 3 and type(span[0]) is bytes and type(span[1]) is int
                   and type(span[2]) is int and 0 <= span[1] <= span[2] <= size for span in self.spans.values())

    def _state(self, relative: str) -> tuple[int, int, int, int] | None:
        try:
            info = os.lstat(self.out_dir / relative)
        except OSError:
            return None
        return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino

    def on_disk(self, relative: str) -> bool:
        """Whether the file at `relative` is in the state the last export left it in."""
        known = self.files.get(relative)
        try:
            return known is not None and tuple(known[1:]) == self._state(relative)
        except TypeError:
            return False

    def kept(self, relative: str, fingerprint: bytes | None) -> bool:
        """Whether the file at `relative` holds what the last export wrote there from a value of this fingerprint, and
        when it does, `note` it (one look at the file)."""
        known = self.files.get(relative)
        try:
            if not fingerprint or known is None or known[0] != fingerprint:
                return False
            state = self._state(relative)
            if state is None or tuple(known[1:]) != state:
                return False
        except (TypeError, IndexError):  # an entry of the wrong shape: not believed
            return False
        self.written[relative] = (fingerprint, *state)
        return True

    def kept_span(self, key: str, fingerprint: bytes | None) -> tuple[str, int, int] | None:
        """Where the last adapters.json holds the text of adapter `key` made from a value of this fingerprint."""
        known = self.spans.get(key)
        if fingerprint is None or known is None or known[0] != fingerprint:
            return None
        return str(self.out_dir / self.ADAPTERS), known[1], known[2]

    def note(self, relative: str, fingerprint: bytes | None) -> None:
        """The file at `relative` now holds what a value of this fingerprint makes (None: a file without one, noted
        for `intact` only)."""
        state = self._state(relative)
        if state is not None:
            self.written[relative] = (fingerprint or b"", *state)

    def intact(self, files: Collection[str]) -> bool:
        """Whether OUT holds exactly the files the last export wrote (`files`, relative), each as it left it."""
        return bool(self.files) and set(files) == set(self.files) and all(self.on_disk(f) for f in self.files)

    def entry(self, stamp: str = "", counts: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        """What the cache keeps: the files as written, where adapters.json holds each adapter, and the inputs'
        stamp and counts of the export that wrote them."""
        return self.written, self.new_spans if self.ADAPTERS in self.written else {}, stamp, dict(counts or {})


# The API files that list the whole catalog (tens of MB at 10,000 products; evaluation.json 90 MB). `_dumps` makes
# such a text out of millions of small strings held at once, three to four times the text's size (330 MB for
# evaluation.json): these are encoded a part at a time instead (`Encoded`).
WHOLE_CATALOG_FILES = {"adapter-rows.json", "usb.json", "quirk-index.json", "lists.json", "evaluation.json",
                       "kernel.json", "wanted.json", "distributions.json", "usbids.json"}


MANY = 64  # items: a container with more, or holding one with more, is opened up by json_pieces


def json_pieces(value: Any, depth: int = 5, top: int = 2) -> Iterator[str]:
    """`_dumps(value)` in pieces: the `top` levels (the envelope and the result) and, below them down to `depth`
    levels, every container with more than MANY items or holding one are opened up and their items encoded one by
    one, the rest whole. Joined, the pieces are exactly `_dumps(value)` (a dict with a key that is not text, which
    JSON writes as text, is encoded whole)."""
    if not (depth and value and isinstance(value, (dict, list, tuple)) and (top > 0 or _large(value))) or (
            isinstance(value, dict) and not all(isinstance(key, str) for key in value)):
        yield _dumps(value)
    elif isinstance(value, dict):
        for n, (key, item) in enumerate(value.items()):
            yield ("," if n else "{") + _dumps(key) + ":"
            yield from json_pieces(item, depth - 1, top - 1)
        yield "}"
    else:
        for n, item in enumerate(value):
            yield "," if n else "["
            yield from json_pieces(item, depth - 1, top - 1)
        yield "]"


def _large(value: dict | list | tuple) -> bool:
    return len(value) > MANY or (isinstance(value, dict) and any(
        isinstance(item, (dict, list, tuple)) and len(item) > MANY for item in value.values()))


class Encoded:
    """A JSON file's text (`payload` and a newline) in pieces (`json_pieces`), made anew each time it is read:
    `export.write` reads it twice when the file on disk differs, once to compare and once to write."""

    def __init__(self, payload: Any, fingerprint: bytes | None = None) -> None:
        self._payload = payload
        self.fingerprint = fingerprint

    def __iter__(self) -> Iterator[str]:
        yield from json_pieces(self._payload)
        yield "\n"


def adapter_file(adapter_id: str, core: str, page: str, generated_at: str) -> tuple[str, list[str]]:
    """A product page's model and API file, api/v1/adapters/<id>.json: the adapter's JSON text without its page
    (as adapters.json holds it) with the page's text added."""
    return (f"{API}/adapters/{adapter_id}.json",
            _spliced(_wrap(ADAPTERS_PLACEHOLDER, generated_at), ADAPTERS_PLACEHOLDER, [core[:-1], ',"page":', page, "}"]))


def adapter_files(catalog: Mapping[str, Any], generated_at: str) -> Iterator[tuple[str, list[str]]]:
    """The product files of the adapters that have their page in `catalog` (those `with_pages` was given), as
    export_files writes them: the watcher's first phase writes these before the rest of the export."""
    for adapter in catalog["adapters"]:
        if "page" in adapter:
            yield adapter_file(adapter["id"], _dumps({k: v for k, v in adapter.items() if k != "page"}),
                               _dumps(adapter["page"]), generated_at)


def export_files(catalog: dict[str, Any], generated_at: str, memo: EncodeMemo | None = None,
                 known: Manifest | None = None) -> Iterator[tuple[str, Iterable[str]]]:
    """Every file of the export as (path relative to OUT, posix; its text in pieces), one file at a time: at
    10,000 adapters the files add up to hundreds of MB, and adapters.json is written piece by piece rather than
    joined (its pieces come from a temporary file, and can be read again, from the start, until the next file is
    asked for). `write` puts them on disk; the watcher behind `make serve` writes only those whose text changed since
    its last export, and passes `memo` so that unchanged pieces are not encoded again. Each product's page
    (publish/adapter.py) is made as its file is, unless the adapter has it already (`with_pages`). With `known`
    (the last export's Manifest, from `write`), each JSON file comes with the fingerprint of what it is made from and
    is encoded only when read (`Lazy`), and adapters.json takes an unchanged adapter's text from where the last one
    holds it."""
    assert memo is None or known is None, "the watcher's memo or the writer's manifest, not both"
    if memo is not None:
        memo.start()
    dumps = memo.dumps if memo is not None else (lambda key, payload, fingerprint=None: _dumps(payload))

    def as_json(path: str, payload: Any, folder: str = API) -> tuple[str, Iterable[str]]:
        wrapped = _wrap(payload, generated_at)
        if known is not None:
            mark = fingerprint(wrapped, 2 if path in WHOLE_CATALOG_FILES else 0)
            if path in WHOLE_CATALOG_FILES:
                return f"{folder}/{path}", Encoded(wrapped, mark)
            return f"{folder}/{path}", Lazy(mark, lambda: [_dumps(wrapped), "\n"])
        if memo is None and path in WHOLE_CATALOG_FILES:
            return f"{folder}/{path}", Encoded(wrapped)
        return f"{folder}/{path}", [dumps(path, wrapped), "\n"]

    chipsets = {c["id"]: c for c in catalog["chipsets"]}
    adapters = {a["id"]: a for a in catalog["adapters"]}
    # The long index pages and their filters (publish/facets.py), which pages.json hands each page in its params.
    usb_rows, chipset_rows = usb_page.index(catalog, adapters, chipsets), chipset_page.index(catalog)
    lists = lists_page.model(catalog, adapters)
    kernel = catalog.get("kernel") or {}
    # The naughty and nice pages' filters are in their model (lists.json), whose counts a verdict moves.
    filters = {"usb": usb_page.index_filters(usb_rows, kernel.get("version")),
               "chipsets": chipset_page.index_filters(chipset_rows)}
    def data_json(path: str, key: str, payload: Any) -> tuple[str, Iterable[str]]:  # unwrapped: Hugo's data
        if known is not None:
            return path, Lazy(fingerprint(payload), lambda: [_dumps(payload), "\n"])
        return path, [dumps(key, payload), "\n"]

    yield data_json(COMMON_JSON, COMMON_JSON, common(catalog, generated_at))
    yield data_json(PAGES_JSON, PAGES_JSON, pages(catalog, filters))
    yield data_json(NAMES_JSON, NAMES_JSON, product_names(catalog))
    yield data_json("data/api_index.json", "api-index", api_index.index_model(catalog))  # the /api/v1/ page
    yield data_json(VOCABULARY_FILE, VOCABULARY_FILE, vocabulary(catalog))  # the search's "did you mean"
    # Each adapter is encoded once without its page: its own file is that text with the page added, and
    # adapters.json (the whole database, 240 MB at 10,000 products) is those texts joined. Each product's file is
    # handed on as soon as its text is made; the texts wait for adapters.json in a temporary file, not in memory.
    # A verdict unchanged since the last export (the same object, BuildCache) is not encoded again.
    # With `known`, an adapter's text is made only when its file is read or adapters.json has no copy of it.
    head, tail = _dumps(_wrap(ADAPTERS_PLACEHOLDER, generated_at)).split(_dumps(ADAPTERS_PLACEHOLDER))
    head, tail = head + "[", "]" + tail + "\n"
    with Spool(head) as spool:
        marks: list[bytes | None] = [generated_at.encode()]
        for adapter in catalog["adapters"]:
            page = adapter["page"] if "page" in adapter else adapter_page.page(adapter, catalog, chipsets)
            core = {k: v for k, v in adapter.items() if k != "page"}
            if known is None:
                text = dumps(("adapter", adapter["id"]), core, id(adapter["verdict"]))
                spool.add(text)
                yield adapter_file(adapter["id"], text, dumps(("adapter-page", adapter["id"]), page), generated_at)
                continue
            mark = known_fingerprint(core)
            marks.append(mark)
            texts: list[str] = []

            def make(adapter_id: str = adapter["id"], core: Any = core, page: Any = page, texts: list[str] = texts) -> list[str]:
                texts.append(_dumps(core))
                return adapter_file(adapter_id, texts[0], _dumps(page), generated_at)[1]
            yield f"{API}/adapters/{adapter['id']}.json", Lazy(combined(adapter["id"], generated_at, mark, fingerprint(page)), make)
            kept = known.kept_span(adapter["id"], mark) if not texts else None
            if kept is not None:
                spool.add_kept(*kept, adapter["id"], mark)  # type: ignore[arg-type]  # mark is set when kept is
            else:
                spool.add(texts[0] if texts else _dumps(core), adapter["id"], mark)
        yield f"{PUBLISHED_API}/adapters.json", spool.joined(head, tail, combined(*marks) if known is not None else None)
        if known is not None:
            known.new_spans = spool.spans
    rows = {a["id"]: adapter_row(a, chipsets) for a in catalog["adapters"]}
    yield as_json("adapter-rows.json", list(rows.values()))
    yield as_json("chipsets.json", chipset_rows)
    for chipset in catalog["chipsets"]:
        yield as_json(f"chipsets/{chipset['id']}.json", chipset_page.model(chipset, catalog, rows))
    yield as_json("usb.json", usb_rows)
    for key, slot in catalog["usb"].items():
        model = usb_page.model(key, slot, catalog, adapters, rows, chipsets)
        # What the check page and the quirk builder need of the kernel for this ID, in kernel.json's shapes.
        model["check"] = {"builtin": (kernel.get("builtin") or {}).get(key, []), "groups": (kernel.get("groups") or {}).get(key, [])}
        yield as_json(f"usb/{slot['vid']}/{slot['pid']}.json", model)
    # The browser tools ask for the few files a paste or a line needs, never the whole database: which IDs have a
    # file (by vendor and the first two digits of the product ID), usb.ids names by vendor, the kernel's letters
    # and runtime checks without its per-ID tables, and the adapters that have a quirk line.
    shards = id_shards(catalog, adapters)
    for (vid, head), shard in shards.items():
        yield as_json(f"ids/{vid}/{head}.json", shard, PUBLISHED_API)
    usbids = load_usbids()
    names = usbids_by_vendor(usbids)
    for head, shard in names.items():
        yield as_json(f"usbids/{head}.json", shard, PUBLISHED_API)
    # Which of those shards exist, so the browser never asks for one that does not (a 404 it would log).
    yield as_json("shards.json", {"ids": sorted(f"{vid}/{head}" for vid, head in shards), "usbids": sorted(names)}, PUBLISHED_API)
    yield as_json("kernel-letters.json", {k: v for k, v in kernel.items() if k not in ("builtin", "groups")}, PUBLISHED_API)
    yield as_json("quirk-index.json", quirk_index(catalog))  # /quirks/ prints its pick list from it
    yield as_json("lists.json", lists)
    for buy in catalog["buy"].values():
        yield as_json(f"buy/{buy['slug']}.json", buy_page.model(buy, catalog, adapters))
    yield as_json("home.json", home(catalog))
    yield as_json("evaluation.json", catalog["expectation_evaluation"])
    yield as_json("kernel.json", catalog["kernel"])
    yield as_json("wanted.json", {"source": catalog["linuxhw"], "wanted": catalog["lists"]["wanted"]})
    yield as_json("distributions.json", {"distributions": catalog["distributions"],
                                         "by_usb_id": catalog["distribution_ids"]}, PUBLISHED_API)
    # Every usb.ids name in one file: the search asks for it when a query is an ID no record has.
    yield as_json("usbids.json", {"version": usbids.version, "vendors": usbids.vendors, "products": usbids.products},
                  PUBLISHED_API)
    yield "static/adapters.csv", [adapters_csv(catalog["adapters"])]
    for note in catalog.get("removed", []):
        yield f"static/{PAGE_FOLDERS[note['kind']]}/{note['id']}/index.html", [removed_page(note)]
    # The probe people download: uasdb/probe/ joined into one stand-alone file.
    yield "static/probe.py", [probebuild.bundle()]


def api_file(out_dir: Path, name: str) -> Path:
    """Where an export in OUT holds the API file `name` (e.g. "usb/174c/55aa.json"): api/v1/ for a page's model,
    static/api/v1/ for the rest."""
    model = Path(out_dir) / API / name
    return model if model.exists() else Path(out_dir) / PUBLISHED_API / name
