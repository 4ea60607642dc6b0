"""Reading a Linux system: sysfs, /proc, the device tree, the kernel command line, the bootloader."""
from __future__ import annotations

import datetime
import os
import platform
import re
import struct
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from .common import LINK_SPEEDS, MASS_STORAGE_CLASS, PROTOCOL_UAS, ProbeError, printable
from .parsers import parse_dmesg
from .system import Device, Env, Interface, System


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
        return printable(path.read_text(encoding="utf-8", errors="replace").strip()) or None
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
# Hosts whose USB controller has no UAS. The probe ships as one stand-alone file, so it keeps this copy of the
# schema's vocabulary (uasdb/records/vocabulary.py); tests/test_vocabulary.py fails when the two differ.
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
    # Each line stripped first: `"?\s*$` after a lazy value re-read the trailing blanks at every step.
    values: Dict[str, str] = {}
    for line in text.splitlines():
        found = re.fullmatch(r'([A-Z_]+)="?(.*?)"?', line.rstrip())
        if found:
            values[found.group(1)] = found.group(2)
    name = printable(values.get("PRETTY_NAME") or values.get("NAME") or "") or None
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
