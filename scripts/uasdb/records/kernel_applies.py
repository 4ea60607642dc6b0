"""Which of Linux's own quirk flags surely apply to the unit a report is about: the kernel table (records/reference.py,
the release the project imports) against a report's USB ID, bcdDevice and kernel. The kernel rules
(rules/kernel_quirks.py) and the verdict engine (a "works on uas" report from an older kernel, for an ID today's
kernel keeps off uas, is history) read reports through these."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any


def kernel_version(text: str | None) -> tuple[int, int] | None:
    """(6, 1) from '6.1.21-v8+'; None when there is no version to read."""
    match = re.match(r"\s*(\d+)\.(\d+)", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def kernel_release(text: str | None) -> tuple[int, int, int] | None:
    """(6, 12, 117) from '6.12.117-1~deb12u1' or (6, 1, 0) from '6.1'; None when there is no version to read."""
    match = re.match(r"\s*(\d+)\.(\d+)(?:\.(\d+))?", text or "")
    return (int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)) if match else None


def not_older(report, table) -> bool:
    """True when the report's kernel is the imported one or newer, or unknown."""
    version = kernel_version(report.get("kernel"))
    imported = kernel_version(table.version)
    assert imported is not None, "the imported kernel table names its kernel's version"
    return version is None or version >= imported


Span = tuple[str, str] | None


def report_ids(record: Mapping[str, Any], report: Mapping[str, Any]) -> list[tuple[str, str, Span]]:
    """(vid, pid, bcdDevice span or None) the report is about; nothing when the record lists
    several IDs and the report does not say which."""
    listed = record.get("usb_ids", [])
    if report.get("usb_id"):
        vid, pid = report["usb_id"].split(":")
        chosen = [u for u in listed if u.get("vid") == vid and u.get("pid") == pid] or [{"vid": vid, "pid": pid}]
    elif len(listed) == 1:
        chosen = listed
    else:
        return []
    result = []
    for usb_id in chosen:
        listed_span = usb_id.get("bcd_device") or {}
        if report.get("bcd_device"):
            span: Span = (report["bcd_device"], report["bcd_device"])
        elif listed_span.get("min") and listed_span.get("max"):
            span = (listed_span["min"], listed_span["max"])
        else:
            span = None
        result.append((usb_id["vid"], usb_id["pid"], span))
    return result


def builtin_flags(table, vid: str, pid: str, span: Span) -> dict[str, str]:
    """flag -> where Linux sets it (header:line), for flags that surely apply to this unit:
    entries covering its whole bcdDevice span (every bcdDevice when it is unknown), outside any
    #if, and runtime checks that look at nothing but the ID."""
    found: dict[str, str] = {}
    for entry in table.entries_for(vid, pid):
        if entry.condition is None and (entry.covers(*span) if span else entry.every_bcd):
            for flag in entry.flags:
                found.setdefault(flag, f"{entry.file}:{entry.line}")
    for check in table.runtime_for(vid, pid):
        if check.unconditional:
            for flag in check.flags:
                found.setdefault(flag, f"{check.file}:{check.line}")
    return found
