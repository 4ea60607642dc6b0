"""`uasdb import-usbids [PATH]`: vendor and product names from the USB ID Repository (usb.ids).

Kept: every vendor name (so "unknown vendor" means unknown to usb.ids, not merely trimmed), and
product names only for storage-relevant IDs: those in the imported kernel tables (entries and
runtime checks) and those matched by smartmontools' USB entries. The trimming reads the other
generated files, never data/ records, so adding a record never makes this file stale.
"""
from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from .common import SourceError, debian_package, decode, dump_yaml, header, write_generated

DEFAULT_PATH = "/usr/share/misc/usb.ids"
# Sections after the vendor list start with one of these keywords (classes, HID usages, ...).
_SECTION = re.compile(r"(C|AT|HID|R|BIAS|PHY|HUT|L|HCC|VT) \S")
_VENDOR = re.compile(r"([0-9a-f]{4})  (.*\S)\s*")
_DEVICE = re.compile(r"\t([0-9a-f]{4})  (.*\S)\s*")
_INTERFACE = re.compile(r"\t\t([0-9a-f]{2})  (.*\S)\s*")


def parse_usbids(text: str, file: str) -> dict[str, Any]:
    """Vendor names and product names of the vendor section, with the file's version."""
    version_match = re.search(r"^# Version: *(\S+)", text, re.M)
    if not version_match:
        raise SourceError(file, 0, "no `# Version:` line", "is this usb.ids?")
    vendors: dict[str, str] = {}
    products: dict[str, str] = {}
    current: str | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if _SECTION.match(line):
            break
        vendor = _VENDOR.fullmatch(line)
        device = _DEVICE.fullmatch(line)
        if vendor:
            current = vendor.group(1)
            if current in vendors:
                raise SourceError(file, number, f"vendor {current} is listed twice")
            vendors[current] = vendor.group(2)
        elif device:
            if current is None:
                raise SourceError(file, number, "a product line before any vendor line")
            key = f"{current}:{device.group(1)}"
            if key in products:
                raise SourceError(file, number, f"product {key} is listed twice")
            products[key] = device.group(2)
        elif _INTERFACE.fullmatch(line):
            continue
        else:
            raise SourceError(file, number, f"cannot read `{line.strip()[:60]}`",
                              "expected `vvvv  vendor`, TAB `pppp  product` or TAB TAB `ii  interface`")
    if not vendors:
        raise SourceError(file, 0, "no vendor lines found", "is this usb.ids?")
    return {"version": version_match.group(1), "vendors": vendors, "products": products}


def storage_ids(data_dir: Path) -> tuple[set[str], list]:
    """`vvvv:pppp` keys from the generated kernel files, and compiled drivedb ID patterns."""
    kernel_files = sorted((data_dir / "kernel").glob("linux-*.yaml"))
    drivedb_file = data_dir / "smartmontools" / "drivedb-usb.yaml"
    if not kernel_files:
        raise SourceError(str(data_dir / "kernel"), 0, "no linux-*.yaml", "run `uasdb import-kernel PATH` first")
    if not drivedb_file.is_file():
        raise SourceError(str(drivedb_file), 0, "missing", "run `uasdb import-drivedb` first")
    keys: set[str] = set()
    for path in kernel_files:
        kernel = yaml.safe_load(path.read_text(encoding="utf-8"))
        keys |= {f"{e['vid']}:{e['pid']}" for e in kernel["entries"]}
        keys |= {f"{c['vid']}:{p}" for c in kernel["runtime"] for p in c.get("pids", [])}
    drivedb = yaml.safe_load(drivedb_file.read_text(encoding="utf-8"))
    patterns = [re.compile(e["id_pattern"]) for e in drivedb["entries"]]
    return keys, patterns


def trim(parsed: dict[str, Any], keys: Iterable[str], patterns: list) -> dict[str, Any]:
    wanted = set(keys)
    # One alternation instead of ~200 separate patterns: the same matches, much faster.
    combined = re.compile("|".join(f"(?:{p.pattern})" for p in patterns)) if patterns else None
    products = {key: name for key, name in parsed["products"].items()
                if key in wanted or (combined and combined.fullmatch(f"0x{key[:4]}:0x{key[5:]}"))}
    return {"version": parsed["version"], "vendors": dict(sorted(parsed["vendors"].items())),
            "products": dict(sorted(products.items()))}


def output_path(data_dir: Path) -> Path:
    return data_dir / "usb-ids" / "usb-ids.yaml"


def render(data: dict[str, Any], command: str, package: tuple[str, str] | None) -> str:
    what = f"usb.ids version {data['version']}"
    ordered: dict[str, Any] = {"usb_ids_version": data["version"]}
    if package:
        what += f" (Debian package {package[0]} {package[1]})"
        ordered["debian_package"] = {"name": package[0], "version": package[1]}
    ordered["vendors"] = data["vendors"]
    ordered["products"] = data["products"]
    return header(command, what) + dump_yaml(ordered)


def run_import_usbids(path: str | None, data_dir: Path, check: bool = False) -> int:
    command = "uasdb import-usbids" + (f" {path}" if path else "")
    source = Path(path or DEFAULT_PATH)
    try:
        if not source.is_file():
            raise SourceError(str(source), 0, "no such file", "install usb.ids (Debian: apt-get install usb.ids) or give the path")
        parsed = parse_usbids(decode(source.read_bytes(), str(source)), str(source))
        keys, patterns = storage_ids(data_dir)
    except SourceError as error:
        print(str(error), file=sys.stderr)
        print("import-usbids: nothing written", file=sys.stderr)
        return 1
    data = trim(parsed, keys, patterns)
    status = write_generated(output_path(data_dir), render(data, command, debian_package(source)), check, command)
    if status == 0 and not check:
        print(f"usb.ids {data['version']}: {len(data['vendors'])} vendors, {len(data['products'])} of "
              f"{len(parsed['products'])} products kept (storage-relevant)")
    return status
