"""Strict YAML loading with a position for every value.

PyYAML's constructors lose positions, keep the last of two duplicate keys, expand
anchors and turn unquoted text into dates, floats and booleans. We build values
from the parser's events instead, so every value keeps its line and column and
each of those hazards becomes a Problem instead of a silent change.
"""
from __future__ import annotations

import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.resolver import Resolver

from .problems import ERROR, FieldPath, Problem

# libyaml's parser is several times faster; the pure-Python one yields the same events.
_EventLoader = getattr(yaml, "CBaseLoader", yaml.BaseLoader)

MAX_FILE_BYTES = 256 * 1024
MAX_DEPTH = 16          # records nest four or five levels; anything deeper is a mistake or an attack
MAX_NUMBER_CHARS = 32   # no field needs a longer number; longer ones overflow floats or Python's int parser
# The lines git writes around a merge conflict (`<<<<<<< HEAD`, `||||||| base`, `=======`, `>>>>>>> branch`), also
# indented inside a block scalar, where YAML would take them for text.
CONFLICT_MARKER = re.compile(r"^[ \t]*(?:<{7}|\|{7}|>{7})(?:[ \t].*)?$|^[ \t]*={7}[ \t]*$", re.M)

_resolver = Resolver()
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_NULL_TAG = "tag:yaml.org,2002:null"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


@dataclass
class Loaded:
    """A parsed file: its data (None when unreadable), where each value sits, and what went wrong."""

    path: str
    data: Any = None
    marks: dict[FieldPath, tuple] = field(default_factory=dict)
    key_marks: dict[FieldPath, tuple] = field(default_factory=dict)
    plain_text: dict[FieldPath, str] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    text: str = ""
    digest: str = ""  # sha256 of the file's bytes, when read through the content cache (records/cache.py)

    def position(self, path: FieldPath, at_key: bool = False) -> tuple:
        """Line and column of the value at `path`, or of its nearest ancestor that has one."""
        probe = tuple(path)
        while True:
            if at_key and probe in self.key_marks:
                return self.key_marks[probe]
            if probe in self.marks:
                return self.marks[probe]
            if not probe:
                return (1, 1)
            probe = probe[:-1]

    def problem(self, path: FieldPath, message: str, fix: str, rule: str,
                severity: str = ERROR, at_key: bool = False) -> Problem:
        line, column = self.position(path, at_key)
        return Problem(self.path, line, column, tuple(path), message, fix, rule, severity)

    def add(self, *args, **kwargs) -> None:
        self.problems.append(self.problem(*args, **kwargs))


def _pos(mark) -> tuple:
    return (mark.line + 1, mark.column + 1)


def _line_col(text: str, offset: int) -> tuple:
    line = text.count("\n", 0, offset) + 1
    return (line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def _scalar_value(event, path: FieldPath, loaded: Loaded) -> Any:
    value = event.value
    if event.tag is not None and event.tag != "!":
        loaded.add(path, f"explicit YAML tag {event.tag!r} is not allowed",
                   "remove the tag and write a plain value", "yaml-tag")
        return value
    if event.style:  # quoted or block scalar: always text (libyaml says "" for plain, PyYAML None)
        return value
    tag = _resolver.resolve(yaml.ScalarNode, value, (True, False))
    if len(value) > MAX_NUMBER_CHARS and (tag in (_INT_TAG, _FLOAT_TAG) or re.fullmatch(r"[-+]?[0-9_.]+([eE][-+]?[0-9]+)?", value)):
        loaded.add(path, f"a number {len(value)} characters long", "write a realistic value, or quote it if it is text",
                   "yaml-number")
        return value
    if tag not in (_BOOL_TAG, _TIMESTAMP_TAG):  # those two have messages of their own below
        meaning11 = value if tag == "tag:yaml.org,2002:str" else (
            None if tag == _NULL_TAG else _NUMBER_CONSTRUCTORS[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, value))
            if tag in _NUMBER_CONSTRUCTORS else value)
        meaning12 = yaml12_value(value)
        if not _same_meaning(meaning11, meaning12):
            loaded.add(path, f"unquoted `{value}` means {_meaning(meaning11)} to YAML 1.1 tools but {_meaning(meaning12)} to YAML 1.2 tools (Hugo, yq)",
                       f"quote it: '{value}'", "yaml-ambiguous")
            return value
    if tag in (_INT_TAG, _FLOAT_TAG):
        loaded.plain_text[path] = value
        number = _NUMBER_CONSTRUCTORS[tag](_CONSTRUCTOR, yaml.ScalarNode(tag, value))
        if isinstance(number, float) and (math.isnan(number) or math.isinf(number)):
            loaded.add(path, f"`{value}` is not a finite number", "write a plain number such as 12.5", "yaml-number")
            return value
        return number
    if tag == _BOOL_TAG:
        if value in ("true", "false"):
            return value == "true"
        loaded.add(path, f"unquoted `{value}` is a boolean in YAML 1.1 but text in YAML 1.2, so tools disagree on it",
                   f"write true or false, or quote it: '{value}'", "yaml-ambiguous")
        return value
    if tag == _NULL_TAG:
        loaded.plain_text[path] = value
        return None
    if tag == _TIMESTAMP_TAG:
        loaded.add(path, f"unquoted `{value}` is read as a date object, not text",
                   f"quote it: '{value}'", "yaml-unquoted-date")
        return value
    return value


_CONSTRUCTOR = yaml.constructor.SafeConstructor()

# YAML 1.2's core schema, which Hugo and yq use. Where it reads a plain value differently from
# YAML 1.1 (PyYAML), the file means different things to different tools, so it must be quoted.
_YAML12_RULES = (
    (re.compile(r"(?:null|Null|NULL|~|)"), lambda s: None),
    (re.compile(r"(?:true|True|TRUE)"), lambda s: True),
    (re.compile(r"(?:false|False|FALSE)"), lambda s: False),
    (re.compile(r"[-+]?[0-9]+"), int),
    (re.compile(r"0o[0-7]+"), lambda s: int(s[2:], 8)),
    (re.compile(r"0x[0-9a-fA-F]+"), lambda s: int(s[2:], 16)),
    (re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"), float),
    (re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"), lambda s: float(s.replace(".", "", 1))),
)


_YAML12_FIRST = frozenset("0123456789+-.~nNtTfF")


def yaml12_value(text: str) -> Any:
    if text and text[0] not in _YAML12_FIRST:  # most plain values (pi4, works, uas…) cannot be anything but text
        return text
    for pattern, convert in _YAML12_RULES:
        if pattern.fullmatch(text):
            return convert(text)
    return text


def _same_meaning(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b
_NUMBER_CONSTRUCTORS = {
    _INT_TAG: yaml.constructor.SafeConstructor.construct_yaml_int,
    _FLOAT_TAG: yaml.constructor.SafeConstructor.construct_yaml_float,
}


def _meaning(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return "text"


def _build(events: list, loaded: Loaded) -> Any:
    """Turn one document's events into plain values, recording marks and problems."""
    index = 0

    def skip_subtree() -> None:
        """Step over the rest of a collection whose start was just read, without recursing."""
        nonlocal index
        depth = 1
        while depth:
            event = events[index]
            index += 1
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1

    def node(path: FieldPath) -> Any:
        nonlocal index
        event = events[index]
        index += 1
        loaded.marks.setdefault(path, _pos(event.start_mark))
        if len(path) >= MAX_DEPTH and isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            loaded.add(path, f"values nested more than {MAX_DEPTH} levels deep",
                       "flatten it: records need four or five levels at most", "yaml-depth")
            skip_subtree()
            return None
        if isinstance(event, yaml.AliasEvent):
            loaded.add(path, f"YAML alias *{event.anchor} is not allowed",
                       "write the value out in full (anchors and aliases are refused)", "yaml-anchor")
            return None
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)) and event.tag not in (None, "!"):
            loaded.add(path, f"explicit YAML tag {event.tag!r} is not allowed",
                       "remove the tag and write plain values", "yaml-tag")
        anchor = getattr(event, "anchor", None)
        if anchor:
            loaded.add(path, f"YAML anchor &{anchor} is not allowed",
                       "remove the anchor and write values out in full", "yaml-anchor")
        if isinstance(event, yaml.ScalarEvent):
            return _scalar_value(event, path, loaded)
        if isinstance(event, yaml.SequenceStartEvent):
            items: list[Any] = []
            while not isinstance(events[index], yaml.SequenceEndEvent):
                items.append(node(path + (len(items),)))
            index += 1
            return items
        if isinstance(event, yaml.MappingStartEvent):
            mapping: dict[str, Any] = {}
            while not isinstance(events[index], yaml.MappingEndEvent):
                key_event = events[index]
                if not isinstance(key_event, yaml.ScalarEvent):
                    loaded.marks.setdefault(path, _pos(key_event.start_mark))
                    loaded.add(path, "a mapping key must be plain text", "use a simple name as the key", "yaml-key")
                    node(path + ("?",))
                    node(path + ("?",))
                    continue
                index += 1
                key = key_event.value
                key_pos = _pos(key_event.start_mark)
                child = path + (key,)
                if key == "<<" and not key_event.style:
                    loaded.problems.append(Problem(loaded.path, key_pos[0], key_pos[1], child,
                                                   "`<<` is a YAML merge key: some tools merge the mapping after it into "
                                                   "this one, others read a field named `<<`",
                                                   "write the fields out in full", "yaml-merge-key"))
                    node(child + ("merge",))
                    continue
                if key in mapping:
                    first = loaded.key_marks[child]
                    loaded.problems.append(Problem(loaded.path, key_pos[0], key_pos[1], child,
                                                   f"duplicate key `{key}` (first at line {first[0]}); YAML would silently keep only the last",
                                                   "merge the two entries into one", "yaml-duplicate-key"))
                    node(child + ("duplicate",))
                    continue
                loaded.key_marks[child] = key_pos
                mapping[key] = node(child)
            index += 1
            return mapping
        raise AssertionError(f"unexpected YAML event {event!r}")  # pragma: no cover - parser guarantees order

    return node(())


def load_text(path: str, raw: bytes) -> Loaded:
    loaded = Loaded(path)
    if len(raw) > MAX_FILE_BYTES:
        loaded.add((), f"file is larger than the {MAX_FILE_BYTES // 1024} KiB limit",
                   "split the record or trim long evidence to the relevant lines", "file-too-large")
        return loaded
    if raw.startswith(b"\xef\xbb\xbf"):
        loaded.add((), "file starts with a byte-order mark (BOM)", "save as UTF-8 without BOM (`uasdb fmt` removes it)", "file-bom")
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _line_col(raw[: exc.start].decode("utf-8", "replace"), len(raw[: exc.start].decode("utf-8", "replace")))
        loaded.problems.append(Problem(path, line, column, (), f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
                                       "re-save the file as UTF-8", "file-encoding"))
        return loaded
    if "\r" in text:
        line, column = _line_col(text, text.index("\r"))
        loaded.problems.append(Problem(path, line, column, (), "Windows (CRLF) or old Mac (CR) line endings",
                                       "use LF line endings (`uasdb fmt` converts them)", "file-line-endings"))
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    loaded.text = text
    markers = list(CONFLICT_MARKER.finditer(text))
    for match in markers:
        line, column = _line_col(text, match.start() + len(match.group(0)) - len(match.group(0).lstrip(" \t")))
        loaded.problems.append(Problem(path, line, column, (), f"merge-conflict marker `{match.group(0).strip()[:40]}`",
                                       "resolve the merge conflict: keep the lines you mean, delete the marker lines",
                                       "file-conflict-marker"))
    if markers:
        return loaded  # the file holds two versions of the record; reading either one would be a guess
    tabs = text.count("\t")
    if tabs:
        # One problem, at the first tab, counting the rest; the file is read on with spaces for them. Linear in the
        # file: 200,000 tabs once gave 200,001 lines of errors and took minutes.
        first = text.index("\t")
        line, column = _line_col(text, first)
        in_indent = not text[text.rfind("\n", 0, first) + 1: first].strip(" \t")
        fix = "indent with spaces (`uasdb fmt` does it)" if in_indent else "replace the tab with a space"
        lines = sum(1 for each in text.split("\n") if "\t" in each)
        more = f" ({tabs} tabs on {lines} line{'s' if lines != 1 else ''})" if tabs > 1 else ""
        loaded.problems.append(Problem(path, line, column, (), "tab character" + more, fix, "file-tabs"))
        text = text.replace("\t", " ")
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        loaded.add((), "file is empty", "write a record, starting from the example in docs/example-record.md", "file-empty")
        return loaded
    try:
        events = list(yaml.parse(text, Loader=_EventLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or "invalid YAML"
        loaded.problems.append(Problem(path, line, column, (), f"invalid YAML: {what}" + (f" ({exc.context})" if exc.context else ""),
                                       "check indentation and quoting on this line and the one before", "yaml-syntax"))
        return loaded
    except yaml.reader.ReaderError as exc:  # control characters: not marked, but positioned
        line, column = _line_col(text, exc.position)
        loaded.problems.append(Problem(path, line, column, (), f"control character {exc.character!r} is not allowed in YAML",
                                       "delete it; re-save the file as plain UTF-8 text", "file-encoding"))
        return loaded
    except yaml.YAMLError as exc:
        loaded.problems.append(Problem(path, 1, 1, (), f"invalid YAML: {exc}", "check the file's syntax", "yaml-syntax"))
        return loaded
    for event in events:
        if isinstance(event, yaml.DocumentStartEvent) and (event.version or event.tags):
            what = f"%YAML {event.version[0]}.{event.version[1]}" if event.version else "%TAG"
            directive = re.search(r"^%", text, re.M)
            line, column = _line_col(text, directive.start()) if directive else (1, 1)
            loaded.problems.append(Problem(
                path, line, column, (), f"a `{what}` directive: it tells some YAML tools to read the file differently "
                "from the rest (records are read one way by every tool)",
                "delete the directive and the `---` line after it (`uasdb fmt` does)", "yaml-directive"))
    body = [e for e in events if not isinstance(e, (yaml.StreamStartEvent, yaml.StreamEndEvent,
                                                     yaml.DocumentStartEvent, yaml.DocumentEndEvent))]
    documents = sum(isinstance(e, yaml.DocumentStartEvent) for e in events)
    if documents > 1:
        loaded.add((), f"file holds {documents} YAML documents", "keep one record per file; remove the `---` separators", "yaml-multiple-documents")
        return loaded
    data = _build(body, loaded)
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        loaded.add((), f"the top level is {kind}, not a mapping of fields", "start the file with `id: …` and the other fields, one per line", "yaml-top-level")
        return loaded
    loaded.data = data
    return loaded


def load_file(path) -> Loaded:
    """Read a record: regular files only (never through a link, never a FIFO or device), at most
    MAX_FILE_BYTES + 1 bytes, so no file can hang or exhaust the reader."""
    raw = read_record(path)
    return raw if isinstance(raw, Loaded) else load_text(str(path), raw)


def read_record(path) -> bytes | Loaded:
    """A record file's bytes, or (for a link, a FIFO, a device, an unreadable file) a Loaded saying why not: the
    half of `load_file` that looks at the file system, so that what depends on the bytes alone can be cached."""
    path = Path(path)
    loaded = Loaded(str(path))
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            loaded.add((), "is a symbolic link; records are plain files", "replace the link with the file it points to", "file-not-regular")
            return loaded
        if not stat.S_ISREG(info.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(info.st_mode) else "a folder" if stat.S_ISDIR(info.st_mode) else "a device or socket"
            loaded.add((), f"is {kind}, not a regular file", "remove it, or rename it so it does not end in .yaml", "file-not-regular")
            return loaded
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))) as handle:
            return handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        loaded.add((), f"cannot read file: {exc.strerror}", "check the path and its permissions", "file-unreadable")
        return loaded
