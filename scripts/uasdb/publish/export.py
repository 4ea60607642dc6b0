"""Export records with their computed verdicts: the data Hugo renders and the static JSON API.

`uasdb export --out DIR [--data TREE ...]` builds one catalog in memory (`build`: the records, their verdicts and
what is known besides) and writes it as pages' models (publish/, which says which file holds what):
  DIR/data/common.json         what every page shares; DIR/data/pages.json which pages Hugo makes
  DIR/static/api/v1/...        one file per page and entity: the page's model and its JSON API file at once
                               (API.md documents them), served as static files and read by Hugo as resources
  DIR/static/adapters.csv      one row per adapter
  DIR/static/adapters/<id>/    a redirect page for each removed record (data/removed.yaml)
What Linux, usb.ids and smartmontools already know is joined on by kernel_export.py (see docs/kernel.md), what
distributions set by distribution_export.py, and how common each ID is (linux-hardware.org) by linuxhw_export.py.
Every JSON file of the API is wrapped as {"schema_version", "generated_at", "result"}.
The export refuses to run on data with errors, so nothing invalid or partial is published.
`--data` points at other record trees (folders holding adapters/ and chipsets/), e.g. the
test fixtures the browser tests build their site from.
"""
from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Collection, Dict, Iterable, List, Optional, Sequence, Tuple

from ..paths import DATA_DIR, REPO_ROOT
from ..records.database import KIND_DIRS, LoadCache, Record, check, relative_to
from ..records.reference import KernelTable, ReferenceDataError, load_kernel, load_linuxhw
from ..records.rules.removals import removal_notes
from ..records.vocabulary import BUY_PAGES, FOCUS_PLATFORMS, HOST_TITLES, HOST_USB_LINK, PLATFORM_SHORT
from ..verdicts.engine import (
    BOOT_VERDICT_SHORT,
    BOOT_VERDICT_TEXT,
    EVIDENCE_CLASSES,
    ICON,
    LIST_PLATFORMS,
    PLATFORMS,
    QUIRKS_PARAM_MAX_CHARS,
    TONE,
    VERDICT_SHORT,
    VERDICT_TEXT,
    adapter_verdict,
    combined_quirk_line,
    merge_quirk_entries,
    quirk_line_fits,
    quirk_value_length,
    summary_line,
    usb_id_verdict,
)
from ..verdicts.expectations import UAS_PLATFORMS as EXPECT_PLATFORMS
from . import api_index, probebuild
from .distributions import add_distributions, distribution_facts
from .files import attach_pages, export_files
from .kernel import adapter_kernel, add_reference
from .linuxhw import add_popularity, add_wanted
from .report_link import report_query

# Home Assistant OS patches its Raspberry Pi kernels to take 255 characters (`static char quirks[256]`).
PATCHED_QUIRKS_LIMIT = {"chars": 255, "who": "Home Assistant OS (Raspberry Pi images)",
                        "url": "https://github.com/home-assistant/operating-system/pull/3311"}

# How the site names each `host` of the schema's enum.
HOST_LABELS = HOST_TITLES  # from the schema, via vocabulary.py: the same titles the issue form offers
# The order the site shows platforms in (the schema's x-uasdb-platforms order): the Pi models people ask about first.
PLATFORM_ORDER = list(PLATFORMS)

# Where in the export the templates' data goes: a folder of its own, which site/hugo.yaml mounts as Hugo's
# data/generated/, so `make serve` can replace the file whole (watch.py) while Hugo's server watches the folder.



def _generated_at(pathspecs: Sequence[str] = ("data",)) -> str:
    # Reproducible builds: honour SOURCE_DATE_EPOCH, else the last commit touching the data, else now.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        epoch = _git(["log", "-1", "--format=%ct", "--", *pathspecs]) or None
    moment = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else datetime.datetime.now(datetime.timezone.utc)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _git(args: List[str]) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _last_changes(pathspecs: Sequence[str] = ("data",)) -> Dict[str, Dict[str, str]]:
    """First and last commit date of every data file, from one `git log` call."""
    output = _git(["log", "--format=@%cs", "--name-only", "--", *pathspecs])
    dates: Dict[str, Dict[str, str]] = {}
    current = ""
    for line in output.splitlines():
        if line.startswith("@"):
            current = line[1:]
        elif line.strip():
            entry = dates.setdefault(line.strip(), {"changed": current})
            entry["added"] = current  # log runs newest first, so the last one seen is the first commit
    return dates


def usb_key(vid: str, pid: str) -> str:
    return f"{vid}:{pid}"


def usb_spellings(vid: str, pid: str) -> List[str]:
    """The ways people paste a USB ID (lsusb, udev, Windows, C source); the site indexes them all for search."""
    return [f"{vid}:{pid}", f"{vid}{pid}", f"0x{vid} 0x{pid}", f"0x{vid}:0x{pid}", f"{vid.upper()}:{pid.upper()}",
            f"VID_{vid.upper()}&PID_{pid.upper()}"]


_TEST_LABELS = {"seq-read": ("sequential", "read"), "seq-write": ("sequential", "write"),
                "rand4k-read": ("4K random", "read"), "rand4k-write": ("4K random", "write")}
_DRIVER_LABELS = {"uas": "UAS", "usb-storage": "usb-storage", None: "driver not stated"}
MIB = 1.048576  # MiB/s -> MB/s
# What a USB link can carry, in MB/s, after its line coding: USB 2's 480 Mbit/s signalling rate, 8b/10b on 5 Gbit/s,
# 128b/132b on 10 and 20 Gbit/s. Protocol overhead keeps real transfers below these; nothing can exceed them.
LINK_LIMITS = {"480M": (60.0, "USB 2 (480 Mbit/s)"), "5000M": (500.0, "5 Gbit/s"),
               "10000M": (1212.1, "10 Gbit/s"), "20000M": (2424.2, "20 Gbit/s")}
USB2_LIMIT = LINK_LIMITS["480M"][0]


def link_ceiling(report: Dict[str, Any], value_mbps: float) -> Optional[Dict[str, Any]]:
    """The link limit a sequential figure is measured against: the link the report states, else the host's own
    ports when the board fixes them (a Pi 3's are USB 2 only; a figure above USB 2's limit on a Pi 4 or Pi 5 can
    only have come over its 5 Gbit/s ports). None when the link cannot be known."""
    link = report.get("link_speed")
    if link is None:
        link = HOST_USB_LINK.get(report.get("host") or "")
        if link is not None and link != "480M" and value_mbps <= USB2_LIMIT:
            return None  # a Pi 4 or Pi 5 figure this low may come from a USB 2 port
    if link not in LINK_LIMITS:
        return None
    limit, label = LINK_LIMITS[link]
    return {"link": link, "limit": limit, "label": label, "stated": "link_speed" in report}


def throughput_chart(record: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Every throughput figure of every report, grouped into chart panels (sequential MB/s, 4K random MB/s,
    4K random IOPS). MiB/s is converted to MB/s so one panel has one scale; `fraction` is the bar length."""
    panels: Dict[tuple, Dict[str, Any]] = {}
    for number, report in enumerate(record.get("reports", []), start=1):
        for figure in report.get("throughput", []):
            kind, op = _TEST_LABELS[figure["test"]]
            unit = "IOPS" if figure["unit"] == "IOPS" else "MB/s"
            value = figure["value"] * MIB if figure["unit"] == "MiB/s" else figure["value"]
            driver = figure.get("driver") or report.get("driver")
            panel = panels.setdefault((kind, unit), {"title": f"{kind[0].upper()}{kind[1:]} ({unit})", "kind": kind,
                                                      "unit": unit, "bars": []})
            drive = report.get("drive") or {}
            panel["bars"].append({
                "test": figure["test"], "op": op, "driver": driver or "unknown", "driver_label": _DRIVER_LABELS[driver],
                # Like is compared with like only when the reader sees what produced each bar.
                "host": report.get("host"), "host_label": HOST_LABELS.get(report.get("host"), "host not stated"),
                "drive_label": drive.get("model") or drive.get("type") or "drive not stated",
                "value": round(value, 1), "as_reported": f"{figure['value']:g} {figure['unit']}",
                "tool": figure.get("tool"), "note": figure.get("note"), "report": number,
            })
            if kind == "sequential" and unit == "MB/s":
                ceiling = link_ceiling(report, value)
                if ceiling:
                    panel["bars"][-1]["ceiling"] = dict(ceiling, share=round(100 * value / ceiling["limit"]))
    result = []
    for key in sorted(panels, key=lambda k: (k[0] != "sequential", k[1] == "IOPS")):
        panel = panels[key]
        # The scale takes in each bar's link limit, so the limit marks fit in the panel.
        panel["max"] = max(max(bar["value"], bar.get("ceiling", {}).get("limit", 0)) for bar in panel["bars"])
        order = {"uas": 0, "usb-storage": 1, "unknown": 2}
        hosts = list(HOST_LABELS)
        # Like next to like: bars grouped by host, then reads before writes, UAS before usb-storage.
        panel["bars"].sort(key=lambda b: (hosts.index(b["host"]) if b["host"] in hosts else len(hosts),
                                          b["op"] != "read", order[b["driver"]], b["report"]))
        for bar in panel["bars"]:
            bar["fraction"] = round(bar["value"] / panel["max"], 4) if panel["max"] else 0
            if "ceiling" in bar:
                bar["ceiling"]["fraction"] = round(bar["ceiling"]["limit"] / panel["max"], 4)
        result.append(panel)
    return result


def _repo_relative(path: str) -> str:
    return relative_to(path, REPO_ROOT)


class BuildCache:
    """What `build` works out for each adapter from its record alone (the verdict, its summary, the throughput
    chart, the report link), kept between exports in one process and keyed by the record's text: the watcher
    behind `make serve` recomputes these only for the records an edit touched. Whatever is kept is shared by
    later exports, so nothing downstream may change it in place (they only read it, or copy it)."""

    def __init__(self) -> None:
        self.adapters: Dict[str, Tuple[str, Any, Dict[str, Any], str, List[Dict[str, Any]], str]] = {}
        self.kernel: Dict[str, Tuple[Any, Any, Dict[str, Any]]] = {}

    def adapter_kernel(self, adapter: Dict[str, Any], table: KernelTable) -> Dict[str, Any]:
        """`kernel_export.adapter_kernel`, again only when the adapter's record changed: its verdict is the very
        object `adapter` keeps for an unchanged text, so holding it (and the table) identifies what went in."""
        known = self.kernel.get(adapter["id"])
        if known is None or known[0] is not adapter["verdict"] or known[1] is not table:
            known = self.kernel[adapter["id"]] = (adapter["verdict"], table, adapter_kernel(adapter, table))
        return known[2]

    def adapter(self, record: Record) -> Tuple[str, Any, Dict[str, Any], str, List[Dict[str, Any]], str]:
        known = self.adapters.get(record.data["id"])
        if known is None or known[0] != record.text:
            known = self.adapters[record.data["id"]] = _adapter_parts(record)
        return known


def _adapter_parts(record: Record) -> Tuple[str, Any, Dict[str, Any], str, List[Dict[str, Any]], str]:
    data = record.data
    verdict = adapter_verdict(data)
    as_dict = verdict.as_dict()
    as_dict["readings"] = verdict.readings(len(data.get("reports", [])))
    first_id = next(iter(data.get("usb_ids", [])), None)
    query = report_query(usb_id=usb_key(first_id["vid"], first_id["pid"]) if first_id else None,
                         adapter=data["id"], name=data["name"])
    return record.text, verdict, as_dict, summary_line(verdict), throughput_chart(data), query


def build(records: Sequence[Record], pathspecs: Sequence[str] = ("data",), cache: Optional[BuildCache] = None) -> Dict[str, Any]:
    """The export of these records: everything site.json holds. With `cache`, adapters whose record text is
    unchanged since an earlier call reuse what that call worked out for them."""
    changes = _last_changes(pathspecs)
    chipsets = {r.data["id"]: r.data for r in records if r.kind == "chipset"}
    adapters: List[Dict[str, Any]] = []
    verdicts = []
    verdict_by_id = {}
    for record in sorted((r for r in records if r.kind == "adapter"), key=lambda r: r.data["id"]):
        _, verdict, verdict_dict, summary, chart, query = cache.adapter(record) if cache else _adapter_parts(record)
        verdicts.append(verdict)
        verdict_by_id[record.data["id"]] = verdict
        rel = _repo_relative(record.path)
        entry = dict(record.data)
        entry["path"] = rel
        entry["changes"] = changes.get(rel, {})
        entry["verdict"] = verdict_dict
        entry["summary"] = summary
        entry["throughput_chart"] = chart
        if entry.get("chipset") in chipsets:
            entry["chipset_name"] = chipsets[entry["chipset"]]["name"]
        entry["report_query"] = query
        adapters.append(entry)
    if cache:
        for gone in set(cache.adapters) - set(verdict_by_id):
            del cache.adapters[gone]
            cache.kernel.pop(gone, None)

    vendor_labels = vendor_display_names(a.get("vendor") for a in adapters)
    for adapter in adapters:
        adapter["vendor_label"] = vendor_labels.get(adapter.get("vendor") or "", "Unbranded or unknown")
        adapter["drive_label"] = DRIVE_LABELS[adapter.get("drive_interface")]

    usb: Dict[str, Dict[str, Any]] = {}
    for adapter in adapters:
        for usb_id in adapter.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), _usb_slot(usb_id))
            slot["adapters"].append(adapter["id"])
    for chipset in chipsets.values():
        for usb_id in chipset.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), _usb_slot(usb_id))
            slot["chipsets"].append(chipset["id"])

    # Every other USB ID with a page: those distributions ship a quirk for, linux-hardware.org counts and Linux's
    # own tables list. Made here, once, so each step below adds its facts to slots that exist.
    distributions = [r.data for r in records if r.kind == "distribution"]
    shipped = distribution_facts(distributions, HOST_LABELS)
    linuxhw = load_linuxhw()
    kernel_table = load_kernel()
    for key in [*shipped, *(f"{d['vid']}:{d['pid']}" for d in linuxhw["devices"]), *kernel_table.ids()]:
        vid, pid = key.split(":")
        usb.setdefault(key, _usb_slot({"vid": vid, "pid": pid}))

    adapter_by_id = {a["id"]: a for a in adapters}
    for slot in usb.values():
        if slot["adapters"]:
            slot["verdict"] = usb_id_verdict({i: verdict_by_id[i] for i in slot["adapters"]})
            slot["tell_apart"] = _tell_apart(slot, adapter_by_id)

    by_chipset: Dict[str, List[str]] = {}
    for adapter in adapters:
        if adapter.get("chipset"):
            by_chipset.setdefault(adapter["chipset"], []).append(adapter["id"])
    chipset_list = []
    for chipset_id in sorted(chipsets):
        entry = dict(chipsets[chipset_id])
        entry["adapters"] = by_chipset.get(chipset_id, [])
        # `uas` left out of a chipset record means no source says: show "unknown", never "no".
        entry["uas_label"] = {True: "yes", False: "no", None: "unknown"}[entry.get("uas")]
        entry["drive_label"] = DRIVE_LABELS[entry["drive_interface"]]
        entry["platform_summary"] = chipset_platform_summary([verdict_by_id[i] for i in entry["adapters"]])
        chipset_list.append(entry)

    naughty = [a for a in adapters if a["verdict"]["list"] == "naughty"]
    nice = [a for a in adapters if a["verdict"]["list"] == "nice"]
    pending = [a for a in adapters if a["verdict"]["list"] == "pending"]
    naughty_verdicts = [v for v in verdicts if v.listing == "naughty"]
    for slot in usb.values():  # who a quirk for the ID would also hit (the naughty list and the quirk builder warn)
        slot["works_on_uas"] = [i for i in slot["adapters"] if works_on_linux_uas(verdict_by_id[i])]
    naughty_entries = _naughty_quirk_entries(naughty, verdict_by_id, usb)
    shared_with_working = [e["usb_id"] for e in naughty_entries if e["shared_with_working"]]
    site: Dict[str, Any] = {
        "adapters": adapters,
        "chipsets": chipset_list,
        "usb": dict(sorted(usb.items())),
        "lists": {
            "naughty": [a["id"] for a in naughty],
            "nice": [a["id"] for a in nice],
            "pending": [a["id"] for a in pending],
            "naughty_quirk_line": combined_quirk_line(naughty_verdicts, exclude_ids=shared_with_working),
            "naughty_quirk_entries": naughty_entries,
            "naughty_excluded_ids": shared_with_working,
            "quirks_param_max_chars": QUIRKS_PARAM_MAX_CHARS,
            "quirks_param_patched": PATCHED_QUIRKS_LIMIT,
        },
        "evidence_classes": EVIDENCE_CLASSES,
        "verdict_tone": TONE,
        "tone_icon": ICON,
        # no_uas: none of the platform's hosts can use UAS (the schema's x-uasdb-hosts), so usb-storage is expected.
        "platforms": {name: {"label": spec["label"], "short": PLATFORM_SHORT[name], "hosts": list(spec["hosts"]),
                             "no_uas": bool(spec.get("no_uas_host"))}
                      for name, spec in PLATFORMS.items()},
        "platform_order": PLATFORM_ORDER,
        "host_labels": HOST_LABELS,
        "verdict_text": VERDICT_TEXT,
        "verdict_short": VERDICT_SHORT,
        "boot_verdict_text": BOOT_VERDICT_TEXT,
        "boot_verdict_short": BOOT_VERDICT_SHORT,
        "counts": {"adapters": len(adapters), "chipsets": len(chipset_list), "usb_ids": len(usb),
                   "reports": sum(len(a["reports"]) for a in adapters), "naughty": len(naughty), "nice": len(nice),
                   "pending": len(pending)},
    }
    # Then each source's facts, in turn: what distributions ship, how common linux-hardware.org finds each ID, and
    # what Linux, usb.ids and smartmontools know (kernel_export.py).
    add_distributions(site, distributions, shipped)
    add_popularity(site, linuxhw)
    add_reference(site, kernel_table, kernel_of=cache.adapter_kernel if cache else None)
    add_wanted(site)
    add_expectations(site, [r.data for r in records if r.kind == "adapter"], verdict_by_id, distributions,
                     list(chipsets.values()))
    site["buy"] = buy_rankings(adapters, verdict_by_id)
    site["buy_order"] = list(BUY_PLATFORMS)
    site["latest_reports"] = latest_reports(adapters)
    # The naughty page shows the built-in-preserving line when there is one: judge the length of that one.
    shown = site["lists"].get("naughty_quirk_line_preserving_builtin") or site["lists"]["naughty_quirk_line"]
    site["lists"]["naughty_quirk_line_length"] = quirk_value_length(shown)
    site["lists"]["naughty_quirk_line_fits"] = quirk_line_fits(shown)
    kernel_version = (site.get("kernel") or {}).get("version")
    for key, slot in site["usb"].items():  # IDs only the kernel lists get the same search spellings as the rest
        slot.setdefault("spellings", usb_spellings(slot["vid"], slot["pid"]))
        slot["report_query"] = report_query(usb_id=key)
        slot["summary"] = usb_summary(slot, chipsets, kernel_version)
    site["report_query"] = report_query()
    attach_pages(site)
    return site


def add_expectations(site: Dict[str, Any], records: List[Dict[str, Any]], verdict_by_id: Dict[str, Any],
                     distributions: List[Dict[str, Any]], chipsets: List[Dict[str, Any]]) -> None:
    """Where a product (or a USB ID) has no observed or stated verdict on a platform, the expectation built from
    related evidence (expectations.py), under `expected`; and how often such expectations are right
    (leave-one-out) with how many products they reach, under `expectation_evaluation`, for /verdicts/. Never a
    verdict: nothing here touches `verdict`, the lists or the counts."""
    from ..verdicts.expectations import Related, coverage, evaluate, expectations
    try:
        kernel, linuxhw = load_kernel(), load_linuxhw()
    except ReferenceDataError:
        kernel, linuxhw = None, None
    related = Related(records, verdict_by_id, kernel, distributions, linuxhw, chipsets)
    for adapter in site["adapters"]:
        adapter["expected"] = expectations(adapter, verdict_by_id[adapter["id"]], related)
    for slot in site["usb"].values():
        verdict = slot.get("verdict") or {}
        slot["expected"] = {p: related.expect_for_id(slot, p).as_dict() for p in EXPECT_PLATFORMS
                            if (verdict.get(p) or {}).get("verdict", "untested") == "untested"}
    result = evaluate(related)
    site["expectation_evaluation"] = dict(result, products=coverage(related))


# What to buy: one page per platform, ranking products a buyer can order by the strength of their evidence.
# Which platforms have one, in what order, with what slug and title: the schema's `buy` and platform focus.
BUY_PLATFORMS = {name: page["title"] for name, page in BUY_PAGES.items()}
BUY_SLUGS = {name: page["slug"] for name, page in BUY_PAGES.items()}  # /buy/<slug>/
_STRENGTH_ORDER = {"observed": 0, "stated": 1, "hearsay": 2, None: 3}
_CONFIDENCE_ORDER = {"confirmed": 0, "likely": 1, "disputed": 2, "none": 3}


def _lite(pv: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The parts of a platform verdict a ranking shows (badge, tone, grade, basis)."""
    if not pv:
        return None
    return {k: pv[k] for k in ("verdict", "short", "tone", "icon", "rank", "confidence", "strength", "grade",
                               "recommended", "pending", "basis_text", "about")}


def best_read(adapter: Dict[str, Any], hosts: Sequence[str]) -> Optional[Dict[str, Any]]:
    """The fastest sequential read any report measured on these hosts, with what produced it."""
    bars = [b for panel in adapter.get("throughput_chart", []) if panel["kind"] == "sequential" and panel["unit"] == "MB/s"
            for b in panel["bars"] if b["op"] == "read" and b.get("host") in hosts]
    if not bars:
        return None
    bar = max(bars, key=lambda b: b["value"])
    return {"value": bar["value"], "unit": "MB/s", "host_label": bar["host_label"], "driver_label": bar["driver_label"],
            "drive_label": bar["drive_label"], "report": bar["report"]}


def platform_quirk(verdict: Any, platform: str) -> Optional[Dict[str, str]]:
    """The quirk line a ranking row for `platform` may show, and in which words: "needs" only when reports on
    that platform needed it; "works with" when they applied it without showing the failure; otherwise the
    platform the line came from, so a Linux PC's line never reads as the Pi's."""
    here = verdict.quirk_entries_for([platform])
    pv = verdict.uas[platform]
    if here:
        words = "works with" if pv.grade == "failure-not-shown" else "needs"
        return {"words": words, "line": "usb-storage.quirks=" + ",".join(here)}
    others = [s for s in verdict.quirk_sources if platform not in s["platforms"]]
    if not others:
        return None
    where = ", ".join(dict.fromkeys(PLATFORMS[p]["label"] for s in others for p in s["platforms"]))
    return {"words": f"{where} reports needed", "line": "usb-storage.quirks=" + ",".join(s["entry"] for s in others)}


_EXPECT_ORDER = {"works": 0, "no-uas": 1, "needs-quirk": 2}
# How many untested products a what-to-buy page shows with their expectation (the best first; the count says all).
EXPECTED_SHOWN = 100
# Which part of a what-to-buy page a product goes in (buy_group): the order of the page's sections.
BUY_GROUPS = ("recommended", "pending", "other", "avoid")
_NVME = ("nvme", "nvme-sata")


def buy_group(uas: Any, boot: Optional[Any]) -> str:
    """recommended: UAS used at 5 Gbit/s without a quirk (nothing against) and booting not reported to fail;
    avoid: on observed or stated evidence, a quirk shown to be needed, broken or disputed UAS, or a boot that
    fails, works only sometimes, or is disputed; pending: UAS works, not yet recommended; other: the rest
    (unverified reports, no UAS, a quirk whose need is not shown, booting only)."""
    strong_uas = uas.confidence in ("confirmed", "disputed")
    if strong_uas and (uas.verdict in ("broken", "mixed")
                       or (uas.verdict == "works-with-quirk" and uas.grade != "failure-not-shown")):
        return "avoid"
    if boot is not None and boot.confidence in ("confirmed", "disputed") and boot.verdict in ("fails", "intermittent", "mixed"):
        return "avoid"
    if uas.recommended:
        return "recommended"
    if uas.pending:
        return "pending"
    return "other"


def buy_rankings(adapters: List[Dict[str, Any]], verdict_by_id: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """Per platform, every product with a vendor and a model number (something a buyer can order) that has any
    verdict there, UAS or boot, good or bad, in the page's sections (BUY_GROUPS), best first within each:
    verdict rank, then boot on a Pi, confidence, strongest evidence, number of reports, name. Untested ones are
    only counted. `counts` says exactly what each number counts."""
    result = {}
    for name, title in BUY_PLATFORMS.items():
        spec = PLATFORMS[name]
        orderable = [a for a in adapters if a.get("vendor") and a.get("model")]

        def has_verdict(a: Dict[str, Any], name: str = name) -> bool:
            boot = a["verdict"]["boot"].get(name)
            return a["verdict"]["uas"][name]["verdict"] != "untested" or (boot and boot["verdict"] != "untested")
        listed = [a for a in orderable if has_verdict(a)]

        def key(a: Dict[str, Any], name: str = name) -> Tuple[Any, ...]:
            uas = a["verdict"]["uas"][name]
            boot = a["verdict"]["boot"].get(name)
            return (uas["rank"], boot["rank"] if boot else 0, _CONFIDENCE_ORDER[uas["confidence"]],
                    _STRENGTH_ORDER[uas["strength"]], -uas["basis"]["reports"], a["name"].casefold())
        groups: Dict[str, List[Dict[str, Any]]] = {g: [] for g in BUY_GROUPS}
        for a in sorted(listed, key=key):
            verdict = verdict_by_id[a["id"]]
            boot = verdict.boot.get(name)
            group = buy_group(verdict.uas[name], boot)
            groups[group].append({
                "id": a["id"], "name": a["name"], "vendor": a["vendor_label"], "model": a["model"],
                "drive_label": a["drive_label"], "chipset_name": a.get("chipset_name"), "group": group,
                "recommended": group == "recommended", "asin": (a.get("product_codes") or {}).get("asin", []),
                "uas": _lite(a["verdict"]["uas"][name]), "boot": _lite(a["verdict"]["boot"].get(name)),
                "best_read": best_read(a, spec["hosts"]), "quirk": platform_quirk(verdict, name),
                "nvme": a.get("drive_interface") in _NVME})
        picks = groups["recommended"]
        products = [p for g in BUY_GROUPS if g != "avoid" for p in groups[g]]
        # Not tested here, but an expectation from related evidence: a section of its own, never ranked.
        expected = []
        for a in orderable:
            if has_verdict(a):
                continue
            e = (a.get("expected") or {}).get("uas", {}).get(name)
            if e and e["state"] == "expected":
                expected.append({"id": a["id"], "name": a["name"], "vendor": a["vendor_label"], "model": a["model"],
                                 "drive_label": a["drive_label"], "expected": e})
        expected.sort(key=lambda p: (_EXPECT_ORDER[p["expected"]["verdict"]], p["expected"]["confidence"] != "strong",
                                     p["name"].casefold()))
        expected_total = len(expected)
        expected = expected[:EXPECTED_SHOWN]
        boots = [p for p in picks if p["boot"] and p["boot"]["verdict"] == "works" and p["boot"]["confidence"] == "confirmed"]
        nvme_boots = [p for g in BUY_GROUPS if g != "avoid" for p in groups[g]
                      if p["nvme"] and p["boot"] and p["boot"]["verdict"] == "works" and p["boot"]["confidence"] == "confirmed"]
        result[name] = {"platform": name, "slug": BUY_SLUGS[name], "title": title, "label": spec["label"],
                        "short": PLATFORM_SHORT[name], "pi": spec["pi"], "products": products, "avoid": groups["avoid"],
                        "recommended": [p["id"] for p in picks], "top": picks[:3], "expected": expected,
                        "counts": {"with_verdict": len(listed), "recommended": len(picks),
                                   "recommended_and_boots": len(boots), "pending": len(groups["pending"]),
                                   "other": len(groups["other"]), "avoid": len(groups["avoid"]),
                                   "untested_orderable": len(orderable) - len(listed),
                                   "nvme_boots": len(nvme_boots), "expected": expected_total},
                        "untested_orderable": len(orderable) - len(listed)}
    return result


def latest_reports(adapters: List[Dict[str, Any]], count: int = 6) -> List[Dict[str, Any]]:
    """The newest dated reports across the database, for the home page."""
    dated = [(r["date"], a, n, r) for a in adapters for n, r in enumerate(a.get("reports", []), start=1) if r.get("date")]
    dated.sort(key=lambda t: (t[0], t[1]["id"], t[2]), reverse=True)
    return [{"date": d, "adapter": a["id"], "name": a["name"], "report": n, "host": r.get("host"),
             "host_label": HOST_LABELS.get(r.get("host"), "host not stated"), "source_title": r.get("source", {}).get("title")}
            for d, a, n, r in dated[:count]]


# How the site names each `drive_interface` (filters, tables, what to buy).
DRIVE_LABELS = {"sata": "SATA", "nvme": "NVMe", "msata": "mSATA", "m2-sata": "M.2 SATA",
                "nvme-sata": "M.2 NVMe or SATA", "pata": "PATA (IDE)",
                "sata-pata": "SATA or PATA (IDE)", None: "Not stated"}
_VENDOR_SUFFIXES = (".com", " inc.", " inc", " ltd.", " ltd", " co.", " gmbh", ",")


def vendor_key(name: str) -> str:
    """What makes two vendor spellings one vendor: case, and a trailing .com, Inc., Ltd. or GmbH."""
    key = name.casefold().strip()
    changed = True
    while changed:
        changed = False
        for suffix in _VENDOR_SUFFIXES:
            if key.endswith(suffix):
                key, changed = key[: -len(suffix)].strip(), True
    return key


def vendor_display_names(vendors: Iterable[Optional[str]]) -> Dict[str, str]:
    """Each spelling in the records -> the one the site shows for its vendor: the spelling most records use
    (ties: the one with more capitals, as brands such as NATEC and ORICO write themselves), so filters and
    tables list "StarTech.com" and "StarTech", or "Natec" and "NATEC", once."""
    counts: Dict[str, Dict[str, int]] = {}
    for name in vendors:
        if name:
            group = counts.setdefault(vendor_key(name), {})
            group[name] = group.get(name, 0) + 1
    labels = {}
    for group in counts.values():
        best = max(sorted(group), key=lambda n: (group[n], sum(c.isupper() for c in n)))
        for name in group:
            labels[name] = best
    return labels


# How a chipset's adapters fare: (singular, plural) verb phrases per bucket, worst first (the tone follows it).
# A bucket is a verdict word refined by its grade and confidence (_fare_bucket).
_FARE = {"broken": ("has broken UAS", "have broken UAS"), "mixed": ("has mixed reports", "have mixed reports"),
         "works-with-quirk": ("needs a quirk", "need a quirk"),
         "errors": ("had UAS errors of unclear cause", "had UAS errors of unclear cause"),
         "no-uas": ("has no UAS", "have no UAS"),
         "fixed": ("had trouble a later release fixed", "had trouble a later release fixed"),
         "quirk-applied": ("works with a quirk whose need is not shown", "work with a quirk whose need is not shown"),
         "unverified": ("has only unverified reports", "have only unverified reports"),
         "pending": ("works, pending more reports", "work, pending more reports"),
         "works": ("works, used at 5 Gbit/s", "work, used at 5 Gbit/s")}
_BOOT_FARE = {"fails": ("does not boot", "do not boot"), "intermittent": ("boots only sometimes", "boot only sometimes"),
              "mixed": ("has mixed boot reports", "have mixed boot reports"),
              "works-with-workaround": ("boots with a workaround", "boot with a workaround"),
              "fixed": ("had a boot failure a later release fixed", "had a boot failure a later release fixed"),
              "unverified": ("has only unverified boot reports", "have only unverified boot reports"),
              "works": ("boots", "boot")}
_FARE_TONE = {"broken": "bad", "mixed": "warn", "works-with-quirk": "warn", "errors": "warn", "no-uas": "meh",
              "fixed": "meh", "quirk-applied": "meh", "unverified": "meh", "pending": "fair", "works": "good",
              "fails": "bad", "intermittent": "warn", "works-with-workaround": "warn"}
# The one or two words a compact count shows ("2 need quirk"), per bucket.
_FARE_WORD = {"works": "recommended", "pending": "pending", "works-with-quirk": "need quirk", "broken": "broken",
              "mixed": "mixed", "errors": "errors", "no-uas": "no UAS", "fixed": "fixed", "quirk-applied": "quirk applied",
              "unverified": "unverified"}
_BOOT_FARE_WORD = {"works": "boot", "works-with-workaround": "workaround", "intermittent": "sometimes", "fails": "no boot",
                   "mixed": "mixed", "fixed": "fixed", "unverified": "unverified"}
# Buckets a buyer avoids: the "trouble" count that sorts the chipset table.
_TROUBLE = frozenset({"broken", "mixed", "works-with-quirk", "errors", "fails", "intermittent"})
SUMMARY_PLATFORMS = FOCUS_PLATFORMS


def _fare_bucket(pv: Any) -> str:
    if pv.verdict == "untested":
        return "untested"
    if pv.confidence == "likely":
        return "unverified"
    if pv.kind == "uas" and pv.verdict == "works":
        return "works" if pv.recommended else "pending"
    return {"failure-not-shown": "quirk-applied", "cause-not-isolated": "errors"}.get(pv.grade or "", pv.verdict)


def _fare(verdicts: List[Any], fare: Dict[str, Tuple[str, str]], noun: Tuple[str, str],
          words: Dict[str, str]) -> Dict[str, Any]:
    counts: Dict[str, int] = {}
    for pv in verdicts:
        bucket = _fare_bucket(pv)
        counts[bucket] = counts.get(bucket, 0) + 1
    untested = counts.pop("untested", 0)
    tested = sum(counts.values())
    parts = [f"{counts[w]} {fare[w][counts[w] != 1]}" for w in fare if counts.get(w)]
    if tested:
        first = parts[0].split(" ", 1)
        text = f"{first[0]} of {tested} {noun[tested != 1]} {first[1]}" + "".join(f", {p}" for p in parts[1:])
    else:
        text = f"no {noun[0]}"
    if untested and tested:
        text += f"; {untested} not tested"
    worst = next((w for w in fare if counts.get(w)), None)
    badges = [{"count": counts[w], "word": words[w], "tone": _FARE_TONE[w]} for w in fare if counts.get(w)]
    return {"counts": dict(counts, untested=untested), "tested": tested, "text": text, "badges": badges,
            "tone": _FARE_TONE[worst] if worst else TONE["untested"],
            "trouble": sum(n for w, n in counts.items() if w in _TROUBLE)}


def chipset_platform_summary(verdicts: List[Any]) -> List[Dict[str, Any]]:
    """Per platform, how the chipset's adapters fare with UAS ("1 of 2 tested adapters needs a quirk, 1 works,
    pending more reports"; tested ones only, the untested counted apart) and, on a Pi, with booting, so a
    chipset page opens with the answer and the chipset table can sort by trouble."""
    rows = []
    for name in SUMMARY_PLATFORMS:
        row = dict(_fare([v.uas[name] for v in verdicts], _FARE, ("tested adapter", "tested adapters"), _FARE_WORD),
                   platform=name, label=PLATFORMS[name]["label"], short=PLATFORM_SHORT[name])
        if name in LIST_PLATFORMS:
            row["boot"] = _fare([v.boot[name] for v in verdicts], _BOOT_FARE,
                               ("adapter with a boot report", "adapters with a boot report"), _BOOT_FARE_WORD)
            row["trouble"] += row["boot"]["trouble"]
        rows.append(row)
    return rows


def _tell_apart(slot: Dict[str, Any], by_id: Dict[str, Dict[str, Any]]) -> List[Dict[str, Any]]:
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


def works_on_linux_uas(verdict: Any) -> bool:
    """Whether a product is confirmed to work on uas without a quirk on a Linux platform: an ID-wide quirk line
    would take that away from it."""
    return any(v.verdict == "works" and v.confidence == "confirmed"
               for name, v in verdict.uas.items() if PLATFORMS[name]["linux"])


def _naughty_quirk_entries(naughty: List[Dict[str, Any]], verdict_by_id: Dict[str, Any],
                           usb: Dict[str, Dict[str, Any]]) -> List[Dict[str, Any]]:
    """One entry per USB ID on the naughty list's quirk line, with the products it comes from and the products
    known to work without it that the same entry would also hit."""
    merged = merge_quirk_entries(e for a in naughty for e in verdict_by_id[a["id"]].quirk_entries)
    sources_by_id: Dict[str, List[str]] = {}
    for a in naughty:
        for entry in verdict_by_id[a["id"]].quirk_entries:
            sources_by_id.setdefault(entry.rsplit(":", 1)[0], []).append(a["id"])
    entries = []
    for usb_id, flags in merged.items():
        sources = sorted(set(sources_by_id.get(usb_id, [])))
        working = [i for i in usb.get(usb_id, {}).get("works_on_uas", []) if i not in sources]
        entries.append({"usb_id": usb_id, "entry": f"{usb_id}:{flags}", "line": f"usb-storage.quirks={usb_id}:{flags}",
                        "adapters": sources, "shared_with_working": working})
    return entries


def usb_summary(slot: Dict[str, Any], chipsets: Dict[str, Dict[str, Any]], kernel_version: Optional[str]) -> str:
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


def _usb_slot(usb_id: Dict[str, Any]) -> Dict[str, Any]:
    return {"vid": usb_id["vid"], "pid": usb_id["pid"], "spellings": usb_spellings(usb_id["vid"], usb_id["pid"]),
            "adapters": [], "chipsets": []}


def write(out_dir: Path, site: Dict[str, Any], generated_at: str) -> None:
    if out_dir.exists():
        shutil.rmtree(out_dir)
    for relative, parts in export_files(site, generated_at):
        path = out_dir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as out:
            out.writelines(parts)


def record_folders(trees: Sequence[Path]) -> List[Path]:
    """The record folders (adapters/, chipsets/, distributions/) that exist in these data trees."""
    return [Path(t) / folder for t in trees for folder in KIND_DIRS.values() if (Path(t) / folder).is_dir()]


def prepare(data_dirs: Optional[Sequence[Path]] = None, ignore_rules: Collection[str] = (),
            cache: Optional[LoadCache] = None,
            build_cache: Optional[BuildCache] = None) -> Optional[Tuple[Dict[str, Any], str]]:
    """Check the record trees (default: data/) and build the export: (site, generated_at), or None (and the
    problems on stderr) when the data has errors. `cache` keeps unchanged files parsed and checked between calls,
    `build_cache` their adapters' verdicts and charts (both for the watcher)."""
    trees = [Path(d) for d in (data_dirs or [DATA_DIR])]
    missing = [str(t) for t in trees if not t.is_dir()]
    if missing:
        print(f"export: no such data folder: {', '.join(missing)} (give folders holding adapters/ and chipsets/)",
              file=sys.stderr)
        return None
    paths = record_folders(trees)
    result = check(paths, cache=cache) if paths else check([])
    errors = [p for p in result.errors if p.rule not in ignore_rules]
    if errors:
        for problem in errors:
            print(problem.render(), file=sys.stderr)
        print(f"export refused: {len(errors)} error(s) in the data (run `uasdb validate`)", file=sys.stderr)
        return None
    pathspecs = [_repo_relative(str(t)) for t in trees]
    site = build(result.records, pathspecs, build_cache)
    # Removed records' addresses (data/removed.yaml, already checked): each becomes a redirect page.
    site["removed"] = [{k: note[k] for k in ("id", "kind", "redirect", "reason")}
                       for tree in trees for note in removal_notes(tree, str)[0]]
    return site, _generated_at(pathspecs)


def export_tree(out_dir: Path, data_dirs: Optional[Sequence[Path]] = None,
                ignore_rules: Collection[str] = ()) -> Optional[Dict[str, Any]]:
    """Check the record trees (default: data/) and write the export; None (and the problems on stderr) when
    the data has errors. `ignore_rules` exists for tests that must publish deliberately unsafe text."""
    prepared = prepare(data_dirs, ignore_rules)
    if prepared is None:
        return None
    site, generated_at = prepared
    write(out_dir, site, generated_at)
    return site


def run_export(out_dir: Path, data_dirs: Optional[Sequence[Path]] = None) -> int:
    try:
        site = export_tree(out_dir, data_dirs)
    except probebuild.BundleError as error:
        print(f"error: cannot build /probe.py: {error}", file=sys.stderr)
        return 1
    except api_index.ApiDocError as error:
        print(f"error: cannot write the /api/v1/ page: {error}", file=sys.stderr)
        return 1
    if site is None:
        return 1
    counts = site["counts"]
    print(f"exported {counts['adapters']} adapters, {counts['chipsets']} chipsets, {counts['usb_ids']} USB IDs to {out_dir}")
    return 0
