"""`uasdb import-lsusb [PATH]`: how common each USB disk ID is on real Linux machines (linux-hardware.org).

Reads data/linuxhw/README-snapshot.md, a committed copy of the "Disk (USB)" table of the linuxhw/LsUSB README
(ID, maker, name, number of computers, driver in use, latest probe), and writes data/linuxhw/lsusb-storage.yaml.
The README cuts long cells short with "..."; those cells are kept as printed, and `drivers` lists only the
driver names that arrived whole.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from .common import Flow, SourceError, decode, dump_yaml, header, write_generated

DEFAULT_SNAPSHOT = Path("linuxhw") / "README-snapshot.md"
PROBE_URL = "https://linux-hardware.org/?probe={}"
SECTION = "### Disk (USB)"
COLUMNS = ["ID", "MFG", "Name", "Count", "Driver", "Probe"]
CUT = "..."
_FIELDS = {"Source": re.compile(r"https://github\.com/linuxhw/LsUSB/blob/[0-9a-f]{40}/README\.md"),
           "Commit": re.compile(r"[0-9a-f]{40}"),
           "Read": re.compile(r"\d{4}-\d{2}-\d{2}"),
           "Total reports": re.compile(r"\d+")}
_ID = re.compile(r"([0-9a-f]{4}):([0-9a-f]{4})")
_PROBE = re.compile(r"[0-9A-F]{10}")
_DRIVER = re.compile(r"[a-z0-9_]+")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _header_fields(lines: list[str], file: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if line.startswith("|") or line.startswith("###"):
            break
        name, sep, value = line.partition(":")
        if sep and name in _FIELDS:
            value = value.strip()
            if not _FIELDS[name].fullmatch(value):
                raise SourceError(file, number, f"`{name}:` is `{value[:60]}`",
                                  f"write it as {_FIELDS[name].pattern.replace(chr(92), '')}")
            found[name] = value
    missing = [name for name in _FIELDS if name not in found]
    if missing:
        raise SourceError(file, 1, f"the header has no {', '.join(f'`{m}:`' for m in missing)} line",
                          "say where and when the table was copied from (see the top of the committed snapshot)")
    if not found["Source"].endswith(f"/blob/{found['Commit']}/README.md"):
        raise SourceError(file, 1, "`Source:` and `Commit:` name different commits", "copy both from the same README version")
    return found


def _device(cells: list[str], rank: int, file: str, number: int) -> dict[str, Any]:
    usb_id, vendor, name, count, driver, probe = cells
    id_match = _ID.fullmatch(usb_id)
    if not id_match:
        raise SourceError(file, number, f"ID `{usb_id}` is not vvvv:pppp", "copy the row unchanged from the README")
    if not count.isdigit():
        raise SourceError(file, number, f"Count `{count}` is not a whole number", "copy the row unchanged from the README")
    if not _PROBE.fullmatch(probe):
        raise SourceError(file, number, f"Probe `{probe}` is not a 10-character probe ID", "copy the row unchanged from the README")
    names = [d.strip() for d in driver.split(",")] if driver else []
    whole = [d for d in names if not d.endswith(CUT)]
    if any(not _DRIVER.fullmatch(d) for d in whole):
        raise SourceError(file, number, f"Driver `{driver}` is not a list of driver names", "copy the row unchanged from the README")
    device: dict[str, Any] = {"vid": id_match.group(1), "pid": id_match.group(2), "rank": rank, "computers": int(count)}
    if vendor:
        device["vendor"] = vendor
    if name:
        device["name"] = name
    if driver:
        device["driver"] = driver
        device["drivers"] = Flow(whole)
    device["probe"] = probe
    device["probe_url"] = PROBE_URL.format(probe)
    return device


def parse_snapshot(text: str, file: str) -> dict[str, Any]:
    """The header fields and the Disk (USB) rows of a README snapshot, in the README's order."""
    lines = text.split("\n")
    fields = _header_fields(lines, file)
    try:
        start = lines.index(SECTION)
    except ValueError:
        raise SourceError(file, 0, f"no `{SECTION}` heading", "copy the README's Disk (USB) section with its heading") from None
    rows: list[dict[str, Any]] = []
    number = start + 1
    while number < len(lines) and not lines[number].startswith("|"):
        number += 1
    if number >= len(lines) or _cells(lines[number]) != COLUMNS:
        raise SourceError(file, number + 1, f"the table does not start with the columns {' | '.join(COLUMNS)}",
                          "copy the section unchanged; if the README's columns changed, update the importer")
    number += 2  # the column names and the |---| line
    seen: dict[str, int] = {}
    while number < len(lines) and lines[number].startswith("|"):
        cells = _cells(lines[number])
        if len(cells) != len(COLUMNS):
            raise SourceError(file, number + 1, f"a row with {len(cells)} cells instead of {len(COLUMNS)}",
                              "copy the row unchanged from the README")
        device = _device(cells, len(rows) + 1, file, number + 1)
        key = f"{device['vid']}:{device['pid']}"
        if key in seen:
            raise SourceError(file, number + 1, f"{key} is listed twice (first on line {seen[key]})", "keep the first row only")
        seen[key] = number + 1
        rows.append(device)
        number += 1
    if not rows:
        raise SourceError(file, number + 1, "the Disk (USB) table has no rows", "copy the rows too")
    return {"source": fields["Source"], "commit": fields["Commit"], "read": fields["Read"],
            "total_reports": int(fields["Total reports"]), "devices": rows}


def output_path(data_dir: Path) -> Path:
    return data_dir / "linuxhw" / "lsusb-storage.yaml"


def render(data: dict[str, Any], command: str) -> str:
    what = f"the Disk (USB) table of linuxhw/LsUSB README.md at {data['commit'][:7]}, read {data['read']}"
    return header(command, what) + dump_yaml(data)


def run_import_lsusb(path: str | None, data_dir: Path, check: bool = False) -> int:
    command = "uasdb import-lsusb" + (f" {path}" if path else "")
    source = Path(path) if path else data_dir / DEFAULT_SNAPSHOT
    try:
        if not source.is_file():
            raise SourceError(str(source), 0, "no such file", "give the path of a README snapshot (see data/linuxhw/)")
        data = parse_snapshot(decode(source.read_bytes(), str(source)), str(source))
    except SourceError as error:
        print(str(error), file=sys.stderr)
        print("import-lsusb: nothing written", file=sys.stderr)
        return 1
    status = write_generated(output_path(data_dir), render(data, command), check, command)
    if status == 0 and not check:
        print(f"linuxhw/LsUSB {data['commit'][:7]}: {len(data['devices'])} USB disk devices")
    return status
