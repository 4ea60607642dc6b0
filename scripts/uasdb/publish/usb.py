"""The USB ID page's model (/api/v1/usb/<vid>/<pid>.json) and the list of every ID (/api/v1/usb.json)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..verdicts.engine import PLATFORMS, usb_id_verdict
from .facets import facets
from .report_link import report_query
from .rows import badge


def lite_verdict(verdict: Mapping[str, Any]) -> dict[str, Any]:
    """What the check page needs of a product's verdict: badges per platform and its quirk entries."""
    return {"uas": {p: badge(v) for p, v in verdict["uas"].items()},
            "boot": {p: badge(v) for p, v in verdict["boot"].items()},
            "list": verdict["list"], "quirk_entries": verdict["quirk_entries"], "quirk_line": verdict["quirk_line"]}


def model(key: str, slot: Mapping[str, Any], catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]],
          rows: Mapping[str, Mapping[str, Any]], chipsets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The slot as the catalog has it, its products as {id, name, verdict} with a slim verdict, and `page`."""
    products = [adapters[i] for i in slot["adapters"]]
    platforms = catalog["platforms"]
    id_verdict = slot.get("verdict") or {}
    answers = slot.get("answers") or {}
    # The badge is the ID's answer (verdicts/answer.py): the products' own words, grade kept ("Works (pending)").
    verdict_rows = [{"platform": p, "label": platforms[p]["label"],
                     "verdict": dict(id_verdict[p], **{k: answers[p][k] for k in ("short", "tone", "icon")}),
                     "products": [{"id": i, "name": adapters[i]["name"], **v} for i, v in id_verdict[p]["products"].items()]}
                    for p in catalog["platform_order"] if p in id_verdict and id_verdict[p]["verdict"] != "untested"]
    # What to do per platform with a verdict or a line, printed from the ID's `answers`; a line box only under its
    # own platform.
    what_to_do: list[dict[str, Any]] = []
    for p in catalog["platform_order"]:
        answer = answers.get(p)
        if answer and (answer["verdict"] != "untested" or answer["line"]):
            boxes = len([w for w in what_to_do if w["box"]])
            what_to_do.append({"platform": p, "box": f"quirk-line-{boxes + 1}" if answer["line"] else None})
    kernel_first = (slot.get("kernel") or [{}])[0] if slot.get("kernel") else {}
    return dict(
        {k: v for k, v in slot.items() if k != "adapters"},
        adapters=[{"id": a["id"], "name": a["name"], "verdict": lite_verdict(a["verdict"])} for a in products],
        works_on_uas=[{"id": i, "name": adapters[i]["name"]} for i in slot.get("works_on_uas", [])],
        page={
            "rows": [rows[a["id"]] for a in products],
            "verdict_rows": verdict_rows,
            "depends": any(r["verdict"]["verdict"] == "depends" for r in verdict_rows),
            "tell_apart": [dict(t, chipset_name=(chipsets.get(t.get("chipset") or "") or {}).get("name"))
                           for t in slot.get("tell_apart", [])],
            "chipsets": [{k: chipsets[c][k] for k in ("id", "name", "maker", "uas_label")} for c in slot["chipsets"]],
            "expected": [{"platform": p, "label": platforms[p]["label"], "expectation": e}
                         for p in catalog["platform_order"] for e in [(slot.get("expected") or {}).get(p)]
                         if e and e["state"] != "none"],
            "what_to_do": what_to_do,
            "kernel_name": {"vendor": kernel_first.get("vendor"), "product": kernel_first.get("product")}
                           if kernel_first.get("vendor") or kernel_first.get("product") else None,
            "also": slot["spellings"][1:],
            "kernel_flags": kernel_flags(slot),
        })


def _kernel_parts(slot: Mapping[str, Any]) -> tuple[list[str], bool]:
    """The flags Linux sets for this ID by itself, and whether it decides more while probing the device."""
    flags: list[str] = []
    probe = False
    for entry in slot.get("kernel") or []:
        flags += [f["name"] for f in entry["flags"]]
    for check in slot.get("kernel_runtime") or []:
        if check["unconditional"]:
            flags += [f["name"] for f in check["flags"]]
        else:
            probe = True
    return list(dict.fromkeys(flags)), probe


def kernel_flags(slot: Mapping[str, Any]) -> str:
    """"IGNORE_UAS, NO_REPORT_OPCODES", "decided while probing", or "—": the USB ID list's Linux column."""
    flags, probe = _kernel_parts(slot)
    text = ", ".join(flags)
    if probe:
        text += ("; " if text else "") + "decided while probing"
    return text or "—"


def index(catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]],
          chipsets: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """/api/v1/usb.json: one row per ID the site has a page for, with what the list's filters match (`facets`).
    `adapters` and `chipset_names` run parallel to `products` and `chipsets`: the list links each by its name."""
    return [{"key": key, "vid": slot["vid"], "pid": slot["pid"], "product": (slot.get("usbids") or {}).get("product"),
             "products": [adapters[i]["name"] for i in slot["adapters"]], "adapters": list(slot["adapters"]),
             "chipsets": slot["chipsets"], "chipset_names": [chipsets[c]["name"] for c in slot["chipsets"]],
             "kernel_flags": kernel_flags(slot), "facets": index_facets(slot)} for key, slot in catalog["usb"].items()]


# The USB ID list's filters: whether a product in the database reports the ID, and whether Linux treats it specially.
PRODUCTS = {"yes": "Reported by a product here", "no": "No product here yet"}
LINUX = {"special": "Treats it specially", "none": "Nothing special"}


def index_facets(slot: Mapping[str, Any]) -> dict[str, list[str]]:
    flags, probe = _kernel_parts(slot)
    return {"products": ["yes" if slot["adapters"] else "no"], "linux": ["special" if flags or probe else "none"]}


def index_filters(rows: Sequence[Mapping[str, Any]], kernel_version: str | None) -> list[dict[str, Any]]:
    """The filters the USB ID list offers over usb.json's rows."""
    linux = f"Linux {kernel_version}" if kernel_version else "Linux"
    return facets([r["facets"] for r in rows], [("products", "Products", PRODUCTS), ("linux", linux, LINUX)])


def usb_key(vid: str, pid: str) -> str:
    return f"{vid}:{pid}"


def usb_spellings(vid: str, pid: str) -> list[str]:
    """The ways people paste a USB ID (lsusb, udev, Windows, C source); the site indexes them all for search."""
    return [f"{vid}:{pid}", f"{vid}{pid}", f"0x{vid} 0x{pid}", f"0x{vid}:0x{pid}", f"{vid.upper()}:{pid.upper()}",
            f"VID_{vid.upper()}&PID_{pid.upper()}"]


def tell_apart(slot: Mapping[str, Any], by_id: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What each product sharing this ID reports that the others may not: bcdDevice range and strings, the
    fields `uas-detect.h` and `lsusb -v` show."""
    rows = []
    for adapter_id in slot["adapters"]:
        adapter = by_id[adapter_id]
        for usb_id in adapter.get("usb_ids", []):
            if (usb_id["vid"], usb_id["pid"]) != (slot["vid"], slot["pid"]):
                continue
            rows.append({"adapter": adapter_id, "name": adapter["name"], "chipset": adapter.get("chipset"),
                         "bcd_device": usb_id.get("bcd_device"), "manufacturer_string": usb_id.get("manufacturer_string"),
                         "product_string": usb_id.get("product_string")})
    return rows


def usb_summary(slot: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]], kernel_version: str | None) -> str:
    """One sentence on what the database knows of a USB ID: the ID page's summary and its search result.
    `chipsets` maps chipset ids to their records (the slot's `chipsets` are ids of those records)."""
    chips = ", ".join(chipsets[c]["name"] for c in slot["chipsets"])
    n = len(slot["adapters"])
    if n:
        return (f"{n} product{'s' if n != 1 else ''} in the database report{'s' if n == 1 else ''} this ID"
                f"{f'; bridge chip: {chips}' if chips else ''}. Several products often share one ID, so check the product too.")
    if chips:
        return f"No product in the database reports this ID yet; bridge chip: {chips}."
    if not (slot.get("kernel") or slot.get("kernel_runtime")):
        return "No product in the database reports this ID yet."
    flags = list(dict.fromkeys(f["name"] for entry in slot.get("kernel") or [] if not entry.get("condition")
                               for f in entry["flags"]))
    linux = f"Linux {kernel_version}" if kernel_version else "Linux"
    sets = f" and sets {', '.join(flags)} for it by itself" if flags else ", without quirk flags"
    return f"No product in the database reports this ID yet. {linux} lists it in its own tables{sets}."


def _usb_slot(usb_id: dict[str, Any]) -> dict[str, Any]:
    return {"vid": usb_id["vid"], "pid": usb_id["pid"], "spellings": usb_spellings(usb_id["vid"], usb_id["pid"]),
            "adapters": [], "chipsets": []}


def usb_slots(adapters: Sequence[Mapping[str, Any]], chipsets: Mapping[str, Mapping[str, Any]],
              verdict_by_id: Mapping[str, Any], other_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """One slot per USB ID with a page: those the records report (with the products' verdict on the ID, what
    tells them apart, and which of them work on uas), then `other_ids` (what distributions ship a quirk for,
    linux-hardware.org counts and Linux's own tables list), made here once so each later step finds its slot."""
    usb: dict[str, dict[str, Any]] = {}
    for adapter in adapters:
        for usb_id in adapter.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), _usb_slot(usb_id))
            slot["adapters"].append(adapter["id"])
    for chipset in chipsets.values():
        for usb_id in chipset.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), _usb_slot(usb_id))
            slot["chipsets"].append(chipset["id"])
    for key in other_ids:
        vid, pid = key.split(":")
        usb.setdefault(key, _usb_slot({"vid": vid, "pid": pid}))
    adapter_by_id = {a["id"]: a for a in adapters}
    for slot in usb.values():
        if slot["adapters"]:
            slot["verdict"] = usb_id_verdict({i: verdict_by_id[i] for i in slot["adapters"]})
            slot["tell_apart"] = tell_apart(slot, adapter_by_id)
    for slot in usb.values():  # who a quirk for the ID would also hit (the naughty list and the quirk builder warn)
        slot["works_on_uas"] = [i for i in slot["adapters"] if works_on_linux_uas(verdict_by_id[i])]
    return usb


def slot_texts(key: str, slot: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]],
               kernel_version: str | None) -> dict[str, Any]:
    """What the ID page and its search result print once every source's facts are on the slot: its spellings
    (IDs only the kernel lists get the same as the rest), the report link and the summary sentence."""
    return {"spellings": slot.get("spellings") or usb_spellings(slot["vid"], slot["pid"]),
            "report_query": report_query(usb_id=key), "summary": usb_summary(slot, chipsets, kernel_version)}


def works_on_linux_uas(verdict: Any) -> bool:
    """Whether a product is confirmed to work on uas without a quirk on a Linux platform: an ID-wide quirk line
    would take that away from it."""
    return any(v.verdict == "works" and v.confidence == "confirmed"
               for name, v in verdict.uas.items() if PLATFORMS[name]["linux"])
