"""`uasdb fmt`: canonical key order and layout, comments kept.

Key order follows the order of `properties` in the schema, at every level, so a
record reads the same way as the schema and docs/example-record.md. Fields the
schema does not know keep their place at the end (validate reports them).
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

from .cache import Store, store
from .database import discover, display_path, kind_of
from .loader import MAX_FILE_BYTES, load_file, load_text
from .schema import load_schema


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 1 << 30  # never re-wrap a contributor's lines (wrapping a plain value collapses its spaces)
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def _reorder(node: Any, schema: dict[str, Any] | None) -> Any:
    if schema is None:
        return node
    if isinstance(node, CommentedMap):
        properties = schema.get("properties", {})
        order = [k for k in properties if k in node] + [k for k in node if k not in properties]
        if list(node) != order:
            items = [(k, node[k], node.ca.items.get(k)) for k in order]
            # Comments attached after the last value must stay at the end of the mapping.
            for key in list(node):
                node.pop(key)
            for key, value, comment in items:
                node[key] = value
                if comment is not None:
                    node.ca.items[key] = comment
        for key in node:
            _reorder(node[key], properties.get(key))
    elif isinstance(node, CommentedSeq):
        for item in node:
            _reorder(item, schema.get("items"))
    return node


# What the loader finds that fmt leaves for a person: ruamel would expand, merge or misread it.
REFUSED = ("yaml-anchor", "yaml-tag", "yaml-depth", "yaml-syntax", "yaml-merge-key")


def canonical_text(path: Path, raw: bytes) -> str | None:
    """The formatted text of a record, or None when it cannot be parsed (validate explains why) or when
    formatting would change what the record says (then it is left for a person to fix)."""
    kind = kind_of(path)
    if kind is None or len(raw) > MAX_FILE_BYTES:
        return None
    before = load_text(str(path), raw)
    # Our loader first: it refuses anchors and aliases (an alias-heavy file would take ruamel minutes) and
    # anything else that is not plain data.
    if before.data is None or any(p.rule in REFUSED for p in before.problems):
        return None
    try:
        text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        return None
    # Tabs are only ever fixable in indentation; elsewhere they would change a value.
    text = "\n".join(_detab_indent(line) for line in text.split("\n"))
    text = _without_directives(text)
    yaml = _yaml()
    try:
        data = yaml.load(text)
    except Exception:  # ruamel raises many error types for bad YAML; validate reports them precisely
        return None
    if not isinstance(data, CommentedMap):
        return None
    _reorder(data, load_schema(kind))
    out = io.StringIO()
    yaml.dump(data, out)
    body = out.getvalue()
    header = f"# yaml-language-server: $schema=../../schema/{kind}.schema.json"
    lines = body.split("\n")
    if lines and lines[0].startswith("# yaml-language-server:"):
        lines = lines[1:]
    body = "\n".join([header] + lines)
    # Trailing blanks go, except where they are part of a value (a literal block keeps them): prove it.
    for candidate in ("\n".join(line.rstrip() for line in body.split("\n")).rstrip("\n") + "\n",
                      body.rstrip("\n") + "\n"):
        if load_text(str(path), candidate.encode("utf-8")).data == before.data:
            return candidate
    raise FormatChangesData(display_path(path))


class FormatChangesData(Exception):
    """Formatting would change a value; the file is left as it is."""


_PLAIN_SAFE = re.compile(r"[A-Za-z][A-Za-z0-9 ._/()+,-]*")
_YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def _ruamel(value: Any) -> Any:
    """Plain data as ruamel nodes: text with line breaks becomes a literal block, and any one-line text that a
    YAML 1.1 or 1.2 reader could take for something else is double-quoted."""
    if isinstance(value, dict):
        return CommentedMap((key, _ruamel(child)) for key, child in value.items())
    if isinstance(value, list):
        return CommentedSeq(_ruamel(child) for child in value)
    if isinstance(value, str) and "\n" in value:
        return LiteralScalarString(value)
    if isinstance(value, str):
        plain = _PLAIN_SAFE.fullmatch(value) and value.lower() not in _YAML11_WORDS and not value.endswith(" ")
        return value if plain else DoubleQuotedScalarString(value)
    return value


def emit_record(path: Path, data: dict[str, Any], append_to: str | None = None) -> str | None:
    """A record written from data by the emitter and layout `fmt` uses; None when that cannot be done without
    changing a value. With `append_to`, `data` is one more report for that record's text (comments kept)."""
    yaml = _yaml()
    try:
        if append_to is None:
            node = _ruamel(data)
        else:
            node = yaml.load(append_to)
            node["reports"].append(_ruamel(data))
        out = io.StringIO()
        yaml.dump(node, out)
        return canonical_text(path, out.getvalue().encode("utf-8"))
    except FormatChangesData:
        return None


def _why_not_formatted(path: Path, raw: bytes) -> str:
    """The loader's reason for leaving a file alone (line and what is wrong), or that it does not parse."""
    loaded = load_text(str(path), raw[: MAX_FILE_BYTES + 1])
    blocking = [p for p in loaded.problems if p.rule in REFUSED or (loaded.data is None and p.severity == "error")]
    if not blocking:
        return "the file does not parse"
    return f"line {blocking[0].line}: {blocking[0].message} [{blocking[0].rule}]"


def _without_directives(text: str) -> str:
    """The text without `%YAML`/`%TAG` directives and the `---` that closes them (comments kept): the loader reads
    every record as plain data, so they can only make other tools read it differently. Whether the data stayed the
    same is proved afterwards, as for every change fmt makes."""
    lines = text.split("\n")
    end = next((i for i, line in enumerate(lines) if line == "---" or line.startswith("--- ")), None)
    if end is None or not any(line.startswith("%") for line in lines[:end]):
        return text
    rest = lines[end][3:].strip()
    kept = [line for line in lines[:end] if not line.startswith("%")] + ([rest] if rest else [])
    return "\n".join(kept + lines[end + 1:])


def _detab_indent(line: str) -> str:
    stripped = line.lstrip(" \t")
    indent = line[: len(line) - len(stripped)]
    return indent.replace("\t", "  ") + stripped


class CanonicalCache:
    """The records `fmt` found already in canonical layout, kept between runs in the content cache
    (records/cache.py: `.cache/uasdb/`, off with UASDB_CACHE=off or `--no-cache`) as one entry: the digests of each
    record's kind and exact bytes. A file whose bytes are listed would come out of `canonical_text` as it is, so it
    is not parsed again; any other file is formatted (or checked) in full, and nothing else is kept, so every
    message is the one a run without the cache prints. The store's code version covers this module, the loader and
    the schemas' key order; the entry's key adds ruamel.yaml's version, the writer's own."""

    def __init__(self, store: Store):
        import ruamel.yaml

        self.store = store
        self.key = store.key("fmt canonical", ruamel.yaml.__version__)
        stored = store.get(self.key)
        valid = isinstance(stored, list) and all(isinstance(d, str) for d in stored)
        self.known: set[str] = set(stored) if valid and stored else set()  # anything else: start empty
        self._saved = set(self.known)

    @staticmethod
    def digest(kind: str, raw: bytes) -> str:
        return hashlib.sha256(kind.encode("utf-8") + b"\0" + raw).hexdigest()

    def save(self) -> None:
        if self.known != self._saved:
            self.store.put(self.key, sorted(self.known))  # a cache that cannot be written costs time, never a result


def _plain_bytes(path: Path) -> bytes | None:
    """The bytes of a regular file of at most MAX_FILE_BYTES, read as load_file reads it; None for anything else."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
            return None
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))) as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return raw if len(raw) <= MAX_FILE_BYTES else None


def run_fmt(paths: list[Path], check_only: bool) -> int:
    changed: list[str] = []
    unparsable: list[tuple[str, str]] = []  # (file as shown, why it was not formatted)
    refused: list[str] = []
    found = store()
    cache = CanonicalCache(found) if found is not None else None
    for path in discover(paths):
        kind = kind_of(path)
        if cache is not None and kind is not None:
            known = _plain_bytes(path)
            if known is not None and cache.digest(kind, known) in cache.known:
                continue  # canonical as it is: nothing to write, nothing to say
        shown = display_path(path)
        loaded = load_file(path)  # regular files only, bounded: never through a link, never a FIFO
        if loaded.data is None and any(p.rule in ("file-not-regular", "file-unreadable", "file-too-large") for p in loaded.problems):
            print(f"{shown}: not formatted: {loaded.problems[0].message} — {loaded.problems[0].fix}", file=sys.stderr)
            refused.append(shown)
            continue
        raw = path.read_bytes()
        try:
            formatted = canonical_text(path, raw)
        except FormatChangesData:
            print(f"{shown}: not formatted: the canonical layout would change a value (trailing blanks or spacing "
                  f"inside it); format this file by hand and check it with `uasdb validate {shown}`", file=sys.stderr)
            refused.append(shown)
            continue
        if formatted is None:
            unparsable.append((shown, _why_not_formatted(path, raw)))
            continue
        if formatted.encode("utf-8") != raw:
            changed.append(shown)
            if not check_only:
                path.write_text(formatted, encoding="utf-8", newline="\n")
        elif cache is not None and kind is not None:
            cache.known.add(cache.digest(kind, raw))
    if cache is not None:
        cache.save()
    for name, why in unparsable:
        print(f"{name}: not formatted: {why} — run `uasdb validate {name}` for every problem", file=sys.stderr)
    if check_only:
        for name in changed:
            print(f"{name}: needs formatting — run `uasdb fmt {name}`")
        if changed or unparsable or refused:
            print(f"{len(changed)} file(s) need formatting", file=sys.stderr)
        return 1 if changed or unparsable or refused else 0
    for name in changed:
        print(f"formatted {name}")
    return 1 if unparsable or refused else 0
