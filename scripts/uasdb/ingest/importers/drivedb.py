"""`uasdb import-drivedb [PATH]`: smartmontools' USB bridge list from drivedb.h.

drivedb.h is a C array of 5-string entries. The ones whose first string starts with "USB:"
describe USB bridges: a regular expression over "0xVVVV:0xPPPP", an optional one over the
bcdDevice, and the `smartctl -d` type that gets SMART data through that bridge ("" when none
does). smartctl takes the first entry that matches, so the file order is kept.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from . import cparse
from .common import SourceError, debian_package, decode, dump_yaml, header, write_generated

DEFAULT_PATH = "/usr/share/smartmontools/drivedb.h"
FIELDS = ("family", "model", "firmware", "warning", "presets")


def read_entries(text: str, file: str) -> list[tuple[int, list[str]]]:
    """Every `{ "..", "..", "..", "..", ".." }` entry as (line, five strings)."""
    code = cparse.strip_comments(text, file)
    lines = cparse.Lines(code)
    entries = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if c.isspace() or c in ",;":
            i += 1
            continue
        if c != "{":
            raise SourceError(file, lines.line(i), f"unexpected text `{code[i:i + 30].splitlines()[0].strip()}`",
                              "expected `{ \"family\", \"model\", \"firmware\", \"warning\", \"presets\" }`")
        close = cparse.matching_brace(code, i, file, lines)
        args, arg_lines = cparse.split_arguments(code, i + 1, close, lines)
        line = lines.line(i)
        if len(args) != len(FIELDS):
            raise SourceError(file, line, f"entry has {len(args)} fields, expected {len(FIELDS)}", "(family, model, firmware, warning, presets)")
        values = []
        for name, arg, arg_line in zip(FIELDS, args, arg_lines, strict=True):
            value = cparse.string_value(arg)
            if value is None:
                raise SourceError(file, arg_line, f"{name} `{arg[:40]}` is not a string literal")
            values.append(value)
        entries.append((line, values))
        i = close + 1
    if not entries:
        raise SourceError(file, 0, "no entries found", "is this smartmontools' drivedb.h?")
    return entries


def parse_drivedb(text: str, file: str) -> dict[str, Any]:
    entries = read_entries(text, file)
    version = next((v[0][len("VERSION:"):].strip() for _, v in entries if v[0].startswith("VERSION:")), None)
    if version is None:
        raise SourceError(file, 0, 'no "VERSION: ..." entry', "is this smartmontools' drivedb.h?")
    usb = [_usb_entry(line, values, file) for line, values in entries if values[0].startswith("USB:")]
    if not usb:
        raise SourceError(file, 0, 'no "USB: ..." entries found', "is this smartmontools' drivedb.h?")
    return {"drivedb_version": version, "entries": usb}


def _usb_entry(line: int, values: list[str], file: str) -> dict[str, Any]:
    family, model, firmware, _warning, presets = values
    # `USB: DEVICE; BRIDGE`, split at the first `;` (a pattern of lazy parts between optional blanks was quadratic)
    if not family.startswith("USB:") or ";" not in family:
        raise SourceError(file, line, f"`{family}` is not `USB: DEVICE; BRIDGE`")
    names = [part.strip() for part in family[len("USB:"):].split(";", 1)]
    if not re.fullmatch(r"0x\S+:0x\S+", model):
        raise SourceError(file, line, f"USB ID pattern `{model}` is not `0xVVVV:0xPPPP`")
    for what, pattern in (("USB ID", model), ("bcdDevice", firmware)):
        try:
            re.compile(pattern)
        except re.error as exc:
            raise SourceError(file, line, f"{what} pattern `{pattern}` is not a regular expression: {exc}") from None
    entry: dict[str, Any] = {"id_pattern": model}
    if names[0]:
        entry["device"] = names[0]
    if names[1]:
        entry["bridge"] = names[1]
    if firmware:
        entry["bcd_pattern"] = firmware
    device_type = re.fullmatch(r"-d\s+(\S+)", presets.strip())
    if presets.strip() and not device_type:
        raise SourceError(file, line, f"presets `{presets}` are not `-d TYPE`")
    if device_type:
        entry["device_type"] = device_type.group(1)
    else:
        entry["supported"] = False
    entry["line"] = line
    return entry


def output_path(data_dir: Path) -> Path:
    return data_dir / "smartmontools" / "drivedb-usb.yaml"


def render(data: dict[str, Any], command: str, package: tuple[str, str] | None) -> str:
    what = f"smartmontools drivedb.h {data['drivedb_version']}"
    ordered: dict[str, Any] = {"drivedb_version": data["drivedb_version"]}
    if package:
        what += f" (Debian package {package[0]} {package[1]})"
        ordered["debian_package"] = {"name": package[0], "version": package[1]}
    ordered["entries"] = data["entries"]
    return header(command, what) + dump_yaml(ordered)


def run_import_drivedb(path: str | None, data_dir: Path, check: bool = False) -> int:
    command = "uasdb import-drivedb" + (f" {path}" if path else "")
    source = Path(path or DEFAULT_PATH)
    try:
        if not source.is_file():
            raise SourceError(str(source), 0, "no such file", "install smartmontools (Debian: apt-get install smartmontools) or give the path")
        data = parse_drivedb(decode(source.read_bytes(), str(source)), str(source))
    except SourceError as error:
        print(str(error), file=sys.stderr)
        print("import-drivedb: nothing written", file=sys.stderr)
        return 1
    status = write_generated(output_path(data_dir), render(data, command, debian_package(source)), check, command)
    if status == 0 and not check:
        supported = sum(1 for e in data["entries"] if e.get("device_type"))
        print(f"drivedb.h {data['drivedb_version']}: {len(data['entries'])} USB entries, {supported} with a working -d type")
    return status
