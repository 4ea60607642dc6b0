"""Reading a Mac: `ioreg` says which driver is bound, `system_profiler` says IDs and speed (both parsed
in parsers.py, like the pastes)."""
from __future__ import annotations

import platform
from typing import List, Tuple

from .common import MASS_STORAGE_CLASS, ProbeError
from .parsers import join_macos, parse_ioreg, parse_system_profiler
from .system import Device, Env, Interface, System


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
