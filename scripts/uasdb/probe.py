#!/usr/bin/env python3
"""uasdb probe: how this computer sees its USB storage adapters, written as a uasdb report.

One file, Python 3.9+ standard library only, no imports from the uasdb package,
so it can be fetched onto a Raspberry Pi and run as it is:

    python3 probe.py                      # read-only: sysfs, /proc, dmesg when allowed
    python3 probe.py --handle octocat     # fill in `source: {tested_by: ...}`
    python3 probe.py --bench-read /dev/sda --bench-write /mnt/usb   # optional benchmarks

What it reads (Linux): every USB device with a mass-storage interface under
/sys/bus/usb/devices (IDs, bcdDevice, strings, link speed, the driver bound to
each interface, whether the adapter offers UAS at all), the Pi model from the
device tree, the kernel release, /etc/os-release, active usb-storage.quirks
(kernel command line and module parameter), the bootloader build date, and the
uas/usb-storage/reset lines of dmesg when the kernel lets us read them. On macOS
it reads `ioreg` and `system_profiler SPUSBDataType` instead. It never writes to
a device; the optional write benchmark writes one temporary file inside a
directory you name and deletes it.

The parsers for pasted `lsusb`, `lsusb -t`, `lsusb -v` and `dmesg` text live here
too (the website's check page reimplements them in JavaScript), so each is kept
to a few documented regular expressions.
"""
from __future__ import annotations

import argparse
import datetime
import json
import mmap
import os
import platform
import random
import re
import shutil
import stat
import tempfile
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

PROBE_VERSION = "1"
SITE_URL = "https://uasdb.github.io"
ISSUE_URL = "https://github.com/uasdb/uasdb/issues/new?template=adapter-report.yml"
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


class ProbeError(Exception):
    """A problem with the environment that the user can act on; printed without a traceback."""


# ---------------------------------------------------------------------------
# Parsers for pasted text. Each takes the whole paste and ignores lines it does
# not recognise, so shell prompts, headings and other commands' output may be mixed in.
# ---------------------------------------------------------------------------

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
DMESG_ENUMERATED = re.compile(r"usb (\d+-[\d.]+): new (.+?) USB device number \d+")
DMESG_BOT = re.compile(r"(?:usb-storage (\d+-[\d.]+):\d+\.\d+: USB Mass Storage device detected"
                       r"|scsi host\d+: usb-storage (\d+-[\d.]+):\d+\.\d+)")
DMESG_UAS_HOST = re.compile(r"scsi host\d+: uas\b")
DMESG_UAS_REFUSED = re.compile(r"usb (\d+-[\d.]+): UAS is (blacklisted|ignored) for this device")
DMESG_QUIRKS_MATCH = re.compile(r"Quirks match for vid ([0-9a-f]{4}) pid ([0-9a-f]{4}): ([0-9a-fA-F]+)")
# Lines worth keeping as evidence, and the kinds of trouble they show.
DMESG_TROUBLE = (
    ("reset", re.compile(r"reset (?:SuperSpeed|high-speed|full-speed)|uas_eh_\w+|device reset", re.I)),
    ("io-error", re.compile(r"I/O error|critical medium error|Buffer I/O error", re.I)),
    ("disconnect", re.compile(r"USB disconnect", re.I)),
    ("power", re.compile(r"Under-?voltage|over-current|overcurrent", re.I)),
    ("timeout", re.compile(r"command .* timed out|abort|timing out command", re.I)),
)
DMESG_RELEVANT = re.compile(r"\buas\b|usb-storage|\bUAS\b|reset|quirk|Under-?voltage|I/O error|USB disconnect"
                            r"|New USB device|new .*USB device number|: (?:Product|Manufacturer): |scsi host|Direct-Access|over-?current", re.I)


def _is_digits(text: str) -> bool:
    """ASCII digits only, like /^\\d+$/ in JavaScript (str.isdigit also accepts other scripts' digits)."""
    return re.fullmatch(r"[0-9]+", text) is not None


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
    match = re.match(r"^\s*([0-9a-fA-F]{1,2})\.([0-9a-fA-F]{2})\s*$", text or "")
    if not match:
        return None
    return f"{int(match.group(1), 16):02x}{int(match.group(2), 16):02x}"


def speed_from_text(text: str) -> Optional[str]:
    """Link speed in `lsusb -t` form from dmesg's or lsusb's words ("SuperSpeed Gen 1", "high-speed", "10Gbps")."""
    words = text.lower()
    if "gen 2x2" in words or "20gbps" in words:
        return "20000M"
    if "superspeed plus" in words or "superspeed+" in words or "gen 2" in words or "gen 1x2" in words or "10gbps" in words:
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
        if name in ("idVendor", "idProduct") and value.lower().startswith("0x"):
            current["vid" if name == "idVendor" else "pid"] = value[2:].lower()
        elif name in ("bcdDevice", "bcdUSB"):
            current["bcd_device" if name == "bcdDevice" else "bcd_usb"] = bcd_from_dotted(value)
        elif name in ("iManufacturer", "iProduct", "iSerial"):
            current[{"iManufacturer": "manufacturer", "iProduct": "product", "iSerial": "serial"}[name]] = rest or None
        elif name == "MaxPower" and re.fullmatch(r"[0-9]+mA", value):
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
                events.append({"kind": kind, "line": line})
                break
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
    """Every `vid:pid` in a paste, from lsusb lines, lsusb -v, dmesg, system_profiler or a bare `152d:0578`."""
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
    for match in re.finditer(r"(?<![0-9a-fA-Fx:])([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?![0-9a-fA-F:])", text):
        add(match.group(1), match.group(2))
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
                owner = {"name": base, "location": int(location, 16) if re.fullmatch(r"[0-9a-fA-F]+", location) else None,
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


SP_HEADING = re.compile(r"^(\s*)(\S.*?):\s*$")
SP_FIELD = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 .()/-]*?):\s+(\S.*?)\s*$")


def parse_system_profiler(text: str) -> List[Dict[str, Any]]:
    """`system_profiler SPUSBDataType` -> entries with vid, pid, bcd_device (from `Version: 8.20`),
    manufacturer, product (the heading), speed, location, bsd_names.

    A heading line (`Name:` with nothing after the colon) starts an entry; headings inside a
    `Media:` block name disks and volumes, whose `BSD Name` belongs to the entry above."""
    entries: List[Dict[str, Any]] = []
    current: Optional[Dict[str, Any]] = None
    media_indent: Optional[int] = None
    for line in text.splitlines():
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
            hex_id = re.match(r"0x([0-9a-fA-F]{4})", value)
            current["pid" if key == "Product ID" else "vid"] = hex_id.group(1).lower() if hex_id else None
        elif key == "Version":
            current["bcd_device"] = bcd_from_dotted(value)
        elif key == "Manufacturer":
            current["manufacturer"] = value
        elif key == "Speed":
            current["speed"] = _macos_speed(value)
        elif key == "Location ID":
            location = re.match(r"0x([0-9a-fA-F]+)", value)
            current["location"] = int(location.group(1), 16) if location else None
        elif key == "BSD Name":
            current["bsd_names"].append(value)
    return [e for e in entries if e["pid"] and e["vid"]]


def _macos_speed(value: str) -> Optional[str]:
    match = re.search(r"([\d.]+)\s*(Mb|Gb)", value)
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


# ---------------------------------------------------------------------------
# Reading a Linux system. Every path goes through Env, so tests point it at a fixture tree.
# ---------------------------------------------------------------------------

COMMANDS = {
    "lsusb": ["lsusb"],
    "lsusb-t": ["lsusb", "-t"],
    "dmesg": ["dmesg"],
    "vcgencmd-bootloader": ["vcgencmd", "bootloader_version"],
    "ioreg": ["ioreg", "-p", "IOService", "-l", "-w0", "-r", "-c", "IOUSBHostDevice"],
    "system-profiler": ["system_profiler", "SPUSBDataType"],
    "sw-vers": ["sw_vers", "-productVersion"],
}


@dataclass
class Env:
    """Where the probe looks: a filesystem root and a way to run (or replay) commands."""

    root: Path = Path("/")
    live: bool = True                 # run real commands; off when reading a fixture tree
    captured: Optional[Path] = None   # replay command output from <captured>/<name>.txt
    notes: List[str] = field(default_factory=list)

    def path(self, relative: str) -> Path:
        return self.root / relative.lstrip("/")

    def read(self, relative: str, binary: bool = False) -> Any:
        """File contents, or None when missing or unreadable (unreadable is noted for the user)."""
        target = self.path(relative)
        try:
            data = target.read_bytes()
        except FileNotFoundError:
            return None
        except PermissionError:
            self.notes.append(f"cannot read {relative} without root; left out")
            return None
        except OSError as exc:  # e.g. ENODEV from a device unplugged while we read it
            self.notes.append(f"reading {relative} failed: {exc.strerror or exc}")
            return None
        return data if binary else data.decode("utf-8", "replace")

    def text(self, relative: str) -> Optional[str]:
        value = self.read(relative)
        return value.strip().strip("\x00").strip() if value is not None else None

    def run(self, name: str) -> Optional[str]:
        """Output of a known command, or None (missing, refused, or not live)."""
        if self.captured is not None:
            replay = self.captured / f"{name}.txt"
            return replay.read_text(encoding="utf-8", errors="replace") if replay.is_file() else None
        if not self.live:
            return None
        argv = COMMANDS[name]
        if shutil.which(argv[0]) is None:
            return None
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30, errors="replace")
        except (OSError, subprocess.SubprocessError) as exc:
            self.notes.append(f"`{' '.join(argv)}` failed: {exc}")
            return None
        if done.returncode != 0:
            message = (done.stderr or "").strip().splitlines()
            reason = message[-1] if message else f"exit status {done.returncode}"
            if name == "dmesg":
                self.notes.append("dmesg is not readable without root here (" + reason + "); run "
                                  "`sudo dmesg | grep -iE 'uas|usb-storage|reset'` and paste the lines into the report")
            else:
                self.notes.append(f"`{' '.join(argv)}` failed: {reason}")
            return None
        return done.stdout


@dataclass
class Interface:
    name: str                       # sysfs name, e.g. 2-1:1.0
    interface_class: Optional[int]
    protocol: Optional[int]
    driver: Optional[str]
    block_devices: List[str] = field(default_factory=list)
    scsi_model: Optional[str] = None


@dataclass
class Device:
    port: str                       # sysfs name, e.g. 2-1 (bus 2, port 1)
    vid: str
    pid: str
    bcd_device: Optional[str] = None
    manufacturer: Optional[str] = None
    product: Optional[str] = None
    speed: Optional[str] = None     # as `lsusb -t` prints it, e.g. 5000M
    usb_version: Optional[str] = None
    interfaces: List[Interface] = field(default_factory=list)
    offers_uas: Optional[bool] = None   # from the raw descriptors: any alternate setting with protocol 0x62
    location: Optional[int] = None      # macOS location ID

    @property
    def usb_id(self) -> str:
        return f"{self.vid}:{self.pid}"

    @property
    def driver(self) -> Optional[str]:
        drivers = [i.driver for i in self.interfaces if i.interface_class == MASS_STORAGE_CLASS and i.driver]
        return drivers[0] if drivers else None

    @property
    def block_devices(self) -> List[str]:
        return [b for i in self.interfaces for b in i.block_devices]

    @property
    def scsi_models(self) -> List[str]:
        return [i.scsi_model for i in self.interfaces if i.scsi_model]


@dataclass
class System:
    os_kind: str                           # linux or macos
    model: Optional[str] = None            # /proc/device-tree/model
    host: Optional[str] = None             # schema host value
    arch: Optional[str] = None
    kernel: Optional[str] = None
    os_name: Optional[str] = None
    bootloader: Optional[str] = None
    bootloader_version: Optional[str] = None
    cmdline_quirks: List[str] = field(default_factory=list)
    module_quirks: List[str] = field(default_factory=list)
    dmesg: Optional[Dict[str, Any]] = None
    lsusb: Optional[str] = None
    lsusb_t: Optional[str] = None


def _hex_attr(env: Env, base: str, name: str) -> Optional[str]:
    value = env.text(f"{base}/{name}")
    return value.lower() if value and re.fullmatch(r"[0-9a-fA-F]{4}", value) else None


def descriptors_offer_uas(raw: Optional[bytes]) -> Optional[bool]:
    """Walk the raw descriptors sysfs exposes (readable without root): does any mass-storage interface
    alternate setting speak UAS? usb-storage binds alternate setting 0, so this is the only way to see
    whether an adapter on usb-storage could do UAS at all."""
    if not raw:
        return None
    offset, found_storage, found_uas = 0, False, False
    while offset + 2 <= len(raw):
        length, kind = raw[offset], raw[offset + 1]
        if length < 2:
            break  # malformed: stop rather than loop forever
        if kind == 4 and length >= 9 and offset + 9 <= len(raw):  # interface descriptor
            if raw[offset + 5] == MASS_STORAGE_CLASS:
                found_storage = True
                found_uas = found_uas or raw[offset + 7] == PROTOCOL_UAS
        offset += length
    return found_uas if found_storage else None


def read_linux_devices(env: Env) -> List[Device]:
    """Every USB device with a mass-storage interface, from sysfs."""
    base = env.path("sys/bus/usb/devices")
    if not base.is_dir() and env.path("sys/class").is_dir():
        raise ProbeError(f"{base} does not exist: this Linux system has no USB bus (a container or virtual machine "
                         "without USB passed through?). Run the probe on the computer the adapter is plugged into")
    if not base.is_dir():
        raise ProbeError(f"{base} does not exist: this does not look like a Linux system with sysfs mounted "
                         "(on a Mac the probe reads ioreg instead; elsewhere, paste `lsusb -t` into the issue form)")
    try:
        names = sorted(os.listdir(base))
    except OSError as exc:
        raise ProbeError(f"cannot list {base}: {exc.strerror}") from None
    storage_ports = sorted({n.split(":")[0] for n in names if ":" in n
                            and env.text(f"sys/bus/usb/devices/{n}/bInterfaceClass") == "08"})
    devices = []
    for port in storage_ports:
        rel = f"sys/bus/usb/devices/{port}"
        vid, pid = _hex_attr(env, rel, "idVendor"), _hex_attr(env, rel, "idProduct")
        if not vid or not pid:
            env.notes.append(f"USB device {port} disappeared while it was being read (unplugged?); left out")
            continue
        speed = env.text(f"{rel}/speed")
        device = Device(port=port, vid=vid, pid=pid, bcd_device=_hex_attr(env, rel, "bcdDevice"),
                        manufacturer=env.text(f"{rel}/manufacturer") or None, product=env.text(f"{rel}/product") or None,
                        speed=LINK_SPEEDS.get(speed or "", f"{speed}M" if speed else None),
                        usb_version=env.text(f"{rel}/version"),
                        offers_uas=descriptors_offer_uas(env.read(f"{rel}/descriptors", binary=True)))
        for name in names:
            if not name.startswith(port + ":"):
                continue
            irel = f"sys/bus/usb/devices/{name}"
            klass, proto = env.text(f"{irel}/bInterfaceClass"), env.text(f"{irel}/bInterfaceProtocol")
            driver_link = env.path(f"{irel}/driver")
            try:
                driver = os.path.basename(os.readlink(driver_link)) if os.path.islink(driver_link) else None
            except OSError:
                driver = None
            interface = Interface(name=name, interface_class=int(klass, 16) if klass and _is_hex(klass) else None,
                                  protocol=int(proto, 16) if proto and _is_hex(proto) else None, driver=driver)
            iface_dir = env.path(irel)
            for block in sorted(iface_dir.glob("host*/target*/*/block/*")):
                interface.block_devices.append(block.name)
                scsi = block.parent.parent
                vendor = _read_plain(scsi / "vendor")
                model = _read_plain(scsi / "model")
                if vendor or model:
                    interface.scsi_model = " ".join(x for x in (vendor, model) if x)
            device.interfaces.append(interface)
        devices.append(device)
    return devices


def _is_hex(text: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-fA-F]+", text))


def _read_plain(path: Path) -> Optional[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None


PI_MODELS = (  # (pattern on /proc/device-tree/model, schema host); first match wins
    (r"Raspberry Pi 500\b", "pi500"),
    (r"Raspberry Pi 400\b", "pi400"),
    (r"Raspberry Pi Compute Module 5\b", "cm5"),
    (r"Raspberry Pi Compute Module 4\b", "cm4"),
    (r"Raspberry Pi 5\b", "pi5"),
    (r"Raspberry Pi 4\b", "pi4"),
    (r"Raspberry Pi 3 Model B Plus\b", "pi3b-plus"),
    (r"Raspberry Pi 3\b|Raspberry Pi Compute Module 3\b", "pi3"),
    (r"Raspberry Pi Zero 2\b", "pi-zero-2"),
    (r"Raspberry Pi\b", "pi-older"),
)
# Hosts whose USB controller has no UAS. probe.py runs as one stand-alone file, so it keeps this copy of the
# schema's vocabulary (uasdb/vocabulary.py); tests/test_vocabulary.py fails when the two differ.
NO_UAS_HOSTS = ("pi3", "pi3b-plus", "pi-zero-2", "pi-older")


def host_for(model: Optional[str], arch: Optional[str], os_kind: str = "linux") -> Optional[str]:
    """Schema `host` for a device-tree model string (Pi) or a machine architecture (other Linux)."""
    if os_kind == "macos":
        return "macos"
    if model:
        for pattern, host in PI_MODELS:
            if re.search(pattern, model):
                return host
    if arch in ("x86_64", "amd64"):
        return "linux-x86_64"
    if arch in ("aarch64", "arm64"):
        return "linux-arm64" if not (model and "Raspberry Pi" in model) else None
    if arch in ("armv7l", "armv6l"):  # 32-bit Arm boards (ODROID-XU4, Banana Pi, Armbian armhf images)
        return "linux-armhf" if not (model and "Raspberry Pi" in model) else None
    return None


def quirk_entries(text: Optional[str]) -> List[str]:
    """`152d:0578:u,174c:55aa:u` -> ['152d:0578:u', '174c:55aa:u'] (lower case, blanks dropped)."""
    if not text:
        return []
    return [e.strip().lower() for e in text.split(",") if re.fullmatch(r"\s*[0-9a-fA-F]{4}:[0-9a-fA-F]{4}:[a-zA-Z]*\s*", e)]


def quirk_flags_for(usb_id: str, entries: Iterable[str]) -> Optional[str]:
    for entry in entries:
        vid, pid, flags = entry.split(":")
        if f"{vid}:{pid}" == usb_id:
            return flags or None
    return None


def read_bootloader(env: Env) -> Tuple[Optional[str], Optional[str]]:
    """(build date YYYY-MM-DD, version hash) from the device tree, else from `vcgencmd bootloader_version`."""
    stamp = env.read("proc/device-tree/chosen/bootloader/build-timestamp", binary=True)
    version = env.text("proc/device-tree/chosen/bootloader/version")
    if stamp and len(stamp) >= 4:
        seconds = struct.unpack(">I", stamp[:4])[0]
        if seconds:
            return _utc_date(seconds), version
    output = env.run("vcgencmd-bootloader")
    if output:
        return parse_vcgencmd_bootloader(output)
    return None, version


def parse_vcgencmd_bootloader(text: str) -> Tuple[Optional[str], Optional[str]]:
    """`vcgencmd bootloader_version` -> (YYYY-MM-DD from `timestamp`, or the first line's date; version hash)."""
    date = None
    stamp = re.search(r"^timestamp (\d+)", text, re.M)
    if stamp and int(stamp.group(1)):
        date = _utc_date(int(stamp.group(1)))
    else:
        first = re.match(r"\s*(\d{4})/(\d{2})/(\d{2})", text)
        if first:
            date = "-".join(first.groups())
    version = re.search(r"^version ([0-9a-f]{7,40})", text, re.M)
    return date, version.group(1) if version else None


def _utc_date(seconds: int) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%d")


def os_release(env: Env) -> Optional[str]:
    text = env.read("etc/os-release") or env.read("usr/lib/os-release")
    if not text:
        return None
    values = dict(re.findall(r'^([A-Z_]+)="?(.*?)"?\s*$', text, re.M))
    name = values.get("PRETTY_NAME") or values.get("NAME")
    if name and env.path("etc/rpi-issue").exists():
        name = f"Raspberry Pi OS, {name}"  # Raspberry Pi OS reports itself as Debian
    if name and env.live and env.root == Path("/"):
        name += f", {struct.calcsize('P') * 8}-bit userland"
    return name


def read_linux_system(env: Env) -> System:
    system = System(os_kind="linux")
    system.model = env.text("proc/device-tree/model") or env.text("sys/firmware/devicetree/base/model")
    system.arch = env.text("proc/sys/kernel/arch") or (platform.machine() if env.live and env.root == Path("/") else None)
    system.host = host_for(system.model, system.arch)
    system.kernel = env.text("proc/sys/kernel/osrelease") or (platform.release() if env.live and env.root == Path("/") else None)
    system.os_name = os_release(env)
    system.bootloader, system.bootloader_version = read_bootloader(env)
    cmdline = env.text("proc/cmdline") or ""
    for match in re.finditer(r"(?:^|\s)usb-storage\.quirks=(\S+)", cmdline):
        system.cmdline_quirks.extend(quirk_entries(match.group(1)))
    system.module_quirks = quirk_entries(env.text("sys/module/usb_storage/parameters/quirks"))
    dmesg = env.run("dmesg")
    system.dmesg = parse_dmesg(dmesg) if dmesg is not None else None
    system.lsusb = env.run("lsusb")
    system.lsusb_t = env.run("lsusb-t")
    return system


def read_macos(env: Env) -> Tuple[System, List[Device]]:
    system = System(os_kind="macos", host="macos")
    ioreg = env.run("ioreg")
    profiler = env.run("system-profiler")
    if ioreg is None and profiler is None:
        raise ProbeError("neither `ioreg` nor `system_profiler` could be run; on macOS both ship with the system")
    version = env.run("sw-vers")
    system.os_name = f"macOS {version.strip()}" if version else None
    system.kernel = platform.release() if env.live else None
    devices = []
    for entry in join_macos(parse_ioreg(ioreg or ""), parse_system_profiler(profiler or "")):
        if not entry["vid"] or not entry["pid"]:
            continue
        device = Device(port=f"location 0x{entry['location']:08x}" if entry["location"] is not None else "unknown",
                        vid=entry["vid"], pid=entry["pid"], bcd_device=entry["bcd_device"],
                        manufacturer=entry["manufacturer"], product=entry["product"], speed=entry["speed"],
                        location=entry["location"])
        device.interfaces.append(Interface(name="storage", interface_class=MASS_STORAGE_CLASS, protocol=None,
                                           driver=entry["driver"], block_devices=list(entry["bsd_names"])))
        if entry["driver"] is None:
            env.notes.append(f"{device.usb_id}: ioreg shows no storage driver for it (ejected, or not matched by location)")
        devices.append(device)
    return system, devices


# ---------------------------------------------------------------------------
# What the facts say: the report fields and the human summary.
# ---------------------------------------------------------------------------

@dataclass
class Finding:
    """The report fields the probe can fill for one device, plus comments for the human."""

    fields: Dict[str, Any]
    comments: Dict[str, str]
    trouble: List[Dict[str, str]]


def device_trouble(device: Device, system: System) -> List[Dict[str, str]]:
    if not system.dmesg:
        return []
    ports = {device.port}
    return [e for e in system.dmesg["events"]
            if e["kind"] == "power" or any(re.search(rf"\b{re.escape(p)}\b", e["line"]) for p in ports)
            or (e["kind"] in ("reset", "timeout", "io-error") and "usb " not in e["line"])]


def assess(device: Device, system: System) -> Finding:
    """Turn facts into report fields. Only what the facts show is filled in; the rest is a comment."""
    fields: Dict[str, Any] = {}
    comments: Dict[str, str] = {}
    quirks = quirk_flags_for(device.usb_id, system.module_quirks or system.cmdline_quirks)
    driver = device.driver
    trouble = device_trouble(device, system)
    old_pi = system.host in NO_UAS_HOSTS
    if device.speed in ("480M", "5000M", "10000M", "20000M"):
        fields["link_speed"] = device.speed
    if driver in STORAGE_DRIVERS:
        fields["driver"] = driver
    if old_pi:
        fields["uas"] = "host-no-uas"
        comments["uas"] = "this Pi's USB host cannot do UAS"
    elif driver == "uas" and not trouble:
        fields["uas"] = "works"
        comments["uas"] = "uas is bound and dmesg shows no resets; change it if you saw errors"
    elif driver == "uas":
        comments["uas"] = "uas is bound but dmesg shows resets or errors: `broken` if it fails, `works-with-quirk` if `u` fixed it"
    elif driver == "usb-storage" and quirks and "u" in quirks:
        fields["uas"] = "works-with-quirk"
        fields["quirks"] = quirks
        comments["uas"] = "you set a usb-storage quirk for it; keep works-with-quirk only if UAS failed without it"
    elif driver == "usb-storage" and device.offers_uas is False:
        fields["uas"] = "device-no-uas"
        comments["uas"] = "the adapter offers no UAS interface, so usb-storage is all it can do"
    elif driver == "usb-storage" and device.offers_uas:
        comments["uas"] = "the adapter offers UAS but usb-storage is bound: the kernel's own quirk table may ignore UAS for it"
    elif driver == "usb-storage":
        comments["uas"] = "usb-storage is bound; run `lsusb -v -d " + device.usb_id + "` to see whether it offers UAS"
    if quirks and "quirks" not in fields:
        fields["quirks"] = quirks
    if trouble:
        kinds = sorted({e["kind"] for e in trouble})
        comments["stability"] = "dmesg shows " + ", ".join(kinds) + ": consider `stability: errors` or `disconnects`"
        if "power" in kinds:
            comments["blamed_on"] = "dmesg shows under-voltage: if it failed, `blamed_on: power` may be fairer to the adapter"
    return Finding(fields, comments, trouble)


def summary_lines(system: System, devices: List[Device], notes: List[str]) -> List[str]:
    """The probe's facts in plain text; this is what goes into evidence.probe."""
    lines = [f"uasdb probe {PROBE_VERSION}"]
    host = system.model or system.os_name or "unknown computer"
    lines.append(f"host: {host}" + (f" ({system.host})" if system.host else ""))
    if system.os_name and system.os_name != host:
        lines.append(f"os: {system.os_name}")
    if system.kernel:
        lines.append(f"kernel: {system.kernel}" + (f" {system.arch}" if system.arch else ""))
    if system.bootloader or system.bootloader_version:
        lines.append("bootloader: " + " ".join(x for x in (system.bootloader, (system.bootloader_version or "")[:8]) if x))
    if system.cmdline_quirks:
        lines.append("cmdline usb-storage.quirks=" + ",".join(system.cmdline_quirks))
    if system.module_quirks and system.module_quirks != system.cmdline_quirks:
        lines.append("usb_storage quirks parameter: " + ",".join(system.module_quirks))
    for device in devices:
        strings = " ".join(f'"{s}"' for s in (device.manufacturer, device.product) if s)
        lines.append(f"device {device.port}: {device.usb_id}" + (f" bcdDevice {device.bcd_device}" if device.bcd_device else "")
                     + (f" {strings}" if strings else "") + (f" speed {device.speed}" if device.speed else "")
                     + (f" usb {device.usb_version}" if device.usb_version else ""))
        for interface in device.interfaces:
            parts = [f"  interface {interface.name}:"]
            if interface.interface_class is not None:
                parts.append(f"class {interface.interface_class:02x}")
            if interface.protocol is not None:
                parts.append(f"protocol {interface.protocol:02x}")
            parts.append(f"driver {interface.driver or '(none)'}")
            if interface.block_devices:
                parts.append("disk " + ",".join(interface.block_devices))
            if interface.scsi_model:
                parts.append(f'reports "{interface.scsi_model}"')
            lines.append(" ".join(parts))
        if device.offers_uas is not None:
            lines.append(f"  offers UAS (descriptors): {'yes' if device.offers_uas else 'no'}")
    if system.dmesg is not None:
        refused = [d for d in system.dmesg["devices"].values() if d["uas_refused"]]
        for entry in refused:
            lines.append(f"dmesg: UAS {entry['uas_refused']} for {entry['vid']}:{entry['pid']} on {entry['port']}")
        if system.dmesg["events"]:
            kinds: Dict[str, int] = {}
            for event in system.dmesg["events"]:
                kinds[event["kind"]] = kinds.get(event["kind"], 0) + 1
            lines.append("dmesg trouble: " + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items())))
        else:
            lines.append("dmesg: no resets, I/O errors, disconnects or under-voltage")
    for note in notes:
        lines.append(f"note: {note}")
    return lines


# ---------------------------------------------------------------------------
# YAML output, written by hand (no PyYAML on a fresh Pi) in the layout `uasdb fmt` uses.
# ---------------------------------------------------------------------------

_PLAIN_SAFE = re.compile(r"^[a-z][a-z0-9-]*$|^[0-9]+M$")
_YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "null", "y", "n"}
_YAML_BREAKS = "\u0085\u2028\u2029"  # line breaks to YAML 1.1 readers (and to JavaScript, for the last two)


def yaml_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN_SAFE.match(text) and text not in _YAML_WORDS:
        return text
    # A JSON string is a valid YAML double-quoted scalar. Characters some YAML readers take for line breaks are
    # escaped, so no reader sees a break the text did not have.
    return "".join(f"\\u{ord(ch):04x}" if ch in _YAML_BREAKS else ch for ch in json.dumps(text, ensure_ascii=False))


def yaml_block(text: str, indent: int) -> List[str]:
    """A literal block (`|-`) holding `text` verbatim; tabs become spaces (the loader refuses tabs)."""
    clean = "".join(ch for ch in text.replace("\t", "    ")
                    if ch == "\n" or (ch >= " " and ch not in _YAML_BREAKS and not "\x7f" <= ch <= "\x9f")).rstrip("\n")
    lines = clean.split("\n")
    header = "|-" if not lines[0].startswith(" ") else "|2-"
    return [header] + [(" " * indent + line) if line.strip() else "" for line in lines]


def yaml_mapping(data: Dict[str, Any], indent: int, comments: Optional[Dict[str, str]] = None) -> List[str]:
    out: List[str] = []
    pad = " " * indent
    for key, value in data.items():
        comment = f"  # {comments[key]}" if comments and key in comments else ""
        if isinstance(value, dict):
            out.append(f"{pad}{key}:{comment}")
            out.extend(yaml_mapping(value, indent + 2))
        elif isinstance(value, list):
            out.append(f"{pad}{key}:{comment}")
            for item in value:
                if isinstance(item, dict):
                    inner = yaml_mapping(item, indent + 4)
                    out.append(f"{pad}  - " + inner[0].lstrip())
                    out.extend(inner[1:])
                else:
                    out.append(f"{pad}  - {yaml_scalar(item)}")
        elif isinstance(value, str) and "\n" in value:
            block = yaml_block(value, indent + 2)
            out.append(f"{pad}{key}: {block[0]}{comment}")
            out.extend(block[1:])
        else:
            out.append(f"{pad}{key}: {yaml_scalar(value)}{comment}")
    return out


def report_dict(device: Device, system: System, finding: Finding, handle: Optional[str], today: datetime.date,
                evidence_probe: str, throughput: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One report in schema key order."""
    report: Dict[str, Any] = {"date": today.isoformat(),
                              "source": {"tested_by": handle or "<your GitHub handle>"}}
    if system.host:
        report["host"] = system.host
    else:
        report["host"] = "<host: pi4, pi5, linux-x86_64, ...>"
    if system.model:
        report["host_detail"] = system.model
    if system.os_name:
        report["os"] = system.os_name
    if system.kernel:
        report["kernel"] = system.kernel
    if system.bootloader and system.host and system.host.startswith(("pi", "cm")):
        report["bootloader"] = system.bootloader
    report["usb_id"] = device.usb_id
    if device.bcd_device:
        report["bcd_device"] = device.bcd_device
    report.update({k: finding.fields[k] for k in ("link_speed", "driver", "uas", "quirks") if k in finding.fields})
    if throughput:
        report["throughput"] = throughput
    evidence: Dict[str, str] = {}
    lsusb_lines = [e["line"] for e in parse_lsusb(system.lsusb or "") if f"{e['vid']}:{e['pid']}" == device.usb_id]
    if lsusb_lines:
        evidence["lsusb"] = "\n".join(lsusb_lines)
    if system.lsusb_t and storage_interfaces(parse_lsusb_tree(system.lsusb_t)):
        evidence["lsusb_t"] = system.lsusb_t.strip("\n")[:4000]
    if system.dmesg and system.dmesg["lines"]:
        evidence["dmesg"] = "\n".join(system.dmesg["lines"][-120:])[-20000:]
    evidence["probe"] = evidence_probe[:20000]
    report["evidence"] = evidence
    return report


def report_text(report: Dict[str, Any], comments: Dict[str, str]) -> List[str]:
    # The layout `uasdb fmt` writes under `reports:`, so the block can be pasted as it is.
    lines = yaml_mapping(report, 4, comments)
    lines[0] = "  - " + lines[0].lstrip()
    if report["source"]["tested_by"].startswith("<"):
        lines.insert(0, "# set tested_by to your GitHub handle (or run the probe with --handle NAME)")
    for key, comment in comments.items():  # hints for fields the probe could not fill in
        if key not in report:
            lines.append(f"    # {key}: {comment}")
    return lines


def slugify(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:80].strip("-")


def skeleton_text(device: Device, report_lines: List[str]) -> Tuple[str, List[str]]:
    """A new adapter file around the report. Facts the probe cannot know are left empty with a hint,
    so `uasdb validate` stops until a person fills them in."""
    strings = " ".join(s for s in (device.manufacturer, device.product) if s)
    record_id = slugify(strings) or f"unknown-{device.vid}-{device.pid}"
    lines = [
        "# yaml-language-server: $schema=../../schema/adapter.schema.json",
        f"# Started by `uasdb probe` from what {device.usb_id} reports. Rename the file and id to the product",
        "# (vendor-model, lowercase with hyphens), fill in the empty fields, then run `uasdb validate`.",
        f"id: {record_id}",
        f"name: {json.dumps(strings or 'USB storage adapter ' + device.usb_id, ensure_ascii=False)}"
        "  # the name a buyer would search for",
        'kind: ""  # enclosure, cable-adapter, dock, multi-bay-enclosure, portable-ssd, portable-hdd, pi-board, pi-case, adapter-board',
        'drive_interface: ""  # sata, nvme, msata, m2-sata, nvme-sata',
        "usb_ids:",
        f'  - vid: "{device.vid}"',
        f'    pid: "{device.pid}"',
    ]
    if device.manufacturer:
        lines.append(f"    manufacturer_string: {json.dumps(device.manufacturer, ensure_ascii=False)}")
    if device.product:
        lines.append(f"    product_string: {json.dumps(device.product, ensure_ascii=False)}")
    lines.append("reports:")
    lines.extend(report_lines)
    return record_id, lines


# ---------------------------------------------------------------------------
# Looking the adapter up in a local copy of the database (offline).
# ---------------------------------------------------------------------------

def load_index(data_dir: Optional[Path], api_file: Optional[Path]) -> Optional[Dict[str, List[str]]]:
    """`vid:pid` -> adapter ids, from the API's adapters.json or from data/adapters/*.yaml.

    The YAML files are scanned with two regular expressions (id, and vid/pid pairs) rather than
    parsed, so the probe needs no YAML library; records written by `uasdb fmt` always match them."""
    index: Dict[str, List[str]] = {}
    if api_file is not None:
        try:
            payload = json.loads(api_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ProbeError(f"cannot read {api_file}: {exc} (expected the site's api/v1/adapters.json)") from None
        adapters = payload.get("result", payload) if isinstance(payload, dict) else payload
        for adapter in adapters if isinstance(adapters, list) else []:
            for usb_id in adapter.get("usb_ids", []):
                index.setdefault(f"{usb_id['vid']}:{usb_id['pid']}", []).append(adapter["id"])
        return index
    if data_dir is None:
        return None  # nothing to look up in: say nothing rather than "unknown"
    for path in sorted((data_dir / "adapters").glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        id_match = re.search(r"^id:\s*[\"']?([a-z0-9-]+)", text, re.M)
        record_id = id_match.group(1) if id_match else path.stem
        for vid, pid in re.findall(r"vid:\s*[\"']?([0-9a-f]{4})[\"']?\s*\n\s*pid:\s*[\"']?([0-9a-f]{4})", text):
            ids = index.setdefault(f"{vid}:{pid}", [])
            if record_id not in ids:
                ids.append(record_id)
    return index


def default_data_dir() -> Optional[Path]:
    """data/ of the checkout this file sits in (scripts/uasdb/probe.py), when there is one."""
    candidate = Path(__file__).resolve().parents[2] / "data"
    return candidate if (candidate / "adapters").is_dir() else None


# ---------------------------------------------------------------------------
# Optional benchmarks. Reads come from the block device (read-only); writes go to one file
# in a directory the user names, never to a device.
# ---------------------------------------------------------------------------

@dataclass
class BenchPlan:
    read_device: Optional[str]
    write_dir: Optional[str]
    size_mib: int
    seconds: float


def explain_bench(plan: BenchPlan) -> List[str]:
    lines = ["Benchmarks (optional; they take a minute or two):"]
    if plan.read_device:
        lines.append(f"  - read {plan.size_mib} MiB sequentially from {plan.read_device}, then random 4 KiB reads for "
                     f"{plan.seconds:g} s. Read-only: nothing on the disk changes.")
    if plan.write_dir:
        lines.append(f"  - write a {plan.size_mib} MiB temporary file in {plan.write_dir}, then random 4 KiB writes into "
                     f"that file for {plan.seconds:g} s, and delete it. Nothing else is written.")
    lines.append("  Uses fio when installed, hdparm for the sequential read when fio is not, else the probe's own reader.")
    return lines


def check_bench_targets(plan: BenchPlan) -> None:
    """Refuse anything that could damage data before a single byte moves."""
    if plan.read_device:
        try:
            mode = os.stat(plan.read_device).st_mode
        except OSError as exc:
            raise ProbeError(f"--bench-read {plan.read_device}: {exc.strerror}") from None
        if not stat.S_ISBLK(mode):
            raise ProbeError(f"--bench-read {plan.read_device} is not a block device; name the disk, e.g. /dev/sda")
        if not os.access(plan.read_device, os.R_OK):
            raise ProbeError(f"cannot read {plan.read_device} as this user; run the probe with sudo for the read benchmark")
    if plan.write_dir:
        target = Path(plan.write_dir)
        real = os.path.realpath(plan.write_dir)
        if any(real == top or real.startswith(top + "/") for top in ("/dev", "/proc", "/sys", "/run")) \
                or (target.exists() and not target.is_dir()):
            raise ProbeError(f"--bench-write {plan.write_dir}: give a directory on a mounted filesystem, never a device or file")
        if not target.is_dir():
            raise ProbeError(f"--bench-write {plan.write_dir} is not a directory; mount the drive and name a folder on it")
        if not os.access(target, os.W_OK):
            raise ProbeError(f"cannot write in {plan.write_dir} as this user; pick a folder you own on the drive")
        free = shutil.disk_usage(target).free
        if free < (plan.size_mib + 64) * 1024 * 1024:
            raise ProbeError(f"{plan.write_dir} has {free // (1024 * 1024)} MiB free; the write test needs {plan.size_mib + 64} MiB")


class Progress:
    """One updating line on stderr, at most a few times a second."""

    def __init__(self, label: str, enabled: bool = True) -> None:
        self.label, self.enabled, self.last = label, enabled, time.monotonic()

    def update(self, done: int, total: Optional[int], started: float) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.5:
            return
        self.last = now
        rate = done / max(now - started, 1e-6) / 1e6
        amount = f"{done // (1024 * 1024)}/{total // (1024 * 1024)} MiB" if total else f"{done // 1024} KiB"
        sys.stderr.write(f"\r  {self.label}: {amount}, {rate:.1f} MB/s   ")
        sys.stderr.flush()

    def finish(self, text: str) -> None:
        if self.enabled:
            sys.stderr.write(f"\r  {self.label}: {text}{' ' * 20}\n")
            sys.stderr.flush()


def _aligned_buffer(size: int) -> mmap.mmap:
    return mmap.mmap(-1, size)  # page-aligned, as O_DIRECT requires


def _open_direct(path: str, flags: int) -> Tuple[int, bool]:
    """Open with O_DIRECT (bypass the page cache) when the filesystem allows it."""
    direct = getattr(os, "O_DIRECT", 0)
    if direct:
        try:
            return os.open(path, flags | direct), True
        except OSError:
            pass
    return os.open(path, flags), False


def own_sequential_read(path: str, size: int, progress: Progress, block: int = 1024 * 1024) -> Tuple[float, str]:
    """MB/s reading `size` bytes from the start of `path` in 1 MiB blocks."""
    fd, direct = _open_direct(path, os.O_RDONLY)
    buffer = _aligned_buffer(block)
    try:
        end = min(size, os.lseek(fd, 0, os.SEEK_END))
        os.lseek(fd, 0, os.SEEK_SET)
        done, started = 0, time.monotonic()
        while done < end:
            got = os.readv(fd, [buffer])
            if got <= 0:
                break
            done += got
            progress.update(done, end, started)
        elapsed = max(time.monotonic() - started, 1e-6)
    finally:
        os.close(fd)
        buffer.close()
    progress.finish(f"{done / elapsed / 1e6:.1f} MB/s")
    return done / elapsed / 1e6, f"uasdb probe reader, {block // 1024} KiB blocks, {done // (1024 * 1024)} MiB" + (", O_DIRECT" if direct else ", page cache not bypassed")


def own_random_io(path: str, span: int, seconds: float, progress: Progress, write: bool = False) -> Tuple[float, str]:
    """MB/s of 4 KiB reads (or writes) at random 4 KiB-aligned offsets within the first `span` bytes."""
    block = 4096
    fd, direct = _open_direct(path, (os.O_RDWR | getattr(os, "O_NOFOLLOW", 0)) if write else os.O_RDONLY)
    buffer = _aligned_buffer(block)
    if write:
        buffer.write(os.urandom(block))
    rng = random.Random(4096)
    try:
        span = min(span, os.lseek(fd, 0, os.SEEK_END))
        blocks = max(span // block, 1)
        done, started = 0, time.monotonic()
        while time.monotonic() - started < seconds:
            os.lseek(fd, rng.randrange(blocks) * block, os.SEEK_SET)
            moved = os.writev(fd, [buffer]) if write else os.readv(fd, [buffer])
            if moved <= 0:
                break
            done += moved
            progress.update(done, None, started)
        if write:
            os.fsync(fd)
        elapsed = max(time.monotonic() - started, 1e-6)
    finally:
        os.close(fd)
        buffer.close()
    progress.finish(f"{done / elapsed / 1e6:.1f} MB/s")
    return done / elapsed / 1e6, f"uasdb probe, queue depth 1, {seconds:g} s" + (", O_DIRECT" if direct else ", page cache not bypassed")


def own_sequential_write(path: str, size: int, progress: Progress, block: int = 1024 * 1024) -> Tuple[float, str]:
    fd, direct = _open_direct(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    buffer = _aligned_buffer(block)
    buffer.write(os.urandom(block))
    try:
        done, started = 0, time.monotonic()
        while done < size:
            done += os.writev(fd, [buffer])
            progress.update(done, size, started)
        os.fsync(fd)
        elapsed = max(time.monotonic() - started, 1e-6)
    finally:
        os.close(fd)
        buffer.close()
    progress.finish(f"{done / elapsed / 1e6:.1f} MB/s")
    return done / elapsed / 1e6, f"uasdb probe writer, {block // 1024} KiB blocks, {size // (1024 * 1024)} MiB, fsync" + (", O_DIRECT" if direct else "")


def fio_run(args: List[str]) -> Optional[float]:
    """MB/s from one fio job (JSON output), or None when fio fails."""
    try:
        done = subprocess.run(["fio", "--output-format=json", *args], capture_output=True, text=True, timeout=600)
        job = json.loads(done.stdout)["jobs"][0]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError):
        return None
    side = job["write"] if job["write"]["io_bytes"] else job["read"]
    return side["bw_bytes"] / 1e6 if side.get("bw_bytes") else None


def hdparm_read(device: str) -> Optional[float]:
    try:
        done = subprocess.run(["hdparm", "-t", device], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"=\s*([\d.]+)\s*MB/sec", done.stdout)
    return float(match.group(1)) if match else None


def run_benchmarks(plan: BenchPlan, progress_enabled: bool = True, use_tools: bool = True) -> List[Dict[str, Any]]:
    """Throughput entries in schema form. An I/O error (a device unplugged or reset mid-run) ends the
    benchmarks with a ProbeError that says so."""
    results: List[Dict[str, Any]] = []
    size = plan.size_mib * 1024 * 1024
    fio = use_tools and shutil.which("fio") is not None
    hdparm = use_tools and shutil.which("hdparm") is not None

    def add(test: str, value: Optional[float], tool: str, note: str) -> None:
        if progress_enabled and tool != "other":  # fio and hdparm print nothing while they run
            sys.stderr.write(f"  {test} ({tool}): {f'{value:.1f} MB/s' if value else 'failed'}\n")
        if value:
            results.append({"tool": tool, "test": test, "value": round(value, 1), "unit": "MB/s", "note": note})

    try:
        if plan.read_device:
            if fio:
                add("seq-read", fio_run([f"--name=seq-read", f"--filename={plan.read_device}", "--readonly", "--rw=read",
                                         "--bs=1M", f"--size={plan.size_mib}M", "--direct=1"]), "fio", f"bs=1M, {plan.size_mib} MiB, direct")
                add("rand4k-read", fio_run([f"--name=rand4k-read", f"--filename={plan.read_device}", "--readonly", "--rw=randread",
                                            "--bs=4k", f"--size={plan.size_mib}M", "--direct=1", "--time_based",
                                            f"--runtime={plan.seconds:g}"]), "fio", "bs=4k, iodepth=1, direct")
            else:
                if hdparm:
                    add("seq-read", hdparm_read(plan.read_device), "hdparm", "hdparm -t")
                else:
                    value, note = own_sequential_read(plan.read_device, size, Progress("seq-read", progress_enabled))
                    add("seq-read", value, "other", note)
                value, note = own_random_io(plan.read_device, size * 4, plan.seconds, Progress("rand4k-read", progress_enabled))
                add("rand4k-read", value, "other", note)
        if plan.write_dir:
            # An unpredictable name, created here (O_EXCL): nobody can plant a link for the test to write through.
            handle, scratch = tempfile.mkstemp(prefix="uasdb-probe-", suffix=".tmp", dir=plan.write_dir)
            os.close(handle)
            try:
                if not fio:
                    os.unlink(scratch)  # own_sequential_write creates it again, exclusively
                if fio:
                    add("seq-write", fio_run([f"--name=seq-write", f"--filename={scratch}", "--rw=write", "--bs=1M",
                                              f"--size={plan.size_mib}M", "--direct=1", "--end_fsync=1"]), "fio",
                        f"bs=1M, {plan.size_mib} MiB file, direct")
                    add("rand4k-write", fio_run([f"--name=rand4k-write", f"--filename={scratch}", "--rw=randwrite", "--bs=4k",
                                                 f"--size={plan.size_mib}M", "--direct=1", "--time_based",
                                                 f"--runtime={plan.seconds:g}", "--end_fsync=1"]), "fio", "bs=4k, iodepth=1, direct, file")
                else:
                    value, note = own_sequential_write(scratch, size, Progress("seq-write", progress_enabled))
                    add("seq-write", value, "other", note)
                    value, note = own_random_io(scratch, size, plan.seconds, Progress("rand4k-write", progress_enabled), write=True)
                    add("rand4k-write", value, "other", note + ", in a file")
            finally:
                try:
                    os.unlink(scratch)
                except OSError:
                    pass
    except OSError as exc:
        raise ProbeError(f"the benchmark stopped with an I/O error ({exc.strerror or exc}): the drive was unplugged "
                         "or reset. Check `dmesg` and mention it in the report; that is a finding too.") from None
    return results


# ---------------------------------------------------------------------------
# Putting it together.
# ---------------------------------------------------------------------------

@dataclass
class ProbeResult:
    system: System
    devices: List[Device]
    notes: List[str]

    def as_json(self) -> Dict[str, Any]:
        system = dict(vars(self.system))
        if system.get("dmesg"):
            system["dmesg"] = {"events": system["dmesg"]["events"], "devices": system["dmesg"]["devices"]}
        return {"probe_version": PROBE_VERSION, "system": system,
                "devices": [dict(vars(d), usb_id=d.usb_id, driver=d.driver,
                                 interfaces=[vars(i) for i in d.interfaces]) for d in self.devices],
                "notes": self.notes}


def probe(env: Env, os_kind: Optional[str] = None) -> ProbeResult:
    kind = os_kind or ("macos" if sys.platform == "darwin" else "linux" if sys.platform.startswith("linux") else sys.platform)
    if kind == "macos":
        system, devices = read_macos(env)
    elif kind == "linux":
        devices = read_linux_devices(env)
        system = read_linux_system(env)
    else:
        raise ProbeError(f"the probe reads Linux sysfs or macOS ioreg; this is {platform.system() or kind}. "
                         "Open the adapter-report issue form and fill it in by hand instead.")
    return ProbeResult(system, devices, env.notes)


def render(result: ProbeResult, handle: Optional[str], today: datetime.date, index: Optional[Dict[str, List[str]]],
           site_url: str, throughput: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> str:
    """The whole output: summary as comments, then one report block per device (and a new-file
    skeleton for IDs the database does not know)."""
    evidence = "\n".join(summary_lines(result.system, result.devices, result.notes))
    out = [f"# uasdb probe {PROBE_VERSION}: paste everything below into the adapter report form,",
           f"# {ISSUE_URL}",
           "#"]
    out += ["# " + line for line in evidence.splitlines()]
    for device in result.devices:
        finding = assess(device, result.system)
        report = report_dict(device, result.system, finding, handle, today, evidence,
                             (throughput or {}).get(device.usb_id, []))
        lines = report_text(report, finding.comments)
        known = (index or {}).get(device.usb_id, [])
        out.append("#")
        if known:
            for adapter_id in known:
                out.append(f"# {device.usb_id} is in uasdb: {adapter_id} ({site_url.rstrip('/')}/adapters/{adapter_id}/)")
            out.append("# Several products can share one USB ID: add the report to the record that is your product.")
        elif index is not None:
            out.append(f"# {device.usb_id} is not in the database yet: a new adapter file follows the report.")
        out.append(REPORT_START.format(usb_id=device.usb_id))
        out.extend(lines)
        out.append(REPORT_END)
        if index is not None and not known:
            record_id, skeleton = skeleton_text(device, lines)
            out.append(SKELETON_START.format(id=record_id))
            out.extend(skeleton)
            out.append(SKELETON_END)
    return "\n".join(out) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="probe", description="Describe this computer's USB storage adapters as a uasdb report (read-only by default).")
    parser.add_argument("--handle", help="your GitHub handle, for `source: {tested_by: ...}`")
    parser.add_argument("--root", default="/", metavar="DIR", help="read sysfs and /proc under DIR instead of / (for tests)")
    parser.add_argument("--captured", metavar="DIR", help="replay command output from DIR/<name>.txt instead of running "
                        f"commands ({', '.join(sorted(COMMANDS))})")
    parser.add_argument("--os", choices=("linux", "macos"), help="read as this system (default: the running one)")
    parser.add_argument("--data", metavar="DIR", help="the repository's data/ folder, to look the adapter up (default: the "
                        "checkout this file is in, if any)")
    parser.add_argument("--api", metavar="FILE", help="a saved copy of the site's api/v1/adapters.json, to look the adapter up")
    parser.add_argument("--site-url", default=SITE_URL, help=argparse.SUPPRESS)
    parser.add_argument("--date", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the facts as JSON instead of a report")
    bench = parser.add_argument_group("benchmarks (off unless asked for)")
    bench.add_argument("--bench-read", metavar="DEVICE", help="time reads from this block device, e.g. /dev/sda (read-only)")
    bench.add_argument("--bench-write", metavar="DIR", help="time writes to a temporary file in this folder on the mounted drive")
    bench.add_argument("--bench-size", type=int, default=512, metavar="MiB", help="how much to read or write (default 512)")
    bench.add_argument("--bench-seconds", type=float, default=10.0, metavar="S", help="length of each random 4K test (default 10)")
    bench.add_argument("--yes", action="store_true", help="do not ask before benchmarking")
    parser.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return parser


def _confirm(lines: List[str], assume_yes: bool) -> bool:
    for line in lines:
        print(line, file=sys.stderr)
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        print("not running the benchmarks: no terminal to confirm on (add --yes)", file=sys.stderr)
        return False
    answer = input("Run them? [y/N] ").strip().lower()
    return answer in ("y", "yes")


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _main(args)
    except ProbeError as exc:
        print(f"probe: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("probe: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # never a traceback for a user; --debug shows it
        if args.debug:
            raise
        print(f"probe: unexpected {type(exc).__name__}: {exc}. Nothing was changed. Please report this with the "
              "output of `python3 probe.py --debug`.", file=sys.stderr)
        return 3


def _main(args: argparse.Namespace) -> int:
    if args.handle and not re.fullmatch(r"[A-Za-z0-9-]{1,39}", args.handle):
        raise ProbeError(f"--handle {args.handle!r} is not a GitHub handle (letters, digits, hyphens)")
    root = Path(args.root)
    if not root.is_dir():
        raise ProbeError(f"--root {args.root} is not a directory")
    live = root.resolve() == Path("/")
    env = Env(root=root, live=live, captured=Path(args.captured) if args.captured else None)
    today = datetime.date.fromisoformat(args.date) if args.date else datetime.date.today()
    result = probe(env, args.os)
    if args.json:
        print(json.dumps(result.as_json(), indent=2, default=str))
        return 0 if result.devices else 1
    if not result.devices:
        message = "no USB storage device found"
        if result.system.os_kind == "linux":
            message += " in sysfs (no interface of class 08). Is the adapter plugged in and powered? `lsusb` should list it"
        print(f"probe: {message}.", file=sys.stderr)
        for note in result.notes:
            print(f"probe: note: {note}", file=sys.stderr)
        return 1
    data_dir = Path(args.data) if args.data else default_data_dir()
    if data_dir is not None and not (data_dir / "adapters").is_dir():
        raise ProbeError(f"--data {data_dir}: no adapters/ folder inside (give the repository's data/ folder)")
    index = load_index(data_dir, Path(args.api) if args.api else None)
    throughput: Dict[str, List[Dict[str, Any]]] = {}
    if args.bench_read or args.bench_write:
        plan = BenchPlan(args.bench_read, args.bench_write, args.bench_size, args.bench_seconds)
        check_bench_targets(plan)
        if _confirm(explain_bench(plan), args.yes):
            target = _device_for_bench(result.devices, args.bench_read)
            throughput[target.usb_id] = run_benchmarks(plan, progress_enabled=sys.stderr.isatty())
    sys.stdout.write(render(result, args.handle, today, index, args.site_url, throughput))
    return 0


def _device_for_bench(devices: List[Device], block_path: Optional[str]) -> Device:
    """The adapter whose disk is being benchmarked (the only one, or the one owning /dev/sdX)."""
    if block_path:
        name = os.path.basename(os.path.realpath(block_path))
        for device in devices:
            if name in device.block_devices:
                return device
    if len(devices) == 1:
        return devices[0]
    raise ProbeError("several USB storage devices are attached; name the disk with --bench-read so the figures "
                     "go to the right adapter, or unplug the others")


if __name__ == "__main__":
    sys.exit(main())
