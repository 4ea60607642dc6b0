"""The host and platform vocabulary, read from the adapter schema (its one source) as Python constants.

schema/adapter.schema.json lists the `host` values (the enum a record is checked against) and, in the
`x-uasdb-hosts` annotation beside it, each host's title (and a `detail` the issue form adds), the platform its verdicts count towards (`null` for a Raspberry Pi of unknown model, counted on none), and what it
cannot do: `uas: false` for USB host controllers without UAS (Pi 3 and older), `usb_boot: false` for Pis that
cannot boot from USB (only the 3B+ boots from USB out of the box; the 3B after setting its OTP bit), and
`usb_link` for boards whose fastest USB port is fixed (5000M on a Pi 4 or Pi 5, 480M on a Pi 3 and older; a
Compute Module 4 has no USB 3 of its own, so it has none). The
top-level `x-uasdb-platforms` annotation holds the platforms in the order the site shows them, each with its
title, its `short` name, whether its verdicts decide the nice and naughty lists (`lists`), its what-to-buy
page (`buy`: slug and title) and the platforms whose evidence is context for its expectations (`related`); `x-uasdb-platform-focus` names the platforms buyers choose between, newest Pi first
(what-to-buy pages, chipset summaries, search badges and expectations follow it). Adding a platform is an edit
of the schema alone: every list below, and every table and page built from them, picks it up. verdicts,
export, the rules and the issue form take these from here; the probe, which ships as one stand-alone file,
keeps a copy that tests/test_vocabulary.py compares with this one.
"""
from __future__ import annotations

import json
from typing import Any

from ..paths import SCHEMA_DIR

SCHEMA = SCHEMA_DIR / "adapter.schema.json"


def _load() -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], tuple[str, ...]]:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    host = schema["properties"]["reports"]["items"]["properties"]["host"]
    hosts, platforms = host["x-uasdb-hosts"], schema["x-uasdb-platforms"]
    focus = tuple(schema.get("x-uasdb-platform-focus", ()))
    if list(hosts) != host["enum"]:
        raise ValueError(f"{SCHEMA}: x-uasdb-hosts must list exactly the host enum, in its order")
    placeless = [name for name, h in hosts.items() if "platform" not in h]
    if placeless:
        raise ValueError(f"{SCHEMA}: x-uasdb-hosts: {', '.join(placeless)} name no platform — give one, or null for a host "
                         "counted on none")
    unknown = sorted({h["platform"] for h in hosts.values() if h.get("platform") is not None} - set(platforms))
    if unknown:
        raise ValueError(f"{SCHEMA}: hosts name platforms that x-uasdb-platforms lacks: {', '.join(unknown)}")
    strangers = sorted(set(focus) - set(platforms))
    if strangers:
        raise ValueError(f"{SCHEMA}: x-uasdb-platform-focus names platforms that x-uasdb-platforms lacks: {', '.join(strangers)}")
    slugs = [spec["buy"]["slug"] for spec in platforms.values() if "buy" in spec]
    if len(slugs) != len(set(slugs)):
        raise ValueError(f"{SCHEMA}: two platforms in x-uasdb-platforms share a what-to-buy slug")
    return hosts, platforms, focus


HOSTS, _PLATFORMS, FOCUS_PLATFORMS = _load()
HOST_TITLES: dict[str, str] = {name: spec["title"] for name, spec in HOSTS.items()}
# The platform each host's reports count towards. A host with `"platform": null` (a Raspberry Pi whose model the
# source does not give) counts towards none: its reports are shown, never counted as a Pi's or a Linux PC's.
HOST_PLATFORM: dict[str, str] = {name: spec["platform"] for name, spec in HOSTS.items() if spec.get("platform")}
UNPLACED_HOSTS: tuple[str, ...] = tuple(name for name, spec in HOSTS.items() if not spec.get("platform"))
# Hosts whose USB controller cannot do UAS: a report from one says `uas: host-no-uas`, never `works`.
NO_UAS_HOSTS: tuple[str, ...] = tuple(name for name, spec in HOSTS.items() if spec.get("uas") is False)
# The fastest link a host's own USB ports negotiate, where the board fixes it (`lsusb -t` spelling).
HOST_USB_LINK: dict[str, str] = {name: spec["usb_link"] for name, spec in HOSTS.items() if "usb_link" in spec}


def _platform(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    members = tuple(host for host, h in HOSTS.items() if h.get("platform") == name)
    entry: dict[str, Any] = {"label": spec["title"], "hosts": members, "linux": spec["linux"], "pi": spec["pi"]}
    if members and all(host in NO_UAS_HOSTS for host in members):
        entry["no_uas_host"] = True
    booting = tuple(host for host in members if HOSTS[host].get("usb_boot", True))
    if booting != members:
        entry["boot_hosts"] = booting
    return entry


# verdicts.PLATFORMS: label, member hosts, whether it runs Linux, whether it is a Pi, and the two limits above.
PLATFORMS: dict[str, dict[str, Any]] = {name: _platform(name, spec) for name, spec in _PLATFORMS.items()}
# Hosts that run Linux: the members of a Linux platform, and hosts counted on none that the schema marks `linux`
# (a Pi of unknown model), so the kernel's own quirk table is still weighed against their reports.
LINUX_HOSTS: tuple[str, ...] = tuple(name for name, spec in HOSTS.items()
                                     if PLATFORMS.get(spec.get("platform") or "", {}).get("linux") or spec.get("linux"))

# The platform facts the site needs besides: short names, the platforms whose verdicts make the lists, what-to-buy
# pages in focus order, and the platforms whose boot verdicts buyers weigh (focus Pis that boot from USB).
PLATFORM_SHORT: dict[str, str] = {name: spec["short"] for name, spec in _PLATFORMS.items()}
LIST_PLATFORMS: tuple[str, ...] = tuple(name for name, spec in _PLATFORMS.items() if spec.get("lists"))
BUY_PAGES: dict[str, dict[str, str]] = {name: dict(_PLATFORMS[name]["buy"]) for name in FOCUS_PLATFORMS
                                         if "buy" in _PLATFORMS[name]}
BOOT_FOCUS_PLATFORMS: tuple[str, ...] = tuple(name for name in FOCUS_PLATFORMS if _PLATFORMS[name]["pi"])
# The platforms whose evidence is weaker context for another's expectation (`related`: a Pi 4 for a Pi 5, Linux for
# a Mac); a platform that names none has none.
RELATED_PLATFORMS: dict[str, tuple[str, ...]] = {name: tuple(spec.get("related", ())) for name, spec in _PLATFORMS.items()}


def _field_titles(field: str) -> dict[str, str]:
    """A top-level enum of the adapter schema, in its order, each value with its `x-uasdb-titles` title."""
    node = json.loads(SCHEMA.read_text(encoding="utf-8"))["properties"][field]
    titles = node.get("x-uasdb-titles", {})
    return {value: titles.get(value, value) for value in node["enum"]}


# What sort of product (`kind`) and what drive it takes (`drive_interface`), in the schema's words: the what-to-buy
# pages' filters offer them.
KIND_TITLES: dict[str, str] = _field_titles("kind")
DRIVE_INTERFACE_TITLES: dict[str, str] = _field_titles("drive_interface")
