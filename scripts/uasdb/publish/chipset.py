"""The chipset page's model (/api/v1/chipsets/<id>.json); /api/v1/chipsets.json lists every chipset."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Sequence

from .facets import facets, slug

KERNEL_KEYS = ("kernel", "kernel_groups", "kernel_by_itself", "kernel_runtime", "smartctl", "smart_blocked")


def model(chipset: Mapping[str, Any], catalog: Mapping[str, Any], rows: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    """The chipset as the catalog has it, plus `page`: its adapters' rows and, per USB ID, what Linux does with
    it. A check that looks at the device (ASMedia's) is explained in full at the first ID that has one; later
    IDs link to that (`explain`: true, "above" or false)."""
    usb = []
    explained = False
    for usb_id in chipset.get("usb_ids", []):
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        slot = catalog["usb"].get(key)
        if slot is None:
            continue
        probes = any(check.get("decided_by") for check in slot.get("kernel_runtime") or [])
        usb.append(dict({k: slot.get(k) for k in KERNEL_KEYS}, key=key, vid=slot["vid"], pid=slot["pid"],
                        explain="above" if explained else True))
        explained = explained or probes
    uas = {"yes": "with UAS", "no": "without UAS (usb-storage only)"}.get(chipset["uas_label"], "UAS support not known")
    count = len(chipset["adapters"])
    summary = (f"{chipset['maker']} USB to {chipset['drive_label']} bridge, {uas}; "
               f"{count} adapter{'' if count == 1 else 's'} in the database.")
    return dict(chipset, page={"summary": summary, "rows": [rows[i] for i in chipset["adapters"]], "usb": usb})


# The chipset list's filters: who makes the chip, and whether it speaks UAS (the record's `uas`, as `uas_label`).
UAS = {"yes": "With UAS", "no": "Without UAS", "unknown": "Not known"}


def index(catalog: Mapping[str, Any]) -> List[Dict[str, Any]]:
    """/api/v1/chipsets.json: every chipset as the catalog has it, with what the list's filters match (`facets`)."""
    return [dict(c, facets={"maker": [slug(c["maker"])], "uas": [c["uas_label"]]}) for c in catalog["chipsets"]]


def index_filters(rows: Sequence[Mapping[str, Any]]) -> List[Dict[str, Any]]:
    makers = {slug(m): m for m in sorted({r["maker"] for r in rows}, key=str.casefold)}
    return facets([r["facets"] for r in rows], [("maker", "Maker", makers), ("uas", "UAS", UAS)])
