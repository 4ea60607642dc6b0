"""One slim row per adapter: what every table of adapters shows (the all-adapters table, a chipset's and a USB
ID's products), so no page needs another adapter's whole model."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

# The badges a row carries, in the table's column order: (key, question, platform).
ROW_BADGES = (("pi4", "uas", "pi4"), ("pi4_boot", "boot", "pi4"), ("pi5", "uas", "pi5"), ("linux", "uas", "linux"),
              ("macos", "uas", "macos"))


def badge(pv: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """The few fields of a platform verdict a badge prints."""
    if not pv:
        return None
    return {"verdict": pv["verdict"], "short": pv["short"], "tone": pv["tone"], "icon": pv["icon"], "rank": pv["rank"],
            "basis_text": pv["basis_text"], "about": pv["about"]}


def adapter_row(adapter: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
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


def rows(adapters: List[Mapping[str, Any]], chipsets: Mapping[str, Mapping[str, Any]]) -> List[Dict[str, Any]]:
    return [adapter_row(a, chipsets) for a in adapters]
