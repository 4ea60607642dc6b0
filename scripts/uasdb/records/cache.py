"""A persistent cache of the work that depends only on a file's bytes and on the code: each record parsed (with
its line marks) and schema-checked, and what the per-record rules found in it.

Why: a run of `uasdb validate`, the export or the issue bot (which checks a copy of the whole tree for every issue
body) parsed and checked every record again although almost none had changed since the last run. Keyed by content,
the work is done once per distinct file: a record read again costs reading its entry.

What a key holds: the sha256 of the file's bytes and everything else the result depends on (the record's kind and
file name, the rules' context), under a code version that changes with any source file of the package, the schema
files and the reference tables the rules read, and Python's and the parsers' versions. Whatever changes an answer
changes the key, so an entry is never a stale answer; nothing is ever invalidated, old versions are pruned.

Where: `.cache/uasdb/` in the checkout (`make clean` removes it), or UASDB_CACHE_DIR; UASDB_CACHE=off (or
`--no-cache` where a command offers it) turns it off. An entry is believed only when its own checksum matches: a
missing, truncated, garbled or unreadable entry, or a folder that cannot be written, is a miss and costs time only.
Entries are plain values (dicts, lists, tuples, text, numbers) in `marshal`'s format: reading one runs no code, and
it is several times quicker than unpickling the same objects (the cost of a warm run). One entry is not: the
expectations' memo (verdicts/expectations_cache.py), written and read as a stream (`put_stream`, `open_stream`) and
unpickled by an unpickler that makes only the memo's own classes.

What is kept, by whom: each record parsed and checked (records/database.py), each adapter's verdicts, summary, chart
and report link (publish/adapter.py), the expectations step's memo (verdicts/), and per output folder the
manifest of what the last export wrote there (publish/files.Manifest, publish/export.write).
"""
from __future__ import annotations

import hashlib
import marshal
import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO

import yaml

from ..paths import DATA_DIR, REPO_ROOT, SCHEMA_DIR

PACKAGE = Path(__file__).resolve().parents[1]
# The reference tables (generated, under data/) that the rules read through records.reference.
REFERENCE_GLOBS = ("kernel/linux-*.yaml", "usb-ids/*.yaml", "smartmontools/*.yaml", "linuxhw/*.yaml")
# Versions of the code kept on disk: the current one and the few before it (a branch switch back and forth).
KEEP_VERSIONS = 3
_CHECKSUM = 32  # bytes of sha256 in front of every entry


def enabled() -> bool:
    return os.environ.get("UASDB_CACHE", "").strip().lower() not in ("off", "0", "no", "false")


def cache_root() -> Path:
    return Path(os.environ.get("UASDB_CACHE_DIR") or REPO_ROOT / ".cache" / "uasdb")


def _digest_files(digest: Any, paths: Iterable[Path], root: Path) -> None:
    for path in sorted(paths):
        try:
            content = path.read_bytes()
        except OSError:
            content = b"\0unreadable"
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(content)}\0".encode())
        digest.update(content)


_versions: dict[tuple[str, str], str] = {}


def code_version() -> str:
    """A digest of everything besides a file's bytes that the cached work reads: the package's source, the schema
    files, the reference tables, and the versions of Python and of the YAML parser. Worked out once per process
    (a few milliseconds): code does not change under a running process."""
    where = (str(SCHEMA_DIR), str(DATA_DIR))
    if where not in _versions:
        digest = hashlib.sha256(f"{sys.version}\0{yaml.__version__}\0{hasattr(yaml, 'CBaseLoader')}\0".encode())
        _digest_files(digest, PACKAGE.rglob("*.py"), PACKAGE)
        _digest_files(digest, Path(SCHEMA_DIR).glob("*.json"), Path(SCHEMA_DIR))
        _digest_files(digest, (p for pattern in REFERENCE_GLOBS for p in Path(DATA_DIR).glob(pattern)), Path(DATA_DIR))
        _versions[where] = digest.hexdigest()
    return _versions[where]


class Store:
    """Entries of one code version in one folder. `get` returns None for anything it cannot vouch for."""

    def __init__(self, root: Path, version: str) -> None:
        self.folder = Path(root) / version[:24]
        self._where = os.fspath(self.folder)  # as text: an export reads tens of thousands of entries
        self.version = version
        self._pruned = False

    def key(self, *parts: Any) -> str:
        """The key of a piece of work: the code version and every input, each as text (repr for non-text)."""
        digest = hashlib.sha256(self.version.encode())
        for part in parts:
            text = part if isinstance(part, (bytes, str)) else repr(part)
            data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        return Path(self._where, key[:2], key[2:])

    def get(self, key: str) -> Any | None:
        try:
            raw = _read(os.path.join(self._where, key[:2], key[2:]))
            if len(raw) <= _CHECKSUM or hashlib.sha256(raw[_CHECKSUM:]).digest() != raw[:_CHECKSUM]:
                return None
            return marshal.loads(raw[_CHECKSUM:])
        except Exception:  # noqa: BLE001 - whatever went wrong with an entry, it is a miss
            return None

    def open_stream(self, key: str) -> BinaryIO | None:
        """An entry `put_stream` wrote, as an open file positioned at its payload, or None for anything it cannot
        vouch for (its checksum is checked first, reading it in chunks: large entries are never held whole). For
        entries that are not plain values (the expectations' memo): whoever reads one checks what it holds, and
        closes it."""
        try:
            handle = open(self._path(key), "rb")  # noqa: SIM115 - handed to the caller, who closes it
        except OSError:
            return None
        try:
            want = handle.read(_CHECKSUM)
            digest, size = hashlib.sha256(), 0
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
                size += len(chunk)
            if len(want) != _CHECKSUM or not size or digest.digest() != want:
                handle.close()
                return None
            handle.seek(_CHECKSUM)
            return handle
        except Exception:  # noqa: BLE001 - whatever went wrong with an entry, it is a miss
            handle.close()
            return None

    def put_stream(self, key: str, write: Callable[[BinaryIO], None]) -> None:
        """An entry whose payload `write` writes into a file (hashed as it goes): never held whole in memory."""
        try:
            path = self._path(key)
            if not self._pruned:
                self._prune()
            path.parent.mkdir(parents=True, exist_ok=True)
            staging = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
            with open(staging, "wb") as handle:
                handle.write(bytes(_CHECKSUM))
                hashing = _Hashing(handle)
                write(hashing)  # type: ignore[arg-type]  # a file-like writer is all it needs
                handle.seek(0)
                handle.write(hashing.digest.digest())
            os.replace(staging, path)
        except Exception:  # noqa: BLE001 - a cache that cannot be written only costs time
            return

    def put(self, key: str, value: Any) -> None:
        try:
            payload = marshal.dumps(value)
        except Exception:  # noqa: BLE001 - a value marshal cannot write is not kept
            return
        self._write(key, payload)

    def _write(self, key: str, payload: bytes) -> None:
        def write(out: BinaryIO) -> None:
            out.write(payload)
        self.put_stream(key, write)  # readers see the whole entry or none

    def _prune(self) -> None:
        """Drop the oldest code versions once this one starts writing, keeping KEEP_VERSIONS in all."""
        self._pruned = True
        if self.folder.is_dir():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        others = sorted((p for p in self.folder.parent.iterdir() if p.is_dir() and p != self.folder),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_VERSIONS - 1:]:
            shutil.rmtree(old, ignore_errors=True)


def _read(path: str) -> bytes:
    """The bytes of the file at `path`, with plain system calls (no file object: an entry is read in one call or
    two)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


class _Hashing:
    """A writer that hashes what passes through it."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle, self.digest = handle, hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.digest.update(data)
        return self.handle.write(data)


_stores: dict[tuple[Path, str], Store] = {}


def store() -> Store | None:
    """The cache this process uses now (it follows UASDB_CACHE and UASDB_CACHE_DIR), or None when it is off."""
    if not enabled():
        return None
    where = (cache_root(), code_version())
    if where not in _stores:
        _stores[where] = Store(*where)
    return _stores[where]


def content_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


# What a value of this process is known to be made from: a token naming every input of it under the code version
# (a content-cache key, a memo's digests), noted where the value is made or read back from the cache. The export's
# fingerprints (publish/files.fingerprint) digest the token in place of the value: an adapter's verdict, chart
# and expectations are three quarters of its file, and their bytes were most of the fingerprints' cost. Sound only
# for values nothing changes in place once noted (BuildCache's and the memo's, which are shared and only read); a
# token holds the value, so no other object takes its id while noted. `forget_made_from` at each export's start.
_made_from: dict[int, tuple[Any, str]] = {}


def note_made_from(value: Any, token: str) -> None:
    _made_from[id(value)] = (value, token)


def made_from(value: Any) -> str | None:
    known = _made_from.get(id(value))
    return known[1] if known is not None and known[0] is value else None


def forget_made_from() -> None:
    _made_from.clear()

