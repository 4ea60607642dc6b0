"""The host and platform vocabulary, read from the adapter schema (its one source) as Python constants.

schema/adapter.schema.json lists the `host` values (the enum a record is checked against) and, in the
`x-uasdb-hosts` annotation beside it, each host's title (and a `detail` the issue form adds), the platform its verdicts count towards, and what it
cannot do: `uas: false` for USB host controllers without UAS (Pi 3 and older), `usb_boot: false` for Pis that
cannot boot from USB (only the 3B+ boots from USB out of the box; the 3B after setting its OTP bit), and
`usb_link` for boards whose fastest USB port is fixed (5000M on a Pi 4 or Pi 5, 480M on a Pi 3 and older; a
Compute Module 4 has no USB 3 of its own, so it has none). The
top-level `x-uasdb-platforms` annotation holds the platforms in the order the site shows them. verdicts,
export, the rules and the issue form take these from here; the probe, which ships as one stand-alone file,
keeps a copy that tests/test_vocabulary.py compares with this one.
"""
from __future__ import annotations

import json
from typing import Any, Dict, Tuple

from .paths import SCHEMA_DIR

SCHEMA = SCHEMA_DIR / "adapter.schema.json"


def _load() -> Tuple[Dict[str, Dict[str, Any]], Dict[str, Dict[str, Any]]]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    host = schema["properties"]["reports"]["items"]["properties"]["host"]
    hosts, platforms = host["x-uasdb-hosts"], schema["x-uasdb-platforms"]
    if list(hosts) != host["enum"]:
        raise ValueError(f"{SCHEMA}: x-uasdb-hosts must list exactly the host enum, in its order")
    unknown = sorted({h["platform"] for h in hosts.values()} - set(platforms))
    if unknown:
        raise ValueError(f"{SCHEMA}: hosts name platforms that x-uasdb-platforms lacks: {', '.join(unknown)}")
    return hosts, platforms


HOSTS, _PLATFORMS = _load()
HOST_TITLES: Dict[str, str] = {name: spec["title"] for name, spec in HOSTS.items()}
# Hosts whose USB controller cannot do UAS: a report from one says `uas: host-no-uas`, never `works`.
NO_UAS_HOSTS: Tuple[str, ...] = tuple(name for name, spec in HOSTS.items() if spec.get("uas") is False)
# The fastest link a host's own USB ports negotiate, where the board fixes it (`lsusb -t` spelling).
HOST_USB_LINK: Dict[str, str] = {name: spec["usb_link"] for name, spec in HOSTS.items() if "usb_link" in spec}


def _platform(name: str, spec: Dict[str, Any]) -> Dict[str, Any]:
    members = tuple(host for host, h in HOSTS.items() if h["platform"] == name)
    entry: Dict[str, Any] = {"label": spec["title"], "hosts": members, "linux": spec["linux"], "pi": spec["pi"]}
    if members and all(host in NO_UAS_HOSTS for host in members):
        entry["no_uas_host"] = True
    booting = tuple(host for host in members if HOSTS[host].get("usb_boot", True))
    if booting != members:
        entry["boot_hosts"] = booting
    return entry


# verdicts.PLATFORMS: label, member hosts, whether it runs Linux, whether it is a Pi, and the two limits above.
PLATFORMS: Dict[str, Dict[str, Any]] = {name: _platform(name, spec) for name, spec in _PLATFORMS.items()}
