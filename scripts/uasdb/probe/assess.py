"""What the facts say: the report fields and the summary for a person."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List

from .common import PROBE_VERSION, STORAGE_DRIVERS
from .linux import NO_UAS_HOSTS, quirk_flags_for
from .system import Device, System


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
