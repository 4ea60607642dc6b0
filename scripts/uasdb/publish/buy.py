"""The what-to-buy page's model (/api/v1/buy/<slug>.json): the platform's ranking (`buy_rankings`, made from the
catalog's adapters), the other platforms' pages, and the page's filters (publish/facets.py): what sort of product (the schema's `kind`),
which drive it takes (`drive_interface`) and, on a Pi, whether it boots. Every row of the page's three tables
(`products`, `avoid`, `expected`) carries the values it matches in `facets`; `facets` lists the filters."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..records.vocabulary import BUY_PAGES, DRIVE_INTERFACE_TITLES, KIND_TITLES, PLATFORM_SHORT
from ..verdicts.engine import PLATFORMS, STANDINGS, platform_standing
from .facets import Spec, capitalised, facets

SECTIONS = ("products", "avoid", "expected")
KINDS = capitalised(KIND_TITLES)
# An enclosure that takes either M.2 drive is offered to people with either drive.
DRIVE_VALUES = {"nvme-sata": ["nvme", "m2-sata"]}
DRIVES = dict({v: t for v, t in DRIVE_INTERFACE_TITLES.items() if v not in DRIVE_VALUES}, **{"not-stated": "Not stated"})
# The boot verdict on this Pi, in the words of its badge, coarse enough for a buyer's question: does it boot?
BOOTS = {"yes": "Boots", "likely": "Likely boots (unverified reports)", "workaround": "Boots with a workaround",
         "no": "Does not boot, or only sometimes", "disputed": "Boot reports disagree",
         "fixed": "A boot failure, fixed since", "untested": "No boot report"}


def boots(boot: Mapping[str, Any] | None) -> str:
    """The BOOTS choice a row's boot verdict falls under (no verdict: an untested or expected product)."""
    boot = boot or {}
    verdict = boot.get("verdict", "untested")
    if verdict == "works":
        return "yes" if boot["confidence"] == "confirmed" else "likely"
    return {"works-with-workaround": "workaround", "fails": "no", "intermittent": "no", "mixed": "disputed",
            "fixed": "fixed"}.get(verdict, "untested")


def row_facets(row: Mapping[str, Any], adapter: Mapping[str, Any], pi: bool) -> dict[str, list[str]]:
    drive = adapter.get("drive_interface") or "not-stated"
    values = {"kind": [adapter["kind"]], "drive": DRIVE_VALUES.get(drive, [drive])}
    if pi:
        values["boots"] = [boots(row.get("boot"))]
    return values


def specs(buy: Mapping[str, Any]) -> list[Spec]:
    offered: list[Spec] = [("kind", "Kind", KINDS), ("drive", "Drive", DRIVES)]
    if buy["pi"]:
        offered.append(("boots", f"Boots {buy['short']}", BOOTS))
    return offered


def model(buy: Mapping[str, Any], catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    sections = {name: [dict(row, facets=row_facets(row, adapters[row["id"]], buy["pi"])) for row in buy[name]]
                for name in SECTIONS}
    others = [{"slug": o["slug"], "short": o["short"]} for name in catalog["buy_order"]
              for o in [catalog["buy"][name]] if o["slug"] != buy["slug"]]
    rows = [row["facets"] for name in SECTIONS for row in sections[name]]
    return dict(buy, **sections, others=others, facets=facets(rows, specs(buy)))


# What to buy: one page per platform, ranking products a buyer can order by the strength of their evidence.
# Which platforms have one, in what order, with what slug and title: the schema's `buy` and platform focus.
BUY_PLATFORMS = {name: page["title"] for name, page in BUY_PAGES.items()}
BUY_SLUGS = {name: page["slug"] for name, page in BUY_PAGES.items()}  # /buy/<slug>/
_STRENGTH_ORDER = {"observed": 0, "stated": 1, "hearsay": 2, None: 3}
_CONFIDENCE_ORDER = {"confirmed": 0, "likely": 1, "disputed": 2, "none": 3}


def _lite(pv: dict[str, Any] | None) -> dict[str, Any] | None:
    """The parts of a platform verdict a ranking shows (badge, tone, grade, basis)."""
    if not pv:
        return None
    return {k: pv[k] for k in ("verdict", "short", "tone", "icon", "rank", "confidence", "strength", "grade",
                               "recommended", "pending", "basis_text", "about")}


def best_read(adapter: dict[str, Any], hosts: Sequence[str]) -> dict[str, Any] | None:
    """The fastest sequential read any report measured on these hosts, with what produced it."""
    bars = [b for panel in adapter.get("throughput_chart", []) if panel["kind"] == "sequential" and panel["unit"] == "MB/s"
            for b in panel["bars"] if b["op"] == "read" and b.get("host") in hosts]
    if not bars:
        return None
    bar = max(bars, key=lambda b: b["value"])
    return {"value": bar["value"], "unit": "MB/s", "host_label": bar["host_label"], "driver_label": bar["driver_label"],
            "drive_label": bar["drive_label"], "report": bar["report"]}


_EXPECT_ORDER = {"works": 0, "no-uas": 1, "needs-quirk": 2}
# How many untested products a what-to-buy page shows with their expectation (the best first; the count says all).
EXPECTED_SHOWN = 100
# Which part of a what-to-buy page a product goes in: the engine's platform_standing, which the lists are rolled up
# from too, so a page and a list never place a product differently. The order of the page's sections.
BUY_GROUPS = STANDINGS
_NVME = ("nvme", "nvme-sata")


def buy_group(uas: Any, boot: Any | None) -> str:
    """The section of a what-to-buy page (BUY_GROUPS): the engine's platform_standing, nothing decided here."""
    return platform_standing(uas, boot)


def has_reports_on(adapter: dict[str, Any], name: str) -> bool:
    """A report from this platform says something: a UAS or boot verdict, or reports that reach none (`about`)."""
    uas = adapter["verdict"]["uas"][name]
    boot = adapter["verdict"]["boot"].get(name)
    return uas["verdict"] != "untested" or bool(uas.get("about")) or bool(boot and (boot["verdict"] != "untested"
                                                                                    or boot.get("about")))


def buy_rankings(adapters: list[dict[str, Any]], verdict_by_id: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per platform, every product with a vendor (something a buyer can look for; the model number when a report
    gives one, else `model` is null and the row says so) that has reports there, UAS or boot, good or bad, in the
    page's sections (BUY_GROUPS, the engine's platform_standing), best first within each: verdict rank, then boot
    on a Pi, confidence, strongest evidence, number of reports, name. Products with no report there are only
    counted, or shown as expected. `counts` says exactly what each number counts."""
    result = {}
    for name, title in BUY_PLATFORMS.items():
        spec = PLATFORMS[name]
        orderable = [a for a in adapters if a.get("vendor")]

        def has_verdict(a: dict[str, Any], name: str = name) -> bool:
            return has_reports_on(a, name)
        listed = [a for a in orderable if has_verdict(a)]

        def key(a: dict[str, Any], name: str = name) -> tuple[Any, ...]:
            uas = a["verdict"]["uas"][name]
            boot = a["verdict"]["boot"].get(name)
            return (uas["rank"], boot["rank"] if boot else 0, _CONFIDENCE_ORDER[uas["confidence"]],
                    _STRENGTH_ORDER[uas["strength"]], -uas["basis"]["reports"], a["name"].casefold())
        groups: dict[str, list[dict[str, Any]]] = {g: [] for g in BUY_GROUPS}
        for a in sorted(listed, key=key):
            verdict = verdict_by_id[a["id"]]
            boot = verdict.boot.get(name)
            group = buy_group(verdict.uas[name], boot)
            groups[group].append({
                "id": a["id"], "name": a["name"], "vendor": a["vendor_label"], "model": a.get("model"),
                "drive_label": a["drive_label"], "chipset_name": a.get("chipset_name"), "group": group,
                "recommended": group == "recommended", "asin": (a.get("product_codes") or {}).get("asin", []),
                "no_model": not a.get("model"),
                "uas": _lite(a["verdict"]["uas"][name]), "boot": _lite(a["verdict"]["boot"].get(name)),
                "best_read": best_read(a, spec["hosts"]), "answer": {k: a["answers"][name][k] for k in ("do", "text", "line")},
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
                # Beside it, the boot expectation on this Pi where there is one (never a verdict; weak unless the
                # evaluation lets it be more: booting rests on the bootloader, the drive and power).
                boot_e = (a.get("expected") or {}).get("boot", {}).get(name)
                expected.append({"id": a["id"], "name": a["name"], "vendor": a["vendor_label"], "model": a.get("model"),
                                 "drive_label": a["drive_label"], "expected": e,
                                 "boot_expected": boot_e if boot_e and boot_e["state"] != "none" else None})
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
                                   "disagree": len(groups["disagree"]),
                                   "other": len(groups["other"]), "avoid": len(groups["avoid"]),
                                   "no_model": sum(1 for g in BUY_GROUPS for p in groups[g] if p["no_model"]),
                                   "untested_orderable": len(orderable) - len(listed),
                                   "nvme_boots": len(nvme_boots), "expected": expected_total},
                        "untested_orderable": len(orderable) - len(listed)}
    return result
