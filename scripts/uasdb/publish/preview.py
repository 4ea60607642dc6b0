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

import bisect
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..paths import REPO_ROOT
from ..records.database import LoadCache, Record, check_record, display_path, relative_to, tree_findings
from ..records.loader import Loaded
from ..records.problems import ERROR
from ..records.reference import load_kernel
from ..records.rules import checking_rules
from ..records.rules.identity import UNIQUE_PRODUCT_CODES
from ..records.rules.waivers import WAIVERS_FILE, apply_waivers
from ..verdicts.answer import with_answers
from .adapter import BuildCache, adapter_entry, add_labels
from .distributions import adapter_distributions
from .files import with_pages
from .labels import vendor_display_names
from .usb import usb_key, usb_spellings


def product_preview(path: Path, previous: Mapping[str, Any], trees: Sequence[Path], load_cache: LoadCache,
                    build_cache: BuildCache, neighbours: Neighbours | None = None) -> dict[str, Any] | None:
    """A catalog holding the edited adapter alone, with its page (files.adapter_files writes its file), or None
    when the edit is not one the first phase takes: an error, another kind of record, a changed id or aliases.
    `neighbours` (made from `previous`) lets the tree's rules run on the records the edit can concern alone."""
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
    if not _tree_clean(record, problems, index, previous["adapters"], trees, load_cache, neighbours):
        return None
    return _catalog(record, old, previous, build_cache)


# What each of the tree's rules compares between adapter records, as `Neighbours` keys them: the records an edit
# can change a finding of are those sharing one of these with the edited record. A tree rule not named here makes
# the first phase run the tree's rules over every adapter (correct, and slower).
KEYED_TREE_RULES = frozenset({"shared-usb-id", "unique-ids", "may-be-same-as-mutual", "product-code-unique"})


def _keys_of(data: Mapping[str, Any]) -> set[tuple[str, str]]:
    """What the keyed tree rules compare of one adapter record: its USB IDs, its id and aliases (names), the ids
    it names as possibly the same product (peers), and its shop codes."""
    keys: set[tuple[str, str]] = set()
    for usb_id in data.get("usb_ids") or []:
        if isinstance(usb_id, Mapping):
            keys.add(("usb", f"{usb_id.get('vid')}:{usb_id.get('pid')}"))
    for name in [data.get("id"), *(data.get("aliases") or [])]:
        if isinstance(name, str):
            keys.add(("name", name))
    peers = data.get("may_be_same_as")
    for peer in peers if isinstance(peers, list) else []:
        if isinstance(peer, str):
            keys.add(("peer", peer))
    codes = data.get("product_codes")
    for kind in UNIQUE_PRODUCT_CODES:
        values = codes.get(kind) if isinstance(codes, Mapping) else None
        for code in values if isinstance(values, list) else []:
            if isinstance(code, str):
                keys.add((kind, code))
    return keys


class Neighbours:
    """Which of a catalog's adapters (by position) hold each key `_keys_of` gives: made once per export, after it,
    so that a save's first phase finds the records its edit concerns without a pass over the tree."""

    def __init__(self, adapters: Sequence[Mapping[str, Any]]) -> None:
        self.holders: dict[tuple[str, str], list[int]] = {}
        for position, adapter in enumerate(adapters):
            for key in _keys_of(adapter):
                self.holders.setdefault(key, []).append(position)

    def of(self, *versions: Mapping[str, Any]) -> set[int]:
        """The adapters that share a key with any of these versions of one record (a peer names a record; a
        name is named as a peer), the record itself among them."""
        found: set[int] = set()
        for data in versions:
            for kind, value in _keys_of(data):
                found.update(self.holders.get((kind, value), ()))
                if kind == "peer":
                    found.update(self.holders.get(("name", value), ()))
                elif kind == "name":
                    found.update(self.holders.get(("peer", value), ()))
        return found


def _index_of(adapters: Sequence[Mapping[str, Any]], adapter_id: Any) -> int | None:
    """Where the catalog's adapters (in id order) hold this id, by bisection."""
    if not isinstance(adapter_id, str):
        return None
    at = bisect.bisect_left(adapters, adapter_id, key=lambda adapter: adapter["id"])
    return at if at < len(adapters) and adapters[at]["id"] == adapter_id else None


def _tree_clean(record: Record, problems: list[Any], index: int, adapters: Sequence[Mapping[str, Any]],
                trees: Sequence[Path], load_cache: LoadCache, neighbours: Neighbours | None) -> bool:
    """Whether the full check finds no error once the edit is in: the tree's rules over the adapters (the last
    catalog's, which carry their records' fields, and the edited record: with `neighbours`, those sharing a key
    with it, before and after the edit), and the waivers. The last export was clean and only this record changed,
    so an error on it, or one on another record that was not there before, is the edit's. A waiver of the edited
    record must still match one of its warnings; one of another record (whose tree-rule warnings the edit may
    change) is taken as matching only when those warnings are the same as before, else the full export decides."""
    assert load_cache.context is not None  # check_record gave a record
    ctx = load_cache.context[0]
    tree_rules = {rule.id for rule in checking_rules() if rule.scope == "tree"}
    if neighbours is not None and tree_rules <= KEYED_TREE_RULES:
        positions = sorted(neighbours.of(adapters[index], record.data) | {index})
    else:
        positions = list(range(len(adapters)))
    light = [Record("adapter", Loaded(adapters[n]["path"], adapters[n])) for n in positions]
    edited_at = positions.index(index)
    before = _keys(tree_findings(light, ctx), light[edited_at])
    light[edited_at] = record
    found = tree_findings(light, ctx)
    after = _keys(found, record)
    if any(problem.severity == ERROR for owner, problem in found if owner is record) or \
            any(key[3] == ERROR for key in after - before):
        return False
    roots = sorted({os.path.abspath(t) for t in trees})
    if not any((Path(root) / WAIVERS_FILE).is_file() for root in roots):
        return True
    if after != before:
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
