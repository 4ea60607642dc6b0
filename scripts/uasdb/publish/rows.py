"""One slim row per adapter: what every table of adapters shows (the all-adapters table, a chipset's and a USB
ID's products), so no page needs another adapter's whole model."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..records.vocabulary import FOCUS_PLATFORMS, LIST_PLATFORMS, PLATFORM_SHORT, PLATFORMS

# The verdict columns of every adapter table, from the schema's platforms (vocabulary.py): one per platform buyers
# choose between, in the site's platform order, with its UAS badge and, on a Pi that decides the lists, its boot
# badge under it. A platform added to the schema gets its column here; the tables print common.json's list.
ROW_COLUMNS = tuple({"platform": name, "label": PLATFORM_SHORT[name], "uas": name,
                     "boot": f"{name}_boot" if name in LIST_PLATFORMS else None, "phone": name in LIST_PLATFORMS}
                    for name in PLATFORMS if name in FOCUS_PLATFORMS)
# The badges a row carries: (key, question, platform).
ROW_BADGES = tuple(badge for c in ROW_COLUMNS for badge in
                   [(c["uas"], "uas", c["platform"])] + ([(c["boot"], "boot", c["platform"])] if c["boot"] else []))


def badge(pv: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The few fields of a platform verdict a badge prints."""
    if not pv:
        return None
    return {"verdict": pv["verdict"], "short": pv["short"], "tone": pv["tone"], "icon": pv["icon"], "rank": pv["rank"],
            "basis_text": pv["basis_text"], "about": pv["about"]}


def adapter_row(adapter: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    verdict = adapter["verdict"]
    chip = chipsets.get(adapter.get("chipset") or "")
    vendor = adapter.get("vendor")
    return {
        "id": adapter["id"],
        "name": adapter["name"],
        # The vendor is shown beside the name only when the name does not already say it (the table has no
        # vendor column, to fit 1,280 px).
        "vendor_shown": adapter["vendor_label"] if vendor and adapter["vendor_label"].casefold() not in adapter["name"].casefold() else None,
        "chipset": {"id": chip["id"], "name": chip["name"]} if chip else None,
        "drive_label": adapter["drive_label"],
        "usb_ids": [f"{u['vid']}:{u['pid']}" for u in adapter.get("usb_ids", [])],
        "badges": {key: badge((verdict[question]).get(platform)) for key, question, platform in ROW_BADGES},
        "list": verdict["list"],
    }


def rows(adapters: list[Mapping[str, Any]], chipsets: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [adapter_row(a, chipsets) for a in adapters]
