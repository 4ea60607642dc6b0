"""How common each USB disk ID is on real Linux machines, and which common IDs nobody has reported yet.

Joins data/linuxhw/lsusb-storage.yaml (`uasdb import-lsusb`) into the export:
  usb[<vid:pid>].linuxhw   {rank, computers, vendor, name, driver, drivers, probe, probe_url, sentence}
  lists.wanted             the table's IDs that no adapter record reports, most common first
  usb[<vid:pid>].wanted    true for those IDs
  linuxhw                  where the table comes from (source, commit, read, total_reports, devices)
The /usb/ pages and /wanted/ print these as they are.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

SOURCE_NAME = "linux-hardware.org"


def _shown(cell: str) -> str:
    # The README cuts long cells short with "..."; an ellipsis shows that without inventing the rest.
    return cell.replace("...", "…")


def _sentence(device: dict[str, Any]) -> str:
    words = f"Seen on {device['computers']:,} computers"
    driver = device.get("driver")
    if not driver:
        return f"{words} ({SOURCE_NAME})."
    if "uas" in device.get("drivers", []) and driver.strip() != "uas":
        # uas.c's ID table matches every Bulk-Only SCSI interface too (it then declines those without a UAS
        # setting), so a module list of "uas, usb_storage" is printed even for USB 2 flash drives: not a UAS result.
        return (f"{words} ({SOURCE_NAME}, which lists the drivers as {_shown(driver)}). Linux offers every USB disk to "
                "both uas and usb-storage, so that list does not say which one drives it.")
    return f"{words}, driver {_shown(driver)} ({SOURCE_NAME})."


# What kind of device a wanted ID is, judged from its names (usb.ids' and the table's), so /wanted/ can put the
# disks and bridges uasdb covers first and fold away the flash drives, card readers and phones it does not. A name
# that matches nothing stays with the disks: better asked about than hidden.
_DISK = re.compile(r"sata|\bide\b|hdd|hard ?dis|\bdisk drive|elements|passport|my book|canvio|expansion|backup|"
                   r"portable|external|bridge|ssd|enclosure|dock|storage contro", re.I)
_OUT_OF_SCOPE = (
    ("card reader", re.compile(r"card ?reader|reader|\bcrw\b|sd/mmc|\bsd\b|microsd|multi.?card|ms/ms-pro|"
                               r"cardreader|card controller|(?<!\d)\d+-in-\d+", re.I)),
    ("flash drive", re.compile(r"flash|cruzer|datatraveler|\bdt\d|jetflash|\bultra\b|udisk|usb disk|store n go|"
                               r"handy steno|jumpdrive|transmemory|patriot memory|silicon-power|mobile c31|nand|"
                               r"\bdisk 2\.0|^transcend$", re.I)),
    ("phone, modem or virtual drive", re.compile(r"phone|lte|hilink|virtual|cd-?rom", re.I)),
)


def device_scope(*names: str) -> str:
    """"disk" for what uasdb covers (or cannot tell), else the kind of device the names show."""
    text = " ".join(n for n in names if n)
    if _DISK.search(text):
        return "disk"
    for kind, pattern in _OUT_OF_SCOPE:
        if pattern.search(text):
            return kind
    return "disk"


def with_popularity(site: Mapping[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """The catalog with each table row on its USB slot (export.build makes a slot for every ID in the table) and
    the table's source under `linuxhw`."""
    usb = dict(site["usb"])
    for device in table["devices"]:
        key = f"{device['vid']}:{device['pid']}"
        usb[key] = dict(usb[key], linuxhw=dict(device, sentence=_sentence(device)))
    return dict(site, usb=usb, linuxhw={"source": table["source"], "commit": table["commit"], "read": table["read"],
                                        "total_reports": table.get("total_reports"), "devices": len(table["devices"]),
                                        "name": SOURCE_NAME})


def with_wanted(site: Mapping[str, Any]) -> dict[str, Any]:
    """The catalog with lists.wanted: the most common IDs without a single adapter record, with what Linux and
    distributions already do for each (after with_reference and with_distributions); their slots say `wanted`."""
    wanted: list[dict[str, Any]] = []
    usb = dict(site["usb"])
    for key, slot in site["usb"].items():
        seen = slot.get("linuxhw")
        if not seen or slot["adapters"]:
            continue
        usb[key] = dict(slot, wanted=True)
        kernel_flags = sorted({f["name"] for e in slot.get("kernel", []) for f in e["flags"]})
        usbids = slot.get("usbids") or {}
        wanted.append({
            "usb_id": key, "vid": slot["vid"], "pid": slot["pid"], "rank": seen["rank"], "computers": seen["computers"],
            "name": seen.get("name"), "vendor": seen.get("vendor"),
            "usbids_vendor": usbids.get("vendor"), "usbids_product": usbids.get("product"),
            "driver": seen.get("driver"), "drivers": seen.get("drivers", []), "probe_url": seen["probe_url"],
            # what the page prints: usb.ids' product name when it has one, else the table's (maybe cut) name
            "label": usbids.get("product") or _shown(seen.get("name") or ""),
            "driver_text": _shown(seen.get("driver") or ""),
            "chipsets": slot.get("chipsets", []), "kernel_flags": kernel_flags,
            "kernel_checks_device": bool(slot.get("kernel_runtime")),
            "smartctl_types": sorted({e["device_type"] for e in slot.get("smartctl", []) if e.get("device_type")}),
            "distributions": [d["name"] for d in slot.get("distributions", [])],
            "scope": device_scope(usbids.get("product") or "", seen.get("name") or ""),
        })
    return dict(site, usb=usb, lists=dict(site["lists"], wanted=sorted(wanted, key=lambda w: w["rank"])),
                counts=dict(site["counts"], wanted=len(wanted)))
