"""What a report's own output shows: the driver bound (`Driver=` in `lsusb -t`, `scsi hostN:` in dmesg, the probe's
interface lines) and trouble on the storage link. The rules (records/rules/evidence.py) and the verdict engine
(verdicts/engine.py) both read reports through these, so a check and a verdict never read the same output two ways."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..probe.parsers import DMESG_TROUBLE, STORAGE_TROUBLE

# What a failure may be blamed on that is not the adapter (`blamed_on`): such a failure is shown, never counted.
NOT_THE_ADAPTER = frozenset({"power", "cable", "hub", "drive", "host", "software"})

# dmesg lines that mean trouble on the storage link (uas.c error handlers, resets, I/O errors, aborted or timed-out
# commands, hung tasks, a device taken offline): the paste parsers' list (probe/parsers.py DMESG_TROUBLE, which
# the check page shares), its storage kinds joined into one pattern, so the engine and the check page never differ.
TROUBLE_IN_DMESG = re.compile("|".join(f"(?:{pattern.pattern})" for kind, pattern in DMESG_TROUBLE if kind in STORAGE_TROUBLE),
                              re.IGNORECASE)
_DRIVER_IN_LSUSB_T = re.compile(r"Class=Mass Storage, Driver=(uas|usb-storage)\b")
_DRIVER_IN_DMESG = re.compile(r"scsi host\d+: (uas|usb-storage)\b")
_UAS_IGNORED_IN_DMESG = re.compile(r"UAS is (?:ignored|blacklisted) for this device")
# `uasdb probe` prints "interface 2-1:1.0: class 08 protocol 62 driver uas …" for each storage interface.
_DRIVER_IN_PROBE = re.compile(r"\binterface \S+: class 08 protocol \d+ driver (uas|usb-storage)\b")


def evidence_driver(report: Mapping[str, Any]) -> str | None:
    """The driver the attached output shows, if it shows one."""
    evidence = report.get("evidence") or {}
    for key, pattern in (("lsusb_t", _DRIVER_IN_LSUSB_T), ("probe", _DRIVER_IN_PROBE), ("dmesg", _DRIVER_IN_DMESG)):
        found = {m.group(1) for m in pattern.finditer(evidence.get(key) or "")}
        if len(found) == 1:
            return found.pop()
    if _UAS_IGNORED_IN_DMESG.search(evidence.get("dmesg") or ""):
        return "usb-storage"
    return None


def dmesg_trouble(report: Mapping[str, Any]) -> list[str]:
    """The dmesg lines of a report that show link trouble."""
    dmesg = (report.get("evidence") or {}).get("dmesg") or ""
    return [line.strip() for line in dmesg.splitlines() if TROUBLE_IN_DMESG.search(line)]


def has_trouble(report: Mapping[str, Any]) -> bool:
    return report.get("stability") in ("errors", "disconnects") or bool(dmesg_trouble(report))


def effective_driver(report: Mapping[str, Any]) -> str | None:
    return report.get("driver") or evidence_driver(report)
