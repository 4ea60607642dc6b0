"""The adapter page's model: the adapter as the catalog has it (record fields, verdicts, kernel facts,
expectations) plus `page`, every fact the page shows that a template would otherwise work out."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ..records.vocabulary import FOCUS_PLATFORMS, LIST_PLATFORMS

# What a report states, in the words of the reports table (the stated `uas` and `boot` of the schema).
UAS_WORDS = {"works": "works", "works-with-quirk": "works with a quirk", "broken": "broken",
             "device-no-uas": "adapter has no UAS", "host-no-uas": "host has no UAS"}
BOOT_WORDS = {"works": "boots", "works-with-workaround": "boots with a workaround", "intermittent": "boots only some of the time",
              "fails": "does not boot"}
# The platforms whose verdicts search results show as badges, in that order.
SEARCH_BADGES = FOCUS_PLATFORMS


def _reading_note(reading: Mapping[str, Any], report: Mapping[str, Any]) -> str:
    """The small line under a report's UAS outcome: its evidence class, how deep and at what link, and whether
    and why it counts."""
    parts = ["unverified" if reading["strength"] == "hearsay" else reading["strength"]]
    if reading["strength"] != "hearsay" and reading["outcome"] == "works":
        parts.append(reading["depth_text"])
    elif reading.get("link_text"):
        parts.append(reading["link_text"])
    if reading["outcome"] == "works-with-quirk" and not reading.get("failure_shown", True):
        parts.append("the failure without the quirk is not shown")
    parts.append(_status_note(reading, report))
    return " · ".join(p for p in parts if p)


def _status_note(reading: Mapping[str, Any], report: Mapping[str, Any]) -> str:
    status = reading["status"]
    if status == "not-counted":
        return f"not counted: blamed on {report.get('blamed_on')}"
    if status == "fixed":
        fix = report.get("fixed_in") or {}
        return f"fixed since {fix.get('component')} {fix.get('version')}"
    if status == "set-aside":
        return "set aside: stronger reports decide"
    if status == "set-aside-480m":
        return "set aside: a 480M success says nothing about a faster link's failure"
    return ""


def report_views(adapter: Mapping[str, Any], host_labels: Mapping[str, str],
                 verdict_short: Mapping[str, str]) -> List[Dict[str, Any]]:
    """Per report (same order), the words the reports table prints."""
    views = []
    for report, reading in zip(adapter["reports"], adapter["verdict"]["readings"], strict=True):
        uas, boot = reading.get("uas"), reading.get("boot")
        view: Dict[str, Any] = {"host_label": host_labels.get(report.get("host"), report.get("host"))}
        if report.get("uas"):
            view["uas"] = UAS_WORDS[report["uas"]]
        elif uas:
            view["uas"] = verdict_short[uas["outcome"]]
            view["uas_from_evidence"] = True
        view["uas_note"] = _reading_note(uas, report) if uas else None
        view["boot"] = BOOT_WORDS.get(report.get("boot", ""))
        view["boot_note"] = _status_note(boot, report) if boot and boot["status"] in ("not-counted", "fixed") else None
        views.append(view)
    return views


def _kernel_of(adapter: Mapping[str, Any], key: str) -> Optional[Dict[str, Any]]:
    kernel = adapter.get("kernel")
    if not kernel:
        return None
    return {"entries": [e for e in kernel["builtin"] if e["usb_id"] == key],
            "groups": kernel["builtin_groups"].get(key, []), "by_itself": kernel["by_itself"].get(key, False),
            "runtime": [r for r in kernel["runtime"] if r["usb_id"] == key],
            "quirk": any(q["entry"].startswith(f"{key}:") for q in kernel["quirk_entries"])}


def chip_unknown(adapter: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """For a product whose bridge chip no source names: what an owner can run to find it out (None when known)."""
    if adapter.get("chipset"):
        return None
    ids = [f"{u['vid']}:{u['pid']}" for u in adapter.get("usb_ids", [])]
    lsusb = f"lsusb -v -d {ids[0]}" if len(ids) == 1 else "lsusb -v"
    return {"text": "No source names the bridge chip inside. If you own one, these print what identifies it: the "
                    "USB ID, bcdDevice and the iManufacturer / iProduct strings, which often name the chip; a "
                    "photo of the board's chip marking settles it. Add what they show to a report.",
            "commands": [lsusb, "python3 probe.py --handle YOUR-GITHUB-NAME"]}


def page(adapter: Mapping[str, Any], catalog: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    verdict = adapter["verdict"]
    platforms = catalog["platforms"]
    chip = chipsets.get(adapter.get("chipset") or "")
    names = {a["id"]: a["name"] for a in catalog["adapters"]} if adapter.get("may_be_same_as") else {}
    rows = [{"platform": name, "label": platforms[name]["label"], "boot": name in verdict["boot"]}
            for name in catalog["platform_order"] if name != "windows" or verdict["uas"][name]["verdict"] != "untested"]
    badges = [f"{verdict['uas'][p]['tone']}|{platforms[p]['short']}: {verdict['uas'][p]['short']}"
              for p in SEARCH_BADGES if verdict["uas"][p]["verdict"] != "untested"]
    usb_ids = []
    for usb_id in adapter.get("usb_ids", []):
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        slot = catalog["usb"].get(key, {})
        usb_ids.append(dict(usb_id, key=key, also=slot.get("spellings", [key])[1:], kernel=_kernel_of(adapter, key)))
    # What to do, per platform: the answers (verdicts/answer.py) of the platforms the verdict table shows, the Pis
    # always (their answer is the page's point), others when they have a verdict, each printed from `answers`. A line
    # box goes only under the platform whose reports needed it; the first keeps the id "quirk-line".
    answers = adapter["answers"]
    what_to_do = [{"platform": r["platform"], "box": None} for r in rows
                  if r["platform"] in LIST_PLATFORMS or answers[r["platform"]]["do"] != "untested"]
    boxes = 0
    for row in what_to_do:
        if answers[row["platform"]]["line"]:
            row["box"] = "quirk-line" if boxes == 0 else f"quirk-line-{row['platform']}"
            boxes += 1
    return {
        "verdict_rows": rows,
        # Pagefind's filters, in the order the page lists them.
        "search": {"filters": [{"key": k, "value": v} for k, v in (
                       ("chipset", adapter.get("chipset_name") or "Not known"), ("interface", adapter["drive_label"]),
                       ("vendor", adapter["vendor_label"]), ("pi4_uas", verdict["uas"]["pi4"]["short"]),
                       ("pi4_boot", verdict["boot"]["pi4"]["short"]))],
                   "badges": ";".join(badges)},
        "chipset": {"id": chip["id"], "name": chip["name"], "maker": chip["maker"]} if chip else None,
        "chip_unknown": chip_unknown(adapter),
        "may_be_same_as": [{"id": other, "name": names.get(other, other)} for other in adapter.get("may_be_same_as", [])],
        "usb_ids": usb_ids,
        "check_ids": ",".join(u["key"] for u in usb_ids),
        "what_to_do": what_to_do,
        # An ASIN names a listing on Amazon's stores; amazon.com's /dp/ address opens it (and redirects, or says it
        # is not sold there, for a listing only another country's store has).
        "asins": [{"asin": a, "url": f"https://www.amazon.com/dp/{a}"}
                  for a in (adapter.get("product_codes") or {}).get("asin", [])],
        "reports": report_views(adapter, catalog["host_labels"], catalog["verdict_short"]),
    }
