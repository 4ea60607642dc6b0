"""What the probe reads through (Env: a filesystem root and the commands it may run) and what it finds
(Device, Interface, System)."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from .common import MASS_STORAGE_CLASS, printable

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
        """A one-line value (a sysfs attribute, the device-tree model), escaped for printing: it comes from the
        device or the firmware, not from us."""
        value = self.read(relative)
        return printable(value.strip().strip("\x00").strip()) if value is not None else None

    def run(self, name: str) -> Optional[str]:
        """Output of a known command, or None (missing, refused, or not live); control characters in it (dmesg and
        ioreg repeat what devices say) are escaped for printing."""
        output = self._output(name)
        return printable(output, lines=True) if output is not None else None

    def _output(self, name: str) -> Optional[str]:
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
