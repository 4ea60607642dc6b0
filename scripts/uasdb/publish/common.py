"""What every page shares (data/common.json), which pages to make (data/pages.json) and every product's name
(data/names.json): the small files Hugo keeps in memory. Everything else a page shows is in its own model file (see
publish/__init__.py). A product's name is held once, in names.json: the content adapter titles its page from it and a
page that links another product by id prints the name from it, so renaming a product rewrites its own files and
the few that list every product, not every page that mentions it."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..probe.formlink import LINK_LIMIT
from ..records.vocabulary import HOST_TITLES, PLATFORM_SHORT
from ..verdicts.engine import (
    BOOT_VERDICT_SHORT,
    BOOT_VERDICT_TEXT,
    EVIDENCE_CLASSES,
    ICON,
    PLATFORMS,
    TONE,
    VERDICT_SHORT,
    VERDICT_TEXT,
)
from .adapter import search_filters
from .rows import ROW_COLUMNS

# How the site names each `host` of the schema's enum.
HOST_LABELS = HOST_TITLES  # from the schema, via vocabulary.py: the same titles the issue form offers
# The order the site shows platforms in (the schema's x-uasdb-platforms order): the Pi models people ask about first.
PLATFORM_ORDER = list(PLATFORMS)


def site_constants() -> dict[str, Any]:
    """The catalog's constants: verdict words, tones and icons, the platforms in the site's order, host names
    (common() passes them on to every page)."""
    return {
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
    }


def common(catalog: Mapping[str, Any], generated_at: str) -> dict[str, Any]:
    """Constants of the whole site: words and icons of verdicts (the badge partial's fallback and the JS), the
    platforms in the site's order, host names, the kernel's version and the search filters' values."""
    kernel = catalog.get("kernel") or {}
    filters: dict[str, set] = {"chipset": set(), "interface": set(), "vendor": set(), "pi4_uas": set(), "pi4_boot": set()}
    for adapter in catalog["adapters"]:
        for pair in search_filters(adapter):
            filters[pair["key"]].add(pair["value"])
    return {
        "generated_at": generated_at,
        "report_query": catalog["report_query"],
        # The longest report-form address sent to GitHub (the check page's "Report this adapter", as the probe's).
        "report_link_limit": LINK_LIMIT,
        "platforms": catalog["platforms"],
        "platform_order": catalog["platform_order"],
        "host_labels": catalog["host_labels"],
        "tone_icon": ICON,
        "verdict_tone": TONE,
        "verdict_short": VERDICT_SHORT,
        "boot_verdict_short": BOOT_VERDICT_SHORT,
        "verdict_text": VERDICT_TEXT,
        "boot_verdict_text": BOOT_VERDICT_TEXT,
        "kernel": {k: kernel[k] for k in ("version", "release", "ids") if k in kernel},
        # The only part that follows the records: the values the search box's filters offer on every page (a
        # record's edit changes them only when it brings or takes away a chip, drive, vendor or Pi 4 verdict word).
        # The counts are the home page's (home.json), not every page's.
        "search_filters": {key: sorted(values) for key, values in filters.items()},
        "table_columns": list(ROW_COLUMNS),
    }


def pages(catalog: Mapping[str, Any], filters: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """What site/content/_content.gotmpl makes: for each page its path, title, description, dates and old
    addresses (an adapter's title and description are in names.json and its model), and the address of its model
    file; and `filters`, the filters of the USB ID and chipset lists (publish/facets.py), which _content.gotmpl
    passes in those pages' params: usb.json and chipsets.json are lists, with no place for them. Their counts move
    only when a record adds or drops a USB ID or a chipset; the naughty and nice pages' filters, which a verdict
    moves, are in lists.json."""
    adapters = []
    for a in catalog["adapters"]:
        dates = {}
        if a["changes"].get("changed"):
            dates["lastmod"] = a["changes"]["changed"]
        if a["changes"].get("added"):
            dates["date"] = a["changes"]["added"]
        # No title and no description: the title is the product's name (names.json), the description its model's
        # `summary` (head/meta.html), so an edit of one record's text leaves this file as it is.
        adapters.append({"id": a["id"], "dates": dates, "aliases": [f"/adapters/{old}/" for old in a.get("aliases", [])],
                         "model": f"api/v1/adapters/{a['id']}.json"})
    chipsets = [{"id": c["id"], "title": f"{c['name']} ({c['maker']})",
                 "description": f"{c['maker']} {c['name']} USB storage bridge: UAS behaviour and every adapter that uses it.",
                 "aliases": [f"/chipsets/{old}/" for old in c.get("aliases", [])],
                 "model": f"api/v1/chipsets/{c['id']}.json"} for c in catalog["chipsets"]]
    usb = [{"vid": s["vid"], "pid": s["pid"], "title": f"USB ID {key}",
            "description": f"Everything known about USB ID {key}: what Linux does with it by itself, its names, and the "
                           "adapters and chipsets that report it.",
            "model": f"api/v1/usb/{s['vid']}/{s['pid']}.json"} for key, s in catalog["usb"].items()]
    buy = [{"platform": name, "slug": b["slug"], "title": f"What to buy for {b['title']}",
            "description": f"USB storage adapters and enclosures you can order, ranked by the evidence that UAS works on "
                           f"{b['label']}{' and that it boots' if b['pi'] else ''}.",
            "model": f"api/v1/buy/{b['slug']}.json"} for name, b in catalog["buy"].items()]
    return {"adapters": adapters, "chipsets": chipsets, "usb": usb, "buy": buy, "filters": dict(filters)}


def product_names(catalog: Mapping[str, Any]) -> dict[str, str]:
    """data/names.json: every product's name by id, the one place a page finds another product's name."""
    return {a["id"]: a["name"] for a in catalog["adapters"]}
