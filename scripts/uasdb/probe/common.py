"""Constants and the error type every part of the probe shares."""
from __future__ import annotations

import re
import unicodedata

PROBE_VERSION = "1"
SITE_URL = "https://uasdb.github.io"
REPORT_START = "# ---- uasdb report for {usb_id} ----"
REPORT_END = "# ---- end of uasdb report ----"
SKELETON_START = "# ---- new adapter file data/adapters/{id}.yaml ----"
SKELETON_END = "# ---- end of new adapter file ----"
REPORT_START_RE = re.compile(r"^# ---- uasdb report for ([0-9a-f]{4}:[0-9a-f]{4}) ----\s*$")

MASS_STORAGE_CLASS = 0x08
PROTOCOL_BOT = 0x50       # Bulk-Only Transport: what usb-storage speaks
PROTOCOL_UAS = 0x62       # USB Attached SCSI
LINK_SPEEDS = {"480": "480M", "5000": "5000M", "10000": "10000M", "20000": "20000M"}
STORAGE_DRIVERS = ("uas", "usb-storage")


def printable(text: str, lines: bool = False) -> str:
    """`text` made safe to print on a terminal: every control character (C0, DEL, C1: ESC starts the sequences
    that clear or rewrite what the user is asked to check), every invisible format character (U+202E and the other
    bidirectional controls reorder what is shown) and line or paragraph separator becomes a visible escape such as
    `\\x1b` or `\\u202e`. A device's strings come from the device, and the probe often runs as root. A one-line
    value has its line breaks escaped too, so it cannot forge lines of its own; with `lines`, the text is command
    output whose newlines and tabs are its own."""
    kept = "\n\t" if lines else ""
    if text.isprintable() and not any(ch in text for ch in "\u2028\u2029"):
        return text
    return "".join(ch if ch in kept or (ch.isprintable() and unicodedata.category(ch) not in ("Cf", "Zl", "Zp"))
                   else _escape(ch) for ch in text)


def _escape(character: str) -> str:
    code = ord(character)
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(character) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


class ProbeError(Exception):
    """A problem with the environment that the user can act on; printed without a traceback."""
