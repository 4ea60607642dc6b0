"""The generated reference files, read back: the kernel's quirk tables, usb.ids names, smartmontools' bridges.

Written by `uasdb import-kernel`, `import-usbids`, `import-drivedb` and `import-lsusb` (scripts/uasdb/ingest/importers/);
read here for the rules, the quirk letter table and the export. Each loader is cached.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import yaml

from ..paths import DATA_DIR

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ReferenceDataError(Exception):
    """A generated reference file is missing or unreadable; the message says how to regenerate it."""


def _load(path: Path, command: str) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SafeLoader)
    except OSError:
        raise ReferenceDataError(f"{path}: missing — run `{command}` and commit the result") from None
    except yaml.YAMLError as exc:
        raise ReferenceDataError(f"{path}: not readable YAML ({exc}) — run `{command}` again instead of editing it") from None
    if not isinstance(data, dict):
        raise ReferenceDataError(f"{path}: not a generated reference file — run `{command}` again")
    return data


# --- the kernel -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class KernelEntry:
    """One UNUSUAL_DEV line: the flags Linux sets for an ID within a bcdDevice range."""
    vid: str
    pid: str
    bcd_min: str
    bcd_max: str
    vendor: str
    product: str
    flags: tuple[str, ...]
    file: str
    line: int
    condition: str | None = None

    @property
    def usb_id(self) -> str:
        return f"{self.vid}:{self.pid}"

    @property
    def every_bcd(self) -> bool:
        """True when the entry covers every firmware revision (0000 up to 9999 or ffff)."""
        return self.bcd_min == "0000" and self.bcd_max in ("9999", "ffff")

    def covers(self, low: str, high: str | None = None) -> bool:
        """True when every bcdDevice from low to high (or just low) is inside the entry's range."""
        return int(self.bcd_min, 16) <= int(low, 16) and int(high or low, 16) <= int(self.bcd_max, 16)

    def overlaps(self, low: str, high: str) -> bool:
        return int(self.bcd_min, 16) <= int(high, 16) and int(low, 16) <= int(self.bcd_max, 16)


@dataclass(frozen=True)
class RuntimeCheck:
    """An ID test in uas-detect.h: flags added while probing, maybe only after looking at the device."""
    vid: str
    pids: tuple[str, ...]          # empty: every product of the vendor
    flags: tuple[str, ...]
    decided_by: tuple[str, ...]    # max-power, link-speed, streams: which flag (if any) depends on these
    strings: tuple[tuple[str, str], ...]
    file: str
    line: int
    steps: tuple[dict[str, Any], ...] = ()  # the device tests in order: {when: {field, op, value}, flags}; last may lack `when`

    @property
    def unconditional(self) -> bool:
        """The flags always apply to a matching ID (nothing else is looked at)."""
        return not self.decided_by and not self.strings

    def matches(self, vid: str, pid: str) -> bool:
        return vid == self.vid and (not self.pids or pid in self.pids)


@dataclass
class KernelTable:
    version: str
    release: str
    letters: dict[str, str]                  # letter -> flag name
    letter_drivers: dict[str, str]           # letter -> uas | usb-storage | both
    user_entry_replaces: tuple[str, ...]     # flags a matching usb-storage.quirks entry clears
    entries: list[KernelEntry]
    runtime: list[RuntimeCheck]
    path: str = ""
    _by_id: dict[str, list[KernelEntry]] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        for entry in self.entries:
            self._by_id.setdefault(entry.usb_id, []).append(entry)

    @classmethod
    def from_dict(cls, data: dict[str, Any], path: str = "") -> KernelTable:
        entries = [KernelEntry(e["vid"], e["pid"], e["bcd_min"], e["bcd_max"], e["vendor"], e["product"],
                               tuple(e["flags"]), e["file"], e["line"], e.get("condition")) for e in data["entries"]]
        runtime = [RuntimeCheck(c["vid"], tuple(c.get("pids", ())), tuple(c["flags"]), tuple(c.get("decided_by", ())),
                                tuple(sorted(c.get("strings", {}).items())), c["file"], c["line"],
                                tuple(c.get("steps", ()))) for c in data["runtime"]]
        letters = {letter: info["flag"] for letter, info in data["quirk_letters"].items()}
        drivers = {letter: info.get("drivers", "both") for letter, info in data["quirk_letters"].items()}
        return cls(str(data["version"]), str(data["release"]), letters, drivers,
                   tuple(data["user_entry_replaces"]), entries, runtime, path)

    @cached_property
    def letter_of(self) -> dict[str, str]:
        """flag name -> letter, for the flags that have one (worked out once: the table never changes once loaded,
        and every entry of every export asks). Read it, never change it."""
        return {flag: letter for letter, flag in self.letters.items()}

    def entries_for(self, vid: str, pid: str) -> list[KernelEntry]:
        return list(self._by_id.get(f"{vid}:{pid}", ()))

    def runtime_for(self, vid: str, pid: str) -> list[RuntimeCheck]:
        return [c for c in self.runtime if c.matches(vid, pid)]

    def ids(self) -> list[str]:
        """Every vvvv:pppp the kernel names (tables and runtime checks with product IDs), sorted."""
        keys = set(self._by_id) | {f"{c.vid}:{p}" for c in self.runtime for p in c.pids}
        return sorted(keys)


def _version_key(path: Path) -> tuple[int, ...]:
    numbers = re.findall(r"\d+", path.stem)
    return tuple(int(n) for n in numbers)


def kernel_file(data_dir: Path = DATA_DIR) -> Path:
    """The newest data/kernel/linux-X.Y.yaml: the kernel the site describes."""
    files = sorted((Path(data_dir) / "kernel").glob("linux-*.yaml"), key=_version_key)
    if not files:
        raise ReferenceDataError(f"{Path(data_dir) / 'kernel'}: no linux-*.yaml — run "
                                 "`uasdb import-kernel /usr/src/linux-source-6.12.tar.xz` and commit the result")
    return files[-1]


@cache
def load_kernel(data_dir: Path = DATA_DIR) -> KernelTable:
    path = kernel_file(data_dir)
    data = _load(path, "uasdb import-kernel PATH")
    try:
        return KernelTable.from_dict(data, str(path))
    except (KeyError, TypeError, ValueError) as exc:
        raise ReferenceDataError(f"{path}: missing or malformed field {exc} — run `uasdb import-kernel PATH` again") from None


# --- usb.ids --------------------------------------------------------------------------------------

@dataclass
class UsbIds:
    version: str
    vendors: dict[str, str]
    products: dict[str, str]      # vvvv:pppp -> name, storage-relevant IDs only

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UsbIds:
        return cls(str(data["usb_ids_version"]), dict(data["vendors"]), dict(data["products"]))

    def vendor(self, vid: str) -> str | None:
        return self.vendors.get(vid)

    def product(self, vid: str, pid: str) -> str | None:
        return self.products.get(f"{vid}:{pid}")


@cache
def load_usbids(data_dir: Path = DATA_DIR) -> UsbIds:
    path = Path(data_dir) / "usb-ids" / "usb-ids.yaml"
    data = _load(path, "uasdb import-usbids")
    try:
        return UsbIds.from_dict(data)
    except (KeyError, TypeError) as exc:
        raise ReferenceDataError(f"{path}: missing field {exc} — run `uasdb import-usbids` again") from None


# --- smartmontools --------------------------------------------------------------------------------

@dataclass
class DriveDb:
    version: str
    entries: list[dict[str, Any]]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DriveDb:
        entries = [dict(e, _pattern=re.compile(e["id_pattern"])) for e in data["entries"]]
        return cls(str(data["drivedb_version"]), entries)

    def __post_init__(self) -> None:
        self._found: dict[str, list[dict[str, Any]]] = {}
        # The entries (by place in the file) whose pattern starts with a plain "0x<vid>:", by that text, and the
        # others: an ID is tried only against its vendor's and the others (at 10,000 IDs, two million tries of
        # 198 patterns were a second of the export).
        self._by_head: dict[str, list[int]] = {}
        self._anyhead: list[int] = []
        for n, entry in enumerate(self.entries):
            head = literal_head(entry["id_pattern"], len("0x0000:"))
            (self._by_head.setdefault(head, []) if head else self._anyhead).append(n)

    def matches(self, vid: str, pid: str) -> list[dict[str, Any]]:
        """drivedb entries for an ID, in file order (smartctl uses the first that fits). Each ID's list is worked
        out once (the table is loaded once per process and never changes)."""
        key = f"0x{vid}:0x{pid}"
        found = self._found.get(key)
        if found is None:
            tried = sorted(self._by_head.get(key[:len("0x0000:")], []) + self._anyhead)
            found = self._found[key] = [self.entries[n] for n in tried if self.entries[n]["_pattern"].fullmatch(key)]
        return list(found)


_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def literal_head(pattern: str, size: int) -> str | None:
    """The first `size` characters of a regular expression when every match of it starts with them as they are: plain
    characters, not made optional or repeated by what follows, and no alternative outside parentheses (`a|b`).
    None otherwise."""
    head = pattern[:size]
    if "[]" in pattern or "[^]" in pattern:  # a class that opens with "]": not read here, so no head believed
        return None
    if len(head) < size or any(c in _REGEX_SPECIAL for c in head) or pattern[size:size + 1] in ("*", "+", "?", "{"):
        return None
    depth, n, in_class = 0, 0, False
    while n < len(pattern):
        c = pattern[n]
        if c == "\\":
            n += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth <= 0:
            return None
        n += 1
    return head


@cache
def load_drivedb(data_dir: Path = DATA_DIR) -> DriveDb:
    path = Path(data_dir) / "smartmontools" / "drivedb-usb.yaml"
    data = _load(path, "uasdb import-drivedb")
    try:
        return DriveDb.from_dict(data)
    except (KeyError, TypeError, re.error) as exc:
        raise ReferenceDataError(f"{path}: malformed ({exc}) — run `uasdb import-drivedb` again") from None


# --- linux-hardware.org ---------------------------------------------------------------------------

@cache
def load_linuxhw(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    """The popularity table of USB disk IDs (`uasdb import-lsusb`): source fields and `devices` in rank order."""
    path = Path(data_dir) / "linuxhw" / "lsusb-storage.yaml"
    data = _load(path, "uasdb import-lsusb")
    if not isinstance(data.get("devices"), list) or not all(k in data for k in ("source", "commit", "read")):
        raise ReferenceDataError(f"{path}: malformed — run `uasdb import-lsusb` again")
    return data
