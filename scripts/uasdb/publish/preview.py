"""The watcher's first phase (watch.py): one edited product's page model worked out from its record and the last
export's catalog, at the cost of that record, not of the tree.

`product_preview(path, previous, trees, load_cache, build_cache)` reads and checks the edited adapter record alone
(records/database.py `check_record`: parse, schema, per-record rules in the last check's context), runs the tree's
rules over the last catalog's adapters with this one in its place (their data is the records' own) and refuses
(None) anything the full check would call an error, or an edit that changes the record's id or aliases. It then
makes the product's catalog entry as the full build does, step by step (adapter.adapter_entry and its labels,
what distributions ship, adapter_kernel, the answers and the page), taking whatever the page reads of other
products (USB IDs' spellings, chipsets, distributions' facts, the vendors' spelling) and the product's
expectations from `previous`: an expectation is labelled as one and never counts, and the full export that follows
brings it up to date. For an edit that moves no verdict the product's file is then the full export's byte for byte.
The per-record work goes through the watcher's LoadCache and BuildCache, so the full export reuses it.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..paths import REPO_ROOT
from ..records.database import LoadCache, Record, check_record, display_path, relative_to, tree_findings
from ..records.loader import Loaded
from ..records.problems import ERROR
from ..records.reference import load_kernel
from ..records.rules.waivers import WAIVERS_FILE, apply_waivers
from ..verdicts.answer import with_answers
from .adapter import BuildCache, adapter_entry, add_labels
from .distributions import adapter_distributions
from .files import with_pages
from .labels import vendor_display_names
from .usb import usb_key, usb_spellings


def product_preview(path: Path, previous: Mapping[str, Any], trees: Sequence[Path], load_cache: LoadCache,
                    build_cache: BuildCache) -> dict[str, Any] | None:
    """A catalog holding the edited adapter alone, with its page (files.adapter_files writes its file), or None
    when the edit is not one the first phase takes: an error, another kind of record, a changed id or aliases."""
    record, problems = check_record(path, load_cache)
    if record is None or record.kind != "adapter" or any(p.severity == ERROR for p in problems):
        return None
    adapter_id = record.data.get("id")
    index = _index_of(previous["adapters"], adapter_id)
    if index is None:
        return None
    old = previous["adapters"][index]
    if old.get("path") != relative_to(record.path, REPO_ROOT) or record.data.get("aliases") != old.get("aliases"):
        return None
    if not _tree_clean(record, problems, index, previous["adapters"], trees, load_cache):
        return None
    return _catalog(record, old, previous, build_cache)


def _index_of(adapters: Sequence[Mapping[str, Any]], adapter_id: Any) -> int | None:
    """Where the catalog's adapters (in id order) hold this id, by bisection."""
    if not isinstance(adapter_id, str):
        return None
    low, high = 0, len(adapters)
    while low < high:
        middle = (low + high) // 2
        if adapters[middle]["id"] < adapter_id:
            low = middle + 1
        else:
            high = middle
    return low if low < len(adapters) and adapters[low]["id"] == adapter_id else None


def _tree_clean(record: Record, problems: list[Any], index: int, adapters: Sequence[Mapping[str, Any]],
                trees: Sequence[Path], load_cache: LoadCache) -> bool:
    """Whether the full check finds no error once the edit is in: the tree's rules over every adapter (the last
    catalog's, which carry their records' fields, and the edited record), and the waivers. The last export was
    clean and only this record changed, so any error is the edit's. A waiver of the edited record must still match
    one of its warnings; one of another record (whose tree-rule warnings the edit may change) is taken as matching
    only when those warnings are the same as before, else the full export decides."""
    assert load_cache.context is not None  # check_record gave a record
    ctx = load_cache.context[0]
    light = [Record("adapter", Loaded(a["path"], a)) for a in adapters]
    before = _keys(tree_findings(light, ctx), light[index])
    light[index] = record
    found = tree_findings(light, ctx)
    if any(problem.severity == ERROR for _, problem in found):
        return False
    roots = sorted({os.path.abspath(t) for t in trees})
    if not any((Path(root) / WAIVERS_FILE).is_file() for root in roots):
        return True
    if _keys(found, record) != before:
        return False
    own = problems + [problem for owner, problem in found if owner is record]
    shown, _ = apply_waivers(roots, own, {os.path.abspath(record.path)}, display_path)
    return not any(problem.severity == ERROR for problem in shown)


def _keys(found: list[tuple[Record, Any]], edited: Record) -> set[tuple[Any, ...]]:
    """The tree's findings on records other than the edited one, as what a waiver matches."""
    return {(owner.data.get("id"), problem.rule, problem.field, problem.severity) for owner, problem in found
            if owner is not edited}


def _catalog(record: Record, old: Mapping[str, Any], previous: Mapping[str, Any], cache: BuildCache) -> dict[str, Any]:
    """The catalog of `build`'s first phase for one adapter: the adapter's entry made as each step of the full
    build makes it, the rest of the catalog the last export's."""
    parts = cache.adapter(record)
    chipsets = {c["id"]: c for c in previous["chipsets"]}
    entry = adapter_entry(record, parts, chipsets, {old["path"]: old.get("changes", {})})
    vendor = entry.get("vendor")
    if vendor == old.get("vendor"):
        labels = {vendor or "": old["vendor_label"]} if vendor else {}
    else:  # the site's spelling of a vendor counts every record's
        labels = vendor_display_names([a.get("vendor") for a in previous["adapters"] if a["id"] != entry["id"]] + [vendor])
    add_labels(entry, labels)
    entry = dict(entry, distributions=adapter_distributions(entry, previous["distribution_ids"]))
    entry = dict(entry, kernel=cache.adapter_kernel(entry, load_kernel()))
    entry = dict(entry, expected=old["expected"])
    # The page reads the USB IDs' spellings; an ID the last export had no page for gets what usb_slots gives it.
    usb = {key: previous["usb"].get(key) or {"spellings": usb_spellings(u["vid"], u["pid"])}
           for u in entry.get("usb_ids", []) for key in [usb_key(u["vid"], u["pid"])]}
    site = with_answers(dict(previous, adapters=[entry], usb=usb), {entry["id"]: parts[1]}, only={entry["id"]})
    return dict(site, adapters=with_pages(site, {entry["id"]}))
