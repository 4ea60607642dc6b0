"""The naughty, nice, pending and disagree lists' model (/api/v1/lists.json): the lists as the catalog has them, plus
`entries`, each listed product with what its entry shows (a disagree entry: both sides of each Pi disagreement and
what may explain it), and `kernel_only`, the IDs Linux treats specially that no record reports."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..records.vocabulary import LIST_PLATFORMS, PLATFORM_SHORT
from ..verdicts.answer import naughty_combined_line, naughty_quirk_entries
from ..verdicts.engine import QUIRKS_PARAM_MAX_CHARS, quirk_line_fits, quirk_value_length
from .facets import badge_titles, facets, slug
from .rows import badge

# Home Assistant OS patches its Raspberry Pi kernels to take 255 characters (`static char quirks[256]`).
PATCHED_QUIRKS_LIMIT = {"chars": 255, "who": "Home Assistant OS (Raspberry Pi images)",
                        "url": "https://github.com/home-assistant/operating-system/pull/3311"}
LISTS = ("naughty", "nice", "pending", "disagree")


def list_catalog(adapters: Sequence[Mapping[str, Any]], verdict_by_id: Mapping[str, Any],
                 usb: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The lists as the catalog holds them: each list's product ids (the engine's `list`), and the naughty
    products' quirk entries with the combined line, which IDs it leaves out and the limit it must fit."""
    members = {name: [a for a in adapters if a["verdict"]["list"] == name] for name in LISTS}
    naughty_entries = naughty_quirk_entries(members["naughty"], verdict_by_id, usb)
    return {
        **{name: [a["id"] for a in members[name]] for name in LISTS},
        "naughty_quirk_line": naughty_combined_line(naughty_entries),
        "naughty_quirk_entries": naughty_entries,
        "naughty_excluded_ids": [e["usb_id"] for e in naughty_entries if e["shared_with_working"]],
        # Entries only another platform's reports needed: named in the table, never in the Pi line.
        "naughty_elsewhere_ids": [e["usb_id"] for e in naughty_entries if not e["pi"]],
        "quirks_param_max_chars": QUIRKS_PARAM_MAX_CHARS,
        "quirks_param_patched": PATCHED_QUIRKS_LIMIT,
    }

# The badges an entry shows and the lists' filters, one per badge: UAS then boot on each platform whose verdicts
# decide the lists (the schema's `lists`), keyed `<platform>` and `<platform>_boot`.
BADGES = [(name, "uas", name, f"{PLATFORM_SHORT[name]} UAS") for name in LIST_PLATFORMS] + \
         [(f"{name}_boot", "boot", name, f"{PLATFORM_SHORT[name]} boot") for name in LIST_PLATFORMS]
FILTERS = {key: label for key, _, _, label in BADGES}


def quirk_line_fit(lists: Mapping[str, Any]) -> dict[str, Any]:
    """How long the naughty page's combined line is and whether it fits the kernel's limit. The page shows the
    built-in-preserving line when there is one: the length judged is that one's."""
    shown = lists.get("naughty_quirk_line_preserving_builtin") or lists["naughty_quirk_line"]
    return {"naughty_quirk_line_length": quirk_value_length(shown), "naughty_quirk_line_fits": quirk_line_fits(shown)}


def entry(adapter: Mapping[str, Any]) -> dict[str, Any]:
    """One product on a list: its Pi verdict badges, why it is listed, what to do on each Pi (its answers), and
    the reports behind it."""
    verdict = adapter["verdict"]
    counted = sorted({n for q in ("uas", "boot") for p in LIST_PLATFORMS for n in verdict[q][p]["counted"]})
    badges = {key: badge(verdict[question][platform]) for key, question, platform, _ in BADGES}
    return {
        "id": adapter["id"], "name": adapter["name"], "badges": badges,
        # The badges in the order the entry shows them, each with its label ("Pi 4 UAS", "Pi 5 boot").
        "badge_rows": [{"label": label, "badge": badges[key], "basis": question == "uas"}
                       for key, question, _, label in BADGES],
        # The list's filters match the badges' words (FILTERS).
        "facets": {key: [slug(b["short"])] for key, b in badges.items() if b},
        "usb_ids": [f"{u['vid']}:{u['pid']}" for u in adapter.get("usb_ids", [])],
        "reasons": verdict["reasons"],
        # What to do on each Pi: the product's answers (verdicts/answer.py), a line only where a Pi report needed it.
        "answers": [{k: adapter["answers"][p][k] for k in ("platform", "label", "do", "text", "line")}
                    for p in LIST_PLATFORMS],
        "evidence": [{"report": n + 1, "url": adapter["reports"][n]["source"].get("url")} for n in counted],
        # Where the Pi reports disagree: both sides, with their reports, and what may explain it (the engine's).
        "disagreements": [d for d in verdict.get("disagreements", []) if d["platform"] in LIST_PLATFORMS],
    }


def model(catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    lists = catalog["lists"]
    kernel_only = []
    for key in lists.get("kernel_only", []):
        slot = catalog["usb"][key]
        first = (slot.get("kernel") or [{}])[0]
        kernel_only.append({"key": key, "vid": slot["vid"], "pid": slot["pid"],
                            "name": " ".join(x for x in (first.get("vendor"), first.get("product")) if x),
                            "groups": slot.get("kernel_groups", [])})
    entries: dict[str, list[dict[str, Any]]] = {name: [entry(adapters[i]) for i in lists[name]]
                                                for name in LISTS}
    names = {e["usb_id"]: [adapters[i]["name"] for i in e["adapters"]] for e in lists.get("naughty_quirk_entries", [])}
    working = {e["usb_id"]: [{"id": i, "name": adapters[i]["name"]} for i in e["shared_with_working"]]
               for e in lists.get("naughty_quirk_entries", [])}
    return dict(lists, entries=entries, kernel_only_rows=kernel_only,
                quirk_entry_rows=[dict(e, adapter_names=names[e["usb_id"]], working=working[e["usb_id"]])
                                  for e in lists.get("naughty_quirk_entries", [])],
                # Each page's filters, here with the entries they count (not in pages.json, which every page
                # depends on: a verdict that moves one product changes these counts).
                filters={"naughty": filters(entries["naughty"] + entries["disagree"]),
                         "nice": filters(entries["nice"] + entries["pending"])})


def filters(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The filters a list page offers over its entries (the nice page's include its pending ones)."""
    return facets([e["facets"] for e in entries],
                  [(key, label, badge_titles(e["badges"][key] for e in entries)) for key, label in FILTERS.items()])
