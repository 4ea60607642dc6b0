"""The worst case of every pattern in the paste parsers (scripts/uasdb/probe/parsers.py, site/assets/js/paste.js),
for the linear-time tests in Python (tests/test_linear_patterns.py) and in Chromium (tests/site/test_site_check.py).

Each case is (prefix, unit, suffix): the input is the prefix, the unit repeated to fill MEGABYTE, then the suffix;
every match of the pattern in it is found (by replacing them all, which makes no object per match), as a paste
would be read at worst. A pattern is linear when that takes at most LINEAR_FACTOR times as long as a reference
pattern that visits each character once, run on the same text in the same process (a fixed number of seconds would
depend on the machine and its load); the faster of two runs counts. Linear patterns take up to about 100 times the
reference (Chromium's engine runs the reference very fast, and a bounded middle such as `.{0,200}` is read again
from each place it may start); a backtracking pattern takes hundreds of thousands of times as long on a megabyte,
so the margin is wide on both sides.
"""
from __future__ import annotations

import re

from helpers import REPO

MEGABYTE = 1 << 20
LINEAR_FACTOR = 500

Case = tuple[str, str, str]

# Inputs every pattern gets: long runs of blanks, letters, digits and punctuation.
EVERY_PATTERN: list[Case] = [("", " ", "x"), ("", "a", ":"), ("", "1", "x"), ("", ":", " ")]

WORST_CASES: dict[str, list[Case]] = {
    "LSUSB_LINE": [("Bus ", "1", ""), ("", "Bus 1 Device 1: ID 1234:", ""), ("Bus 1 Device 1: ID 1234:5678", " ", "")],
    "LSUSB_T_ROOT": [("/:", " ", "x"), ("", " ", "/:x")],
    "LSUSB_T_NODE": [("|__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M", " ", "x"),
                     ("|__ Port 1: Dev 2, If 0, Class=", "a", ""), ("|__ Port 1: Dev 2, If 0, Class=a, Driver=b, ", "1", "x")],
    "LSUSB_V_SPEED": [("Negotiated speed:", "(1", ""), ("Negotiated speed:(", "1", "x")],
    "DMESG_NEW_DEVICE": [("usb 1-", "1", ""), ("", "usb 1-1: New USB device found, idVendor=", "")],
    "DMESG_STRING": [("", "usb 1-1: Product", ""), ("usb 1-", "1.", "")],
    "DMESG_ENUMERATED": [("", "usb 1-1: new ", ""), ("usb 1-1: new ", "a", "")],
    "DMESG_BOT": [("usb-storage 1-", "1", ""), ("", "scsi host1: usb-storage 1-1:1", "")],
    "DMESG_UAS_HOST": [("", "scsi host1: ua", ""), ("scsi host", "1", "")],
    "DMESG_UAS_REFUSED": [("", "usb 1-1: UAS is ", "")],
    "DMESG_QUIRKS_MATCH": [("", "Quirks match for vid 152d pid 0578: ", "")],
    "DMESG_TROUBLE.reset": [("", "uas_eh_", ""), ("", "reset ", ""), ("", "uas_eh_device_reset_handler ", "")],
    "RESET_ROUND_END": [("", "uas_eh_", ""), ("", "uas_eh_bus_reset_handler ", "")],
    "USB_RESET": [("", "reset ", ""), ("", "reset high-", "")],
    "DMESG_TROUBLE.io-error": [("", "Buffer I/O erro", "")],
    "DMESG_TROUBLE.hang": [("", "blocked for more than 1", ""), ("", "blocked for more than ", "")],
    "DMESG_TROUBLE.offline": [("", "rejecting I/O to offline devic", ""), ("", "device offline", "")],
    "DMESG_TROUBLE.disconnect": [("", "USB disconnec", "")],
    "DMESG_TROUBLE.power": [("", "Under-voltag", "")],
    "DMESG_TROUBLE.timeout": [("", "command ", ""), ("command ", "a", "")],
    "DMESG_RELEVANT": [("", "new ", ""), ("new ", "a", ""), ("", "Product", "")],
    "DIGITS": [("", "1", "x")],
    "MAX_POWER": [("", "1", "x")],
    "BCD_DOTTED": [("", "1", "x"), ("1.00", " ", "x")],
    "HEX_NUMBER": [("", "a", "x")],
    "LSUSB_V_ID": [("0x", "a", "x"), ("", "0x", "")],
    "BARE_USB_ID": [("", "1234:", ""), ("", "a", "")],
    "OTHER_USB_ID": [("", "VID_1234&PID_", ""), ("", "0x1234 ", ""), ("", "0x", "")],
    "IOREG_NODE": [("+-o ", "a", ""), ("+-o ", "a  ", ""), ("", "|", "x"), ("", " ", "+-o x")],
    "IOREG_PROPERTY": [('"', "a", ""), ("", "|", '"')],
    "SP_HEADING": [("a:", " ", "x"), ("a", ": ", "x"), ("", " ", "a")],
    "SP_FIELD": [("    Product ID: 0x0578", " ", "x"), ("A", " ", "x"), ("A: b", " ", "x")],
    "SP_HEX_ID": [("0x", "a", "x")],
    "SP_HEX_NUMBER": [("0x", "a", "x")],
    "MACOS_SPEED": [("", "1", "x"), ("1", " ", "x"), ("", "1.", "x")],
    # Patterns only the check page has (it also reads the probe's own output and the user's quirk settings).
    "LINE_BREAK": [("", "a", ""), ("", "\r", "")],
    "PROBE_HOST": [("host: (", "a", " x"), ("host: ", "(a)", "x"), ("", "#", "x"), ("host: (a)", " ", "x")],
    "PROBE_DEVICE": [("# device 2-1: 152d:0578", " ", "x"), ("# device 2-1: 152d:0578 usb ", "1", "x"),
                     ("# device 2-1: 152d:0578", " speed 1", "x"), ("# device ", "a", "")],
    "PROBE_INTERFACE": [("interface ", "a:", ""), ("interface ", "a", "")],
    "PROBE_OFFERS": [("", "#", "x")],
    "PROBE_QUOTED": [('"', "a", ""), ("", '"a', "")],
    "PROBE_STORAGE_CLASS": [("", "class 0", "")],
    "CMDLINE_QUIRKS": [("", "usb-storage.quirk", "")],
    "PROBE_MODULE_QUIRKS": [("", "#", "x")],
    "QUIRK_ENTRY": [("", "a", "")],
    "MACHINE_MODEL": [("Machine model: a", " ", "x"), ("", "Machine model: ", "")],
}


def cases(name: str) -> list[Case]:
    return WORST_CASES[name] + EVERY_PATTERN


def worst_text(case: Case) -> str:
    prefix, unit, suffix = case
    return prefix + unit * ((MEGABYTE - len(prefix) - len(suffix)) // len(unit)) + suffix


def python_patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern of probe/parsers.py, by its name (DMESG_TROUBLE's by `DMESG_TROUBLE.<kind>`)."""
    from uasdb.probe import parsers
    found = {}
    for name, value in vars(parsers).items():
        if isinstance(value, re.Pattern):
            found[name] = value
        elif name == "DMESG_TROUBLE":
            found.update({f"{name}.{kind}": pattern for kind, pattern in value})
    return found


PASTE_JS = REPO / "site" / "assets" / "js" / "paste.js"
# A regular-expression literal: `/`, then escapes, classes or other characters, then `/` and flags.
_JS_REGEX = r"/(?![/*])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\[\n])+/[dgimsuy]*"
_NAMED_JS = re.compile(rf"^const ([A-Z][A-Z0-9_]*) = ({_JS_REGEX});", re.M)
_LISTED_JS = re.compile(rf"\['([a-z-]+)', ({_JS_REGEX})\]")
# Where JavaScript reads `/` as the start of a regular expression rather than a division.
_ANY_JS = re.compile(rf"(?:^|[=(,:\[!&|?{{}};>]|\breturn)[ \t]*({_JS_REGEX})", re.M)


def _without_comments(source: str) -> str:
    return "\n".join(re.sub(r"(^|\s)//\s.*$", "", line) for line in source.splitlines() if not line.lstrip().startswith("//"))


def javascript_patterns(source: str = None) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """paste.js's patterns by name, as (source, flags), and every literal that is neither a named constant nor an
    entry of DMESG_TROUBLE (there should be none: a pattern without a name has no worst case to test)."""
    text = _without_comments(source if source is not None else PASTE_JS.read_text(encoding="utf-8"))
    named: dict[str, tuple[str, str]] = {}
    for name, literal in _NAMED_JS.findall(text):
        named[name] = _split_literal(literal)
    for kind, literal in _LISTED_JS.findall(text):
        named[f"DMESG_TROUBLE.{kind}"] = _split_literal(literal)
    known = {f"/{body}/{flags}" for body, flags in named.values()}
    unnamed = [literal for literal in _ANY_JS.findall(text) if literal not in known]
    return named, unnamed


def _split_literal(literal: str) -> tuple[str, str]:
    end = literal.rindex("/")
    return literal[1:end], literal[end + 1:]
