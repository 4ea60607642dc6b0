"""Parsers for `lsusb`, `lsusb -t`, `lsusb -v`, `dmesg`, `ioreg` and `system_profiler` text, pasted or
captured. The check page's JavaScript reads the same captures the same way (tests/site/test_site_check.py holds
it to that).

Every regular expression here (and in site/assets/js/paste.js) runs in time linear in the line it reads, whatever
the line holds: a paste is untrusted, and a backtracking pattern froze the check page and probe.py for minutes on a
line of blanks. The rule that keeps them so: each pattern is named at module level; a pattern that may start
anywhere in a line begins with a literal and bounds any lazy middle (`.{1,60}?`, never `.+?`); no pattern matches
trailing blanks (`\\s*$`): lines are trimmed in code first; and two neighbouring repeats never compete for the same
characters. tests/test_linear_patterns.py feeds each pattern a megabyte of its worst case in both languages."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .common import LINK_SPEEDS, MASS_STORAGE_CLASS, PROTOCOL_UAS

# `lsusb`: "Bus 002 Device 003: ID 152d:0578 JMicron Technology Corp. ..."
LSUSB_LINE = re.compile(r"Bus (\d+) Device (\d+): ID ([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\s*(.*)$")
# `lsusb -t` root line: "/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M"
LSUSB_T_ROOT = re.compile(r"^\s*/:\s+Bus (\d+)\.Port (\d+): Dev (\d+),")
# `lsusb -t` interface line: "    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M"
LSUSB_T_NODE = re.compile(
    r"^(\s*)\|__ Port (\d+): Dev (\d+), If (\d+), Class=([^,]*), Driver=([^,]*), ([0-9.]+M)\s*$")
# `lsusb -v` fields we use ("  idVendor           0x152d JMicron ..." and friends), read by lsusb_field() in
# one pass: no regular expression, so a pasted line of spaces costs no more than its length. MaxPower is
# bMaxPower in mA and MaxStreams comes from the SuperSpeed endpoint companion: what uas-detect.h looks at.
LSUSB_V_FIELDS = frozenset({"idVendor", "idProduct", "bcdDevice", "bcdUSB", "iManufacturer", "iProduct", "iSerial",
                            "MaxPower", "MaxStreams", "bInterfaceClass", "bInterfaceProtocol", "bAlternateSetting"})
_BLANK = " \t\f\v"  # blanks inside a line, the same set as lsusbField() in site/assets/js/paste.js
LSUSB_V_SPEED = re.compile(r"^\s*Negotiated speed:.*\((\d+)(M|G)bps\)")
# dmesg: "usb 2-1: New USB device found, idVendor=152d, idProduct=0578, bcdDevice=32.02"
DMESG_NEW_DEVICE = re.compile(
    r"usb (\d+-[\d.]+): New USB device found, idVendor=([0-9a-fA-F]{4}), idProduct=([0-9a-fA-F]{4})"
    r"(?:, bcdDevice=\s*([0-9a-fA-F]+\.[0-9a-fA-F]+))?")
DMESG_STRING = re.compile(r"usb (\d+-[\d.]+): (Product|Manufacturer): (.*)$")
DMESG_ENUMERATED = re.compile(r"usb (\d+-[\d.]+): new (.{1,60}?) USB device number \d+")
DMESG_BOT = re.compile(r"(?:usb-storage (\d+-[\d.]+):\d+\.\d+: USB Mass Storage device detected"
                       r"|scsi host\d+: usb-storage (\d+-[\d.]+):\d+\.\d+)")
DMESG_UAS_HOST = re.compile(r"scsi host\d+: uas\b")
DMESG_UAS_REFUSED = re.compile(r"usb (\d+-[\d.]+): UAS is (blacklisted|ignored) for this device")
DMESG_QUIRKS_MATCH = re.compile(r"Quirks match for vid ([0-9a-f]{4}) pid ([0-9a-f]{4}): ([0-9a-fA-F]+)")
# Lines worth keeping as evidence, and the kinds of trouble they show.
# The one list of what dmesg lines mean trouble (the verdict engine reads it too: verdicts.TROUBLE_IN_DMESG counts
# STORAGE_TROUBLE of them against the driver); site/assets/js/paste.js keeps the same list, and the parity tests
# (tests/test_probe_parsers.py, tests/site/test_site_check.py) hold the two alike. First match wins.
DMESG_TROUBLE = (
    ("reset", re.compile(r"reset (?:SuperSpeed|high-speed|full-speed)|uas_eh_(?:device|bus)_reset_handler start"
                         r"|uas_zap_pending|device reset", re.I)),
    ("io-error", re.compile(r"I/O error|critical medium error|Buffer I/O error", re.I)),
    ("hang", re.compile(r"blocked for more than \d+ seconds", re.I)),
    ("offline", re.compile(r"rejecting I/O to offline device|device offlined", re.I)),
    ("disconnect", re.compile(r"USB disconnect", re.I)),
    ("power", re.compile(r"Under-?voltage|over-current|overcurrent", re.I)),
    ("timeout", re.compile(r"command .{0,200} timed out|abort|timing out command", re.I)),
)
# One round of UAS error handling prints "uas_eh_device_reset_handler start", the USB "reset SuperSpeed USB device"
# line and "… success" (or FAILED): it counts as one reset, at its start, and an aborted command before it
# (uas_eh_abort_handler) as one timeout.
RESET_ROUND_END = re.compile(r"uas_eh_(?:device|bus)_reset_handler (?:success|FAILED|failed)", re.I)
USB_RESET = re.compile(r"reset (?:SuperSpeed|high-speed|full-speed)", re.I)
# The kinds that count against a storage link: not a disconnect (unplugging) nor a power warning (the supply).
STORAGE_TROUBLE = ("reset", "io-error", "hang", "offline", "timeout")
DMESG_RELEVANT = re.compile(r"\buas\b|usb-storage|\bUAS\b|reset|quirk|Under-?voltage|I/O error|USB disconnect"
                            r"|New USB device|new .{0,60}USB device number|: (?:Product|Manufacturer): |scsi host|Direct-Access|over-?current", re.I)


# Small patterns the functions below use, named like the rest so the linear-time test sees them all, and anchored
# (^…$) where they are used with match or fullmatch, so the test reads them as they are used.
DIGITS = re.compile(r"^[0-9]+$")  # ASCII digits only, like /^\d+$/ in JavaScript (str.isdigit takes other scripts' too)
MAX_POWER = re.compile(r"^[0-9]+mA$")
BCD_DOTTED = re.compile(r"^([0-9a-fA-F]{1,2})\.([0-9a-fA-F]{2})$")
HEX_NUMBER = re.compile(r"^[0-9a-fA-F]+$")
# `idVendor 0x152d JMicron ...`: four hex digits and nothing else; any other value is not an ID.
LSUSB_V_ID = re.compile(r"0x([0-9a-fA-F]{4})")
BARE_USB_ID = re.compile(r"(?<![0-9a-fA-Fx:])([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?![0-9a-fA-F:])")
# Spellings Windows and C sources print: VID_152D&PID_0578, 0x152d 0x0578, 0x152d:0x0578.
OTHER_USB_ID = re.compile(r"VID_([0-9a-fA-F]{4})&PID_([0-9a-fA-F]{4})|\b0x([0-9a-fA-F]{4})[ :]0x([0-9a-fA-F]{4})\b")


def _is_digits(text: str) -> bool:
    return DIGITS.fullmatch(text) is not None


def lsusb_field(line: str) -> Optional[Tuple[str, str, str]]:
    """"  iManufacturer           1 JMicron  " -> ("iManufacturer", "1", "JMicron"): name, first word, the rest."""
    i, n = 0, len(line)

    def skip() -> None:
        nonlocal i
        while i < n and line[i] in _BLANK:
            i += 1

    def word() -> str:
        nonlocal i
        start = i
        while i < n and line[i] not in _BLANK:
            i += 1
        return line[start:i]

    skip()
    name = word()
    if name not in LSUSB_V_FIELDS or i >= n:
        return None
    skip()
    value = word()
    if not value:
        return None
    skip()
    end = n
    while end > i and line[end - 1] in _BLANK:
        end -= 1
    return name, value, line[i:end]


def bcd_from_dotted(text: str) -> Optional[str]:
    """lsusb and dmesg print bcdDevice as hex digits `32.02` or ` 1.00`; the schema wants `3202`, `0100`."""
    match = BCD_DOTTED.fullmatch((text or "").strip())
    if not match:
        return None
    return f"{int(match.group(1), 16):02x}{int(match.group(2), 16):02x}"


def speed_from_text(text: str) -> Optional[str]:
    """Link speed in `lsusb -t` form from dmesg's or lsusb's words ("SuperSpeed Gen 1", "high-speed", "10Gbps")."""
    words = text.lower()
    if "gen 2x2" in words or "20gbps" in words:
        return "20000M"
    if ("superspeed plus" in words or "superspeedplus" in words or "superspeed+" in words or "gen 2" in words
            or "gen 1x2" in words or "10gbps" in words):
        return "10000M"
    if "superspeed" in words or "5gbps" in words:
        return "5000M"
    if "high-speed" in words or "high speed" in words or "480mbps" in words:
        return "480M"
    return None


def parse_lsusb(text: str) -> List[Dict[str, Any]]:
    """`lsusb` lines -> [{bus, device, vid, pid, name, line}]."""
    found = []
    for line in text.splitlines():
        match = LSUSB_LINE.search(line)
        if match:
            found.append({"bus": int(match.group(1)), "device": int(match.group(2)),
                          "vid": match.group(3).lower(), "pid": match.group(4).lower(),
                          "name": match.group(5).strip(), "line": line.strip()})
    return found


def parse_lsusb_tree(text: str) -> List[Dict[str, Any]]:
    """`lsusb -t` -> one entry per interface line: {bus, port, device, interface, class, driver, speed, line}.

    The bus comes from the nearest `/: Bus NN` line above; pastes that lost it get bus None.
    """
    interfaces = []
    bus: Optional[int] = None
    for line in text.splitlines():
        root = LSUSB_T_ROOT.match(line)
        if root:
            bus = int(root.group(1))
            continue
        node = LSUSB_T_NODE.match(line)
        if node:
            driver = node.group(6).strip()
            interfaces.append({"bus": bus, "port": int(node.group(2)), "device": int(node.group(3)),
                               "interface": int(node.group(4)), "class": node.group(5).strip(),
                               "driver": driver if driver and driver != "[none]" else None,
                               "speed": node.group(7), "line": line.rstrip()})
    return interfaces


def storage_interfaces(tree: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """The mass-storage interfaces of a parsed `lsusb -t`."""
    return [i for i in tree if i["class"].lower() == "mass storage"]


def parse_lsusb_verbose(text: str) -> List[Dict[str, Any]]:
    """`lsusb -v` -> one dict per device: vid, pid, bcd_device, manufacturer, product, speed,
    interfaces [{alt, class, protocol}], and offers_uas (an alternate setting with protocol 98 = UAS).

    A new device starts at each `Bus … Device …: ID` line or `Device Descriptor:` that follows a finished one.
    """
    devices: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None

    def start() -> Dict[str, Any]:
        device: Dict[str, Any] = {"vid": None, "pid": None, "bcd_device": None, "bcd_usb": None, "manufacturer": None,
                                  "product": None, "serial": None, "speed": None, "max_power_ma": None,
                                  "max_streams": None, "interfaces": []}
        devices.append(device)
        return device

    for line in text.splitlines():
        header = LSUSB_LINE.search(line)
        if header:
            current = start()
            current["vid"], current["pid"] = header.group(3).lower(), header.group(4).lower()
            continue
        if line.strip() == "Device Descriptor:" and (current is None or current["bcd_device"] is not None):
            current = start()
            continue
        speed = LSUSB_V_SPEED.match(line)
        if speed:
            current = current or start()
            number = int(speed.group(1)) * (1000 if speed.group(2) == "G" else 1)
            current["speed"] = LINK_SPEEDS.get(str(number))
            continue
        field = lsusb_field(line)
        if not field:
            continue
        current = current or start()
        name, value, rest = field
        usb_id = LSUSB_V_ID.fullmatch(value) if name in ("idVendor", "idProduct") else None
        if usb_id:
            current["vid" if name == "idVendor" else "pid"] = usb_id.group(1).lower()
        elif name in ("bcdDevice", "bcdUSB"):
            current["bcd_device" if name == "bcdDevice" else "bcd_usb"] = bcd_from_dotted(value)
        elif name in ("iManufacturer", "iProduct", "iSerial"):
            current[{"iManufacturer": "manufacturer", "iProduct": "product", "iSerial": "serial"}[name]] = rest or None
        elif name == "MaxPower" and MAX_POWER.fullmatch(value):
            current["max_power_ma"] = int(value[:-2])
        elif name == "MaxStreams" and _is_digits(value):
            current["max_streams"] = max(current["max_streams"] or 0, int(value))
        elif name == "bAlternateSetting":
            current["interfaces"].append({"alt": int(value) if _is_digits(value) else None, "class": None, "protocol": None})
        elif name in ("bInterfaceClass", "bInterfaceProtocol") and _is_digits(value):
            if not current["interfaces"]:  # a paste that starts inside an interface
                current["interfaces"].append({"alt": None, "class": None, "protocol": None})
            current["interfaces"][-1]["class" if name == "bInterfaceClass" else "protocol"] = int(value)
    for device in devices:
        storage = [i for i in device["interfaces"] if i["class"] == MASS_STORAGE_CLASS]
        if any(i["protocol"] == PROTOCOL_UAS for i in storage):
            device["offers_uas"] = True
        elif storage and all(i["protocol"] is not None for i in storage):
            device["offers_uas"] = False  # a paste cut short can hide a later UAS setting; the text says so
        else:
            device["offers_uas"] = None
    # A bare `lsusb` line makes a header with nothing under it; that is not `lsusb -v` output.
    return [d for d in devices if d["bcd_device"] or d["interfaces"] or d["speed"] or d["product"]]


def parse_dmesg(text: str) -> Dict[str, Any]:
    """dmesg (or `journalctl -k`) text -> {devices: {port: {...}}, events: [{kind, line}], lines: [...]}.

    Each device is keyed by its USB port path (`2-1`) and gets vid, pid, bcd_device, product,
    manufacturer, speed, driver, and uas_refused ("blacklisted" = kernel's own quirk table,
    "ignored" = a usb-storage.quirks entry) and kernel_quirks (hex flags the kernel matched).
    `scsi host0: uas` names no port, so it is credited to the device enumerated just before it.
    """
    devices: Dict[str, Dict[str, Any]] = {}
    events: List[Dict[str, str]] = []
    relevant: List[str] = []
    last_port: Optional[str] = None
    in_reset_round = False

    def device(port: str) -> Dict[str, Any]:
        return devices.setdefault(port, {"port": port, "vid": None, "pid": None, "bcd_device": None,
                                         "product": None, "manufacturer": None, "speed": None,
                                         "driver": None, "uas_refused": None, "kernel_quirks": None})

    for raw in text.splitlines():
        line = raw.rstrip()
        if not line.strip():
            continue
        if DMESG_RELEVANT.search(line):
            relevant.append(line)
        for kind, pattern in DMESG_TROUBLE:
            if pattern.search(line):
                if not (in_reset_round and kind == "reset" and USB_RESET.search(line)):
                    events.append({"kind": kind, "line": line})
                in_reset_round = in_reset_round or (kind == "reset" and not USB_RESET.search(line)
                                                    and "reset_handler" in line)
                break
        if RESET_ROUND_END.search(line):
            in_reset_round = False
        match = DMESG_ENUMERATED.search(line)
        if match:
            device(match.group(1))["speed"] = speed_from_text(match.group(2))
            last_port = match.group(1)
            continue
        match = DMESG_NEW_DEVICE.search(line)
        if match:
            entry = device(match.group(1))
            entry["vid"], entry["pid"] = match.group(2).lower(), match.group(3).lower()
            if match.group(4):
                entry["bcd_device"] = bcd_from_dotted(match.group(4))
            last_port = match.group(1)
            continue
        match = DMESG_STRING.search(line)
        if match:
            device(match.group(1))[match.group(2).lower()] = match.group(3)
            continue
        match = DMESG_UAS_REFUSED.search(line)
        if match:
            device(match.group(1))["uas_refused"] = match.group(2)
            continue
        match = DMESG_BOT.search(line)
        if match:
            device(match.group(1) or match.group(2))["driver"] = "usb-storage"
            continue
        match = DMESG_QUIRKS_MATCH.search(line)
        if match:
            for entry in devices.values():
                if entry["vid"] == match.group(1) and entry["pid"] == match.group(2):
                    entry["kernel_quirks"] = match.group(3).lower()
            continue
        if DMESG_UAS_HOST.search(line) and last_port:
            device(last_port)["driver"] = "uas"
    return {"devices": devices, "events": events, "lines": relevant}


def find_usb_ids(text: str) -> List[str]:
    """Every `vid:pid` in a paste, from lsusb lines, lsusb -v, dmesg, system_profiler, a bare `152d:0578` or the
    spellings Windows and C sources print (VID_152D&PID_0578, 0x152d 0x0578)."""
    ids: List[str] = []

    def add(vid: str, pid: str) -> None:
        usb_id = f"{vid.lower()}:{pid.lower()}"
        if usb_id not in ids:
            ids.append(usb_id)

    for entry in parse_lsusb(text):
        add(entry["vid"], entry["pid"])
    for entry in parse_lsusb_verbose(text):
        if entry["vid"] and entry["pid"]:
            add(entry["vid"], entry["pid"])
    for entry in parse_dmesg(text)["devices"].values():
        if entry["vid"] and entry["pid"]:
            add(entry["vid"], entry["pid"])
    for entry in parse_system_profiler(text):
        if entry.get("vid") and entry.get("pid"):
            add(entry["vid"], entry["pid"])
    for match in BARE_USB_ID.finditer(text):
        add(match.group(1), match.group(2))
    for match in OTHER_USB_ID.finditer(text):
        add(match.group(1) or match.group(3), match.group(2) or match.group(4))
    return ids




# ---------------------------------------------------------------------------
# macOS: ioreg says which driver is bound, system_profiler says IDs and speed.
# ---------------------------------------------------------------------------

IOREG_NODE = re.compile(r"^(?P<indent>[ |]*)\+-o (?P<name>.+?)  <class (?P<cls>[A-Za-z0-9_]+)")
IOREG_PROPERTY = re.compile(r'^[ |]*"(?P<key>[^"]+)" = (?P<value>.*)$')
MAC_DEVICE_CLASSES = ("IOUSBHostDevice", "IOUSBDevice")
MAC_UAS_CLASSES = ("IOUSBMassStorageUASDriver", "IOUSBAttachedSCSI")
MAC_BOT_CLASSES = ("IOUSBMassStorageDriver", "IOUSBMassStorageClass")


def parse_ioreg(text: str) -> List[Dict[str, Any]]:
    """`ioreg -p IOService -l -w0 -r -c IOUSBHostDevice` (or plain `ioreg`) -> USB devices with the
    storage driver found below each: `uas` for IOUSBMassStorageUASDriver, `usb-storage` for the BOT
    driver (IOUSBMassStorageDriver). IDs come from the properties that `-l` prints, the location from
    the `Name@14500000` suffix."""
    devices: List[Dict[str, Any]] = []
    stack: List[Tuple[int, Optional[Dict[str, Any]]]] = []   # (depth, device the node belongs to)
    last_node_is_device: Optional[Dict[str, Any]] = None
    for line in text.splitlines():
        node = IOREG_NODE.match(line)
        if node:
            depth = len(node.group("indent"))
            while stack and stack[-1][0] >= depth:
                stack.pop()
            owner = stack[-1][1] if stack else None
            cls = node.group("cls")
            name = node.group("name")
            if cls in MAC_DEVICE_CLASSES:
                base, _, location = name.partition("@")
                owner = {"name": base, "location": int(location, 16) if HEX_NUMBER.fullmatch(location) else None,
                         "vid": None, "pid": None, "bcd_device": None, "product": None, "manufacturer": None,
                         "driver": None}
                devices.append(owner)
                last_node_is_device = owner
            else:
                last_node_is_device = None
                if owner is not None and owner["driver"] is None:
                    if any(cls.startswith(c) for c in MAC_UAS_CLASSES):
                        owner["driver"] = "uas"
                    elif cls in MAC_BOT_CLASSES:
                        owner["driver"] = "usb-storage"
            stack.append((depth, owner))
            continue
        prop = IOREG_PROPERTY.match(line)
        if prop and last_node_is_device is not None:
            key, value = prop.group("key"), prop.group("value").strip()
            number = int(value) if _is_digits(value) else None
            if key == "idVendor" and number is not None:
                last_node_is_device["vid"] = f"{number:04x}"
            elif key == "idProduct" and number is not None:
                last_node_is_device["pid"] = f"{number:04x}"
            elif key == "bcdDevice" and number is not None:
                last_node_is_device["bcd_device"] = f"{number:04x}"
            elif key == "locationID" and number is not None:
                last_node_is_device["location"] = number
            elif key in ("USB Product Name", "kUSBProductString"):
                last_node_is_device["product"] = value.strip('"')
            elif key in ("USB Vendor Name", "kUSBVendorString"):
                last_node_is_device["manufacturer"] = value.strip('"')
    return [d for d in devices if d["name"] not in ("Root Hub Simulation",)]


# Both read a line whose trailing blanks are already trimmed: `(\S.*?)\s*$` backtracked over every blank of a value.
SP_HEADING = re.compile(r"^(\s*)(\S.*?):$")
SP_FIELD = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 .()/-]*?):\s+(\S.*)$")
SP_HEX_ID = re.compile(r"^0x([0-9a-fA-F]{4})")
SP_HEX_NUMBER = re.compile(r"^0x([0-9a-fA-F]+)")
# Starts only where a number starts: searched from every digit of a long run, it was quadratic.
MACOS_SPEED = re.compile(r"(?<![0-9.])([0-9.]+)\s*(Mb|Gb)")


def parse_system_profiler(text: str) -> List[Dict[str, Any]]:
    """`system_profiler SPUSBDataType` -> entries with vid, pid, bcd_device (from `Version: 8.20`),
    manufacturer, product (the heading), speed, location, bsd_names.

    A heading line (`Name:` with nothing after the colon) starts an entry; headings inside a
    `Media:` block name disks and volumes, whose `BSD Name` belongs to the entry above."""
    entries: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None
    media_indent: Optional[int] = None
    for line in text.splitlines():
        line = line.rstrip()
        heading = SP_HEADING.match(line)
        if heading:
            indent, title = len(heading.group(1)), heading.group(2).strip()
            if media_indent is not None and indent > media_indent:
                continue  # a disk or volume name inside Media:
            media_indent = None
            if title == "Media" and current is not None:
                media_indent = indent
                continue
            current = {"product": title, "vid": None, "pid": None, "bcd_device": None, "manufacturer": None,
                       "speed": None, "location": None, "bsd_names": []}
            entries.append(current)
            continue
        field_match = SP_FIELD.match(line)
        if not field_match or current is None:
            continue
        key, value = field_match.group(1), field_match.group(2)
        if media_indent is not None:
            if key == "BSD Name":
                current["bsd_names"].append(value)
            continue
        if key in ("Product ID", "Vendor ID"):
            hex_id = SP_HEX_ID.match(value)
            current["pid" if key == "Product ID" else "vid"] = hex_id.group(1).lower() if hex_id else None
        elif key == "Version":
            current["bcd_device"] = bcd_from_dotted(value)
        elif key == "Manufacturer":
            current["manufacturer"] = value
        elif key == "Speed":
            current["speed"] = _macos_speed(value)
        elif key == "Location ID":
            location = SP_HEX_NUMBER.match(value)
            current["location"] = int(location.group(1), 16) if location else None
        elif key == "BSD Name":
            current["bsd_names"].append(value)
    return [e for e in entries if e["pid"] and e["vid"]]


def _macos_speed(value: str) -> Optional[str]:
    match = MACOS_SPEED.search(value)
    if not match:
        return None
    megabits = float(match.group(1)) * (1000 if match.group(2) == "Gb" else 1)
    return LINK_SPEEDS.get(str(int(megabits)))


def join_macos(ioreg_devices: List[Dict[str, Any]], profiler: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """system_profiler entries that are storage (have a BSD disk or a storage driver in ioreg), each with
    the driver ioreg shows at the same location."""
    by_location = {d["location"]: d for d in ioreg_devices if d["location"] is not None}
    joined = []
    for entry in profiler:
        io = by_location.get(entry["location"]) if entry["location"] is not None else None
        driver = io["driver"] if io else None
        if not entry["bsd_names"] and driver is None:
            continue
        joined.append(dict(entry, driver=driver, in_ioreg=io is not None))
    known = {(e["vid"], e["pid"], e["location"]) for e in joined}
    for io in ioreg_devices:  # `ioreg -l` alone carries IDs too
        if io["driver"] and io["vid"] and (io["vid"], io["pid"], io["location"]) not in known \
                and io["location"] not in {e["location"] for e in joined}:
            joined.append({"product": io["product"] or io["name"], "vid": io["vid"], "pid": io["pid"],
                           "bcd_device": io["bcd_device"], "manufacturer": io["manufacturer"], "speed": None,
                           "location": io["location"], "bsd_names": [], "driver": io["driver"], "in_ioreg": True})
    return joined
