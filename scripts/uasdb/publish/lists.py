"""The naughty, nice and pending lists' model (/api/v1/lists.json): the lists as the catalog has them, plus
`entries`, each listed product with what its entry shows, and `kernel_only`, the IDs Linux treats specially
that no record reports."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping

from .rows import badge


def entry(adapter: Mapping[str, Any]) -> Dict[str, Any]:
    """One product on a list: its Pi verdict badges, why it is listed, the quirk line when a Pi report needed
    it (else the engine's advice, which names the platform the line came from), and the reports behind it."""
    verdict = adapter["verdict"]
    counted = sorted({n for q in ("uas", "boot") for p in ("pi4", "pi5") for n in verdict[q][p]["counted"]})
    advice = verdict["advice"]
    return {
        "id": adapter["id"], "name": adapter["name"],
        "badges": {"pi4": badge(verdict["uas"]["pi4"]), "pi5": badge(verdict["uas"]["pi5"]),
                   "pi4_boot": badge(verdict["boot"]["pi4"]), "pi5_boot": badge(verdict["boot"]["pi5"])},
        "usb_ids": [f"{u['vid']}:{u['pid']}" for u in adapter.get("usb_ids", [])],
        "reasons": verdict["reasons"],
        "quirk_line": verdict["quirk_line"] if advice["scope"] == "pi" else None,
        "advice": advice["text"] if advice["scope"] not in ("pi", "none") else None,
        "evidence": [{"report": n + 1, "url": adapter["reports"][n]["source"].get("url")} for n in counted],
    }


def model(catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    lists = catalog["lists"]
    kernel_only = []
    for key in lists.get("kernel_only", []):
        slot = catalog["usb"][key]
        first = (slot.get("kernel") or [{}])[0]
        kernel_only.append({"key": key, "vid": slot["vid"], "pid": slot["pid"],
                            "name": " ".join(x for x in (first.get("vendor"), first.get("product")) if x),
                            "groups": slot.get("kernel_groups", [])})
    entries: Dict[str, List[Dict[str, Any]]] = {name: [entry(adapters[i]) for i in lists[name]]
                                                for name in ("naughty", "nice", "pending")}
    names = {e["usb_id"]: [adapters[i]["name"] for i in e["adapters"]] for e in lists.get("naughty_quirk_entries", [])}
    working = {e["usb_id"]: [{"id": i, "name": adapters[i]["name"]} for i in e["shared_with_working"]]
               for e in lists.get("naughty_quirk_entries", [])}
    return dict(lists, entries=entries, kernel_only_rows=kernel_only,
                quirk_entry_rows=[dict(e, adapter_names=names[e["usb_id"]], working=working[e["usb_id"]])
                                  for e in lists.get("naughty_quirk_entries", [])])
