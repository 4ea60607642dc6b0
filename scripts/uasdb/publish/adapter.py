"""The adapter page's model: the adapter as the catalog has it (record fields, verdicts, kernel facts,
expectations) plus `page`, every fact the page shows that a template would otherwise work out."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..paths import REPO_ROOT
from ..records import cache as content_cache
from ..records.database import Record, relative_to
from ..records.reference import KernelTable
from ..records.vocabulary import FOCUS_PLATFORMS, LIST_PLATFORMS
from ..verdicts.engine import adapter_verdict, summary_line, verdict_as_plain, verdict_from_plain
from ..verdicts.expectations_memo import Memo
from .kernel import adapter_kernel
from .labels import DRIVE_LABELS, vendor_display_names
from .report_link import report_form, report_query
from .throughput import throughput_chart
from .usb import usb_key


class BuildCache:
    """What `build` works out for each adapter from its record alone (the verdict, its summary, the throughput
    chart, the report link), kept between exports in one process and keyed by the record's text: the watcher
    behind `make serve` recomputes these only for the records an edit touched. Whatever is kept is shared by
    later exports, so nothing downstream may change it in place (they only read it, or copy it)."""

    def __init__(self) -> None:
        self.adapters: dict[str, tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str]] = {}
        self.kernel: dict[str, tuple[Any, Any, dict[str, Any]]] = {}
        # The expectations step's parts, each kept under the digest of what it read (verdicts/expectations_memo.py).
        self.expectations = Memo()

    def adapter_kernel(self, adapter: dict[str, Any], table: KernelTable) -> dict[str, Any]:
        """`kernel_export.adapter_kernel`, again only when the adapter's record changed: its verdict is the very
        object `adapter` keeps for an unchanged text, so holding it (and the table) identifies what went in."""
        known = self.kernel.get(adapter["id"])
        if known is None or known[0] is not adapter["verdict"] or known[1] is not table:
            known = self.kernel[adapter["id"]] = (adapter["verdict"], table, adapter_kernel(adapter, table))
        return known[2]

    def adapter(self, record: Record) -> tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str]:
        known = self.adapters.get(record.data["id"])
        if known is None or known[0] != record.text:
            known = self.adapters[record.data["id"]] = _adapter_parts(record)
        return known


# One object for each distinct "untested" platform verdict (no reports on that platform), shared by every adapter
# that has it: most adapters have reports on a few of the schema's platforms, and the copies of the same answer
# were half of the verdicts' memory (29.5 → 15.9 MiB for 1,000 synthetic products). Keyed by repr, which tells 1
# from 1.0 and a list from a tuple. Like everything BuildCache keeps, nothing downstream changes them in place.
_UNTESTED: dict[str, dict[str, Any]] = {}


def _shared_untested(platforms: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {name: _UNTESTED.setdefault(repr(v), v) if v["verdict"] == "untested" else v for name, v in platforms.items()}


def _adapter_parts(record: Record) -> tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str]:
    """What the export works out from the record alone: the verdicts (as objects and as published), the summary,
    the throughput chart and the report link. Kept in the content cache (records/cache.py) under the digest of the
    record's bytes and the issue form the link fills in: nothing else goes in (the kernel table the verdicts are
    checked against is in the cache's code version), so an entry holds as long as the file's bytes do, whatever else in the tree changed."""
    store = content_cache.store() if record.loaded.digest else None
    # The report link reads the issue form and the site's repo (report_link.report_form), outside the code version.
    key = store.key("adapter-parts", record.loaded.digest, repr(report_form())) if store else ""
    known = _parts_from_entry(record, store.get(key)) if store else None
    if known is not None:
        return _noted(known, key)
    parts = _worked_out_parts(record)
    if store:
        store.put(key, (verdict_as_plain(parts[1]), *parts[2:]))
        _noted(parts, key)
    return parts


def _noted(parts: tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str], key: str
           ) -> tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str]:
    """The parts, their published verdict and chart noted as made from the entry's key (cache.note_made_from):
    the key names every input of them, and nothing changes them in place."""
    content_cache.note_made_from(parts[2], f"adapter-parts:{key}:verdict")
    content_cache.note_made_from(parts[4], f"adapter-parts:{key}:chart")
    return parts


def _parts_from_entry(record: Record, entry: Any) -> tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str] | None:
    """`_worked_out_parts` from its cache entry, or None when the entry is not one (a miss)."""
    try:
        plain, as_dict, summary, chart, query = entry
        verdict = verdict_from_plain(plain)
        as_dict["uas"], as_dict["boot"] = _shared_untested(as_dict["uas"]), _shared_untested(as_dict["boot"])
    except (TypeError, ValueError, KeyError, AttributeError):
        return None
    return record.text, verdict, as_dict, summary, chart, query


def _worked_out_parts(record: Record) -> tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str]:
    data = record.data
    verdict = adapter_verdict(data)
    as_dict = verdict.as_dict()
    as_dict["uas"], as_dict["boot"] = _shared_untested(as_dict["uas"]), _shared_untested(as_dict["boot"])
    as_dict["readings"] = verdict.readings(len(data.get("reports", [])))
    first_id = next(iter(data.get("usb_ids", [])), None)
    query = report_query(usb_id=usb_key(first_id["vid"], first_id["pid"]) if first_id else None,
                         adapter=data["id"], name=data["name"])
    return record.text, verdict, as_dict, summary_line(verdict), throughput_chart(data), query


def adapter_entries(records: Sequence[Record], chipsets: Mapping[str, Mapping[str, Any]],
                    changes: Mapping[str, dict[str, str]],
                    cache: BuildCache | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The catalog's adapters, in id order, each its record's fields plus what the export works out from the
    record alone (path, dates, verdict, summary, chart, report link, labels), and each adapter's verdict by id.
    `changes` holds each data file's first and last commit date."""
    adapters: list[dict[str, Any]] = []
    verdict_by_id: dict[str, Any] = {}
    for record in sorted((r for r in records if r.kind == "adapter"), key=lambda r: r.data["id"]):
        parts = cache.adapter(record) if cache else _adapter_parts(record)
        verdict_by_id[record.data["id"]] = parts[1]
        adapters.append(adapter_entry(record, parts, chipsets, changes))
    if cache:
        for gone in set(cache.adapters) - set(verdict_by_id):
            del cache.adapters[gone]
            cache.kernel.pop(gone, None)

    vendor_labels = vendor_display_names(a.get("vendor") for a in adapters)
    for adapter in adapters:
        add_labels(adapter, vendor_labels)
    return adapters, verdict_by_id


def adapter_entry(record: Record, parts: tuple[str, Any, dict[str, Any], str, list[dict[str, Any]], str],
                  chipsets: Mapping[str, Mapping[str, Any]], changes: Mapping[str, dict[str, str]]) -> dict[str, Any]:
    """One adapter of `adapter_entries`, from its record and what BuildCache.adapter works out for it, before
    its labels (`add_labels`, whose vendor spelling reads every adapter's)."""
    _, _, verdict_dict, summary, chart, query = parts
    rel = relative_to(record.path, REPO_ROOT)
    entry = dict(record.data)
    entry["path"] = rel
    entry["changes"] = changes.get(rel, {})
    entry["verdict"] = verdict_dict
    entry["summary"] = summary
    entry["throughput_chart"] = chart
    if entry.get("chipset") in chipsets:
        entry["chipset_name"] = chipsets[entry["chipset"]]["name"]
    entry["report_query"] = query
    return entry


def add_labels(adapter: dict[str, Any], vendor_labels: Mapping[str, str]) -> None:
    """Put the adapter's vendor and drive labels on it (in place): `vendor_labels` is vendor_display_names of
    every adapter's vendor."""
    adapter["vendor_label"] = vendor_labels.get(adapter.get("vendor") or "", "Unbranded or unknown")
    adapter["drive_label"] = DRIVE_LABELS[adapter.get("drive_interface")]


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
                 verdict_short: Mapping[str, str]) -> list[dict[str, Any]]:
    """Per report (same order), the words the reports table prints."""
    views = []
    for report, reading in zip(adapter["reports"], adapter["verdict"]["readings"], strict=True):
        uas, boot = reading.get("uas"), reading.get("boot")
        view: dict[str, Any] = {"host_label": host_labels.get(report.get("host"), report.get("host"))}
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


def _kernel_of(adapter: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    kernel = adapter.get("kernel")
    if not kernel:
        return None
    return {"entries": [e for e in kernel["builtin"] if e["usb_id"] == key],
            "groups": kernel["builtin_groups"].get(key, []), "by_itself": kernel["by_itself"].get(key, False),
            "runtime": [r for r in kernel["runtime"] if r["usb_id"] == key],
            "quirk": any(q["entry"].startswith(f"{key}:") for q in kernel["quirk_entries"])}


def chip_unknown(adapter: Mapping[str, Any]) -> dict[str, Any] | None:
    """For a product whose bridge chip no source names: what an owner can run to find it out (None when known)."""
    if adapter.get("chipset"):
        return None
    ids = [f"{u['vid']}:{u['pid']}" for u in adapter.get("usb_ids", [])]
    lsusb = f"lsusb -v -d {ids[0]}" if len(ids) == 1 else "lsusb -v"
    return {"text": "No source names the bridge chip inside. If you own one, these print what identifies it: the "
                    "USB ID, bcdDevice and the iManufacturer / iProduct strings, which often name the chip; a "
                    "photo of the board's chip marking settles it. Add what they show to a report.",
            "commands": [lsusb, "python3 probe.py --handle YOUR-GITHUB-NAME"]}


def search_filters(adapter: Mapping[str, Any]) -> list[dict[str, str]]:
    """Pagefind's filters of the product's page, in the order the page lists them (common.json gathers the values
    every page offers)."""
    verdict = adapter["verdict"]
    return [{"key": k, "value": v} for k, v in (
        ("chipset", adapter.get("chipset_name") or "Not known"), ("interface", adapter["drive_label"]),
        ("vendor", adapter["vendor_label"]), ("pi4_uas", verdict["uas"]["pi4"]["short"]),
        ("pi4_boot", verdict["boot"]["pi4"]["short"]))]


def page(adapter: Mapping[str, Any], catalog: Mapping[str, Any], chipsets: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    verdict = adapter["verdict"]
    platforms = catalog["platforms"]
    chip = chipsets.get(adapter.get("chipset") or "")
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
        "search": {"filters": search_filters(adapter), "badges": ";".join(badges)},
        "chipset": {"id": chip["id"], "name": chip["name"], "maker": chip["maker"]} if chip else None,
        "chip_unknown": chip_unknown(adapter),
        "usb_ids": usb_ids,
        "check_ids": ",".join(u["key"] for u in usb_ids),
        "what_to_do": what_to_do,
        # An ASIN names a listing on Amazon's stores; amazon.com's /dp/ address opens it (and redirects, or says it
        # is not sold there, for a listing only another country's store has).
        "asins": [{"asin": a, "url": f"https://www.amazon.com/dp/{a}"}
                  for a in (adapter.get("product_codes") or {}).get("asin", [])],
        "reports": report_views(adapter, catalog["host_labels"], catalog["verdict_short"]),
    }
