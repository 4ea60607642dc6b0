"""Constants and the error type every part of the probe shares."""
from __future__ import annotations

import re

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


# The one text-safety set: every character a reader cannot see but a program still reads. The validator's
# `text-safe` rule (records/rules/text.py) refuses it in every field of every record, the issue bot in every answer,
# and `printable` below escapes it in everything the probe prints, so the probe never prints what the bot refuses.
# It lives here because the probe ships as one standard-library file (publish/probebuild.py) and the rest of uasdb
# may import from the probe, not the other way round:
# - the C0 and C1 controls and DEL (tab and newline are judged separately, by field);
# - Unicode's format characters (category Cf): bidirectional controls that make text read differently from what it
#   is ("Trojan Source"), zero-width space, joiners and non-joiners, word joiner, soft hyphen, the byte-order mark,
#   invisible operators, and the tag characters that spell hidden text;
# - line and paragraph separators (U+2028, U+2029; NEL U+0085 is a C1 control), which some YAML readers and
#   JavaScript take for line breaks;
# - the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), letters that draw as blanks, and the whole tag block
#   (U+E0000-U+E007F), its unassigned code points included;
# - the Unicode noncharacters (U+FDD0-U+FDEF and the last two code points of every plane, U+FFFE and U+FFFF among
#   them) and lone surrogates, which XML forbids: one in a record made atom.xml not well-formed.
# tests/rules/test_text.py checks the set against Python's Unicode tables, so a newer Unicode's format characters
# cannot slip through unnoticed.
INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160"
    "\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ud800-\udfff\ufdd0-\ufdef\ufeff\uffa0"
    "\ufff9-\ufffb\ufffe\uffff"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f"
    + "".join(f"\\U{plane:04x}fffe\\U{plane:04x}ffff" for plane in range(1, 17)) + "]")


def printable(text: str, lines: bool = False) -> str:
    """`text` made safe to print on a terminal: every control character (C0, DEL, C1: ESC starts the sequences
    that clear or rewrite what the user is asked to check), every invisible format character (U+202E and the other
    bidirectional controls reorder what is shown) and line or paragraph separator becomes a visible escape such as
    `\\x1b` or `\\u202e`. A device's strings come from the device, and the probe often runs as root. A one-line
    value has its line breaks escaped too, so it cannot forge lines of its own; with `lines`, the text is command
    output whose newlines and tabs are its own."""
    if text.isprintable() and not INVISIBLE.search(text):
        return text
    if lines:  # each piece between the output's own newlines and tabs on its own: most lines are clean already
        return "".join(piece if piece in ("\n", "\t") else printable(piece) for piece in _OWN_BREAKS.split(text))
    return "".join(ch if ch.isprintable() and not INVISIBLE.match(ch) else _escape(ch) for ch in text)


_OWN_BREAKS = re.compile("([\n\t])")


def _escape(character: str) -> str:
    code = ord(character)
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(character) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


class ProbeError(Exception):
    """A problem with the environment that the user can act on; printed without a traceback."""
