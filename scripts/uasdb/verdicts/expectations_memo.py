"""The expectations step after an edit: each product's part worked out again only when something it reads changed.

expectations.with_expectations works out, for every product, its expectations (before the evaluation's policy) and
its cells of the leave-one-out evaluation, then the evaluation from all the cells, the policy from the evaluation,
and what is published from the policy. A product's part reads only its neighbourhood (`Memo.fingerprint`): its own
record and page entry, the records that may be the same product, every record sharing one of its USB IDs, every
record citing a source its reports cite (the leave-one-out hides those), and its chip's groups (what each product on
the chip says on each platform); besides, for everyone, the distributions, the chipsets, which records are one
product and the code with its reference tables. A `Memo` keeps each part under the digest of that neighbourhood,
so an edit works out again only the parts whose neighbourhood it touched: the edited product and the products
sharing its IDs or sources. When the edit changes what the product says on a platform, the products on its chip
(thousands, on a common chip) see only their chip's items change: each part keeps its evidence but the chip's
(`Related.other_items`) apart, under the digest of all but the chip, and those products are decided again from it
with their chip's new items (`decided_again`). The evaluation, the policy and coverage are then summed from the
parts (cheap), and the published expectations are kept per policy, which an edit seldom changes.

The result is the same as expectations.with_expectations on the same inputs, byte for byte
(tests/test_expectations_memo.py edits random trees every way an edit can go and compares with a fresh run, also
with the memo written and read back between edits). The memo lives as long as the watcher's BuildCache
(publish/adapter.py); an export from the command line keeps it in the content cache between runs
(expectations_cache.py), so `uasdb export` after an edit works out only the parts the edit touched. The parts are
keyed by what they read, the code version included, so a memo read back is only ever a head start.
"""
from __future__ import annotations

import gc
import hashlib
import io
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..records import cache as content_cache
from ..records.reference import ReferenceDataError, load_kernel, load_linuxhw
from .engine import PLATFORMS
from .expectations import (
    BOOT_PLATFORMS,
    UAS_PLATFORMS,
    CellPiece,
    Expectation,
    Item,
    Related,
    _share,
    apply_policy,
    cell_pieces,
    cells_from_pieces,
    decide,
    evaluation_page,
    open_cells,
    publish_policy,
    read_fields,
    source_key,
    summarise,
)


@dataclass
class Part:
    """One product's share of the step: the evidence but its chip's (`Related.other_items`) per open cell, per
    untested cell for coverage (None: as for the open cell) and per graded cell of the evaluation, kept under the
    digest of what it read (`rest`); and what was decided from it with the chip's items, kept under the digest of
    the chip's groups (`chip`); and what was published from that under one policy."""
    rest: str
    pieces: dict[tuple[str, str], list[Item]]
    coverage_pieces: dict[tuple[str, str], list[Item] | None]
    cell_pieces: list[CellPiece]
    chip: str | None = None
    raw: dict[tuple[str, str], Expectation] = field(default_factory=dict)
    coverage_raw: dict[tuple[str, str], Expectation] = field(default_factory=dict)
    cells: list[dict[str, Any]] = field(default_factory=list)
    published: tuple[str, dict[str, dict[str, Any]]] | None = None


# What a memo kept on disk may hold besides plain values (`Memo.load` refuses anything else).
_KEPT_CLASSES = {(cls.__module__, cls.__qualname__) for cls in (Expectation, Item, Part)} | {
    ("builtins", "set"), ("builtins", "frozenset")}
MEMO_FORMAT = 1


class _MemoUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _KEPT_CLASSES:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of an expectations memo")


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class Memo:
    """Each product's and USB ID's part of the expectations step, by the digest of what it read."""

    def __init__(self) -> None:
        self._records: dict[int, tuple[Any, str]] = {}   # id(record) -> (record, digest): each record hashed once
        self._classes: dict[str, tuple[str | None, ...]] = {}  # a record's digest -> what it says, per platform
        self.products: dict[str, Part] = {}
        self.usb: dict[str, tuple[str, dict[str, Expectation], tuple[str, dict[str, Any]] | None]] = {}
        self.worked_out: list[str] = []                    # the products the last run worked out again
        self.decided_again: list[str] = []                 # and those it only decided again (their chip's changed)
        self.evaluation: dict[str, Any] | None = None      # the last run's evaluation, cells included

    def dump(self, into: Any) -> None:
        """What the memo knows, written into a file, for the content cache (expectations_cache.py keeps it between
        exports): everything but the records' digests by object, which hold only in this process."""
        pickle.dump((MEMO_FORMAT, self.products, self.usb, self._classes, self.evaluation), into,
                    pickle.HIGHEST_PROTOCOL)

    def dumps(self) -> bytes:
        into = io.BytesIO()
        self.dump(into)
        return into.getvalue()

    @classmethod
    def load(cls, source: Any) -> Memo | None:
        """The memo `dumps` wrote into this file, or None (a miss) for anything else: a class outside the memo's
        own is refused before it is made, and a value of the wrong shape is dropped. The parts are keyed by the
        digests of what they read, so a kept memo is only ever a head start. Read with the cycle collector paused:
        made among the export's millions of objects, the memo's objects cost several times as much in collections
        as in reading."""
        paused = gc.isenabled()
        gc.disable()
        try:
            fmt, products, usb, classes, evaluation = _MemoUnpickler(source).load()
        except Exception:  # noqa: BLE001 - whatever is wrong with a kept memo, it is a miss
            return None
        finally:
            if paused:
                gc.enable()
        if fmt != MEMO_FORMAT or not (isinstance(products, dict) and isinstance(usb, dict) and isinstance(classes, dict)
                                      and all(isinstance(p, Part) for p in products.values())):
            return None
        memo = cls()
        memo.products, memo.usb, memo._classes = products, usb, classes
        memo.evaluation = evaluation if isinstance(evaluation, dict) else None
        return memo

    def record_digest(self, record: Mapping[str, Any]) -> str:
        known = self._records.get(id(record))
        if known is None or known[0] is not record:
            known = self._records[id(record)] = (record, _digest(repr(record)))
        return known[1]

    def with_expectations(self, site: Mapping[str, Any], records: list[dict[str, Any]],
                          verdict_by_id: dict[str, Any], distributions: list[dict[str, Any]],
                          chipsets: list[dict[str, Any]]) -> dict[str, Any]:
        """expectations.with_expectations, working out again only the parts an edit touched."""
        try:
            kernel, linuxhw = load_kernel(), load_linuxhw()
        except ReferenceDataError:
            kernel, linuxhw = None, None
        related = Related(records, verdict_by_id, kernel, distributions, linuxhw, chipsets)
        kept = {}
        for record in records:  # the digests of the records still there, each worked out once
            known = self._records.get(id(record))
            kept[id(record)] = known if known is not None and known[0] is record else (record, _digest(repr(record)))
        self._records = kept
        self._classes = {digest: self._classes[digest] for _, digest in kept.values() if digest in self._classes}
        find = related.origins.find
        one_product = sorted((pid, root) for pid in related.adapters if (root := find(f"product:{pid}")) != f"product:{pid}")
        common = _digest(repr((content_cache.code_version(), kernel is None, linuxhw is None, distributions, chipsets,
                               one_product)))
        chips: dict[str, str] = {}
        products: dict[str, Part] = {}
        self.worked_out, self.decided_again = [], []
        for adapter in site["adapters"]:
            pid = adapter["id"]
            rest, chip = self.fingerprint(related, common, chips, adapter)
            part = self.products.get(pid)
            if part is None or part.rest != rest:
                part = self._part(related, adapter, verdict_by_id[pid], rest, chip)
                self.worked_out.append(pid)
            elif part.chip != chip:  # only its chip's groups changed: decided again from the kept pieces
                part = replace(part, chip=chip, published=None)
                self._decide(related, adapter, part)
                self.decided_again.append(pid)
            products[pid] = part
        self.products = products
        evaluation = summarise([cell for pid in sorted(related.adapters) for cell in products[pid].cells])
        policy = publish_policy(evaluation)
        related.use_policy(policy)  # what asks the context for its policy gets this one, not a second evaluation
        self.evaluation = evaluation
        policy_key = repr((sorted(policy["strong"].items()), sorted(policy["kinds"])))
        adapters = [dict(adapter, expected=self._published(products[adapter["id"]], policy, policy_key))
                    for adapter in site["adapters"]]
        usb = {key: dict(slot, expected=self._usb(related, common, key, slot, policy, policy_key))
               for key, slot in site["usb"].items()}
        self.usb = {key: self.usb[key] for key in site["usb"]}
        coverage = self._coverage(related, products, policy)
        return dict(site, adapters=adapters, usb=usb, expectation_evaluation=evaluation_page(evaluation, coverage))

    def fingerprint(self, related: Related, common: str, chips: dict[str, str], adapter: Mapping[str, Any]
                    ) -> tuple[str, str | None]:
        """The digests of everything a product's part reads (the module's docstring says what and why): all but
        its chip's groups, and those."""
        pid = adapter["id"]
        record = related.adapters[pid]
        digest = self.record_digest
        twins = related.same_product[related.origins.find(f"product:{pid}")]
        ids = sorted({f"{u['vid']}:{u['pid']}" for u in [*record.get("usb_ids", []), *adapter.get("usb_ids", [])]})
        sources = sorted({key for twin in twins for r in related.adapters[twin].get("reports", [])
                          if (key := _source(r))})
        chip = record.get("chipset")
        if chip and chip not in chips:
            chips[chip] = self._chip(related, chip)
        return _digest(repr((
            common, digest(record), repr(read_fields(adapter)),
            [(twin, digest(related.adapters[twin])) for twin in twins],
            [(key, [(m, digest(related.adapters[m])) for m, _ in related.by_id.get(key, [])]) for key in ids],
            [(key, sorted((m, digest(related.adapters[m])) for m in related.citing.get(key, ()))) for key in sources],
            chip))), chips[chip] if chip else None

    def _chip(self, related: Related, chip: str) -> str:
        """The digest of a chip's groups (which of its products say what, on every platform and question): its
        products that say anything anywhere, in order, with what they say (kept per record: the group of a chip
        can hold thousands)."""
        said = []
        for member in related.by_chip.get(chip, []):
            digest = self.record_digest(related.adapters[member])
            classes = self._classes.get(digest)
            if classes is None:
                classes = self._classes[digest] = tuple(related._class(member, platform, question)
                                                        for question in ("uas", "boot") for platform in PLATFORMS)
            if any(classes):
                said.append((member, classes))
        return _digest(repr(said))

    def _part(self, related: Related, adapter: Mapping[str, Any], verdict: Any, rest: str, chip: str | None) -> Part:
        """A product's part worked out: the pieces, then what is decided from them."""
        pid = adapter["id"]
        record = related.adapters[pid]
        pieces = {cell: related.other_items(adapter, verdict, *cell) for cell in open_cells(verdict)}
        same = read_fields(record) == read_fields(adapter)  # then the record's pieces are the entry's
        coverage_pieces: dict[tuple[str, str], list[Item] | None] = {}
        for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
            for platform in platforms:
                if (verdict.uas if question == "uas" else verdict.boot)[platform].verdict == "untested":
                    cell = (platform, question)
                    coverage_pieces[cell] = None if same and cell in pieces else related.other_items(
                        record, verdict, platform, question)
        contexts: dict[str, tuple[Related, Mapping[str, Any]]] = {}
        part = Part(rest, pieces, coverage_pieces, cell_pieces(related, pid, contexts), chip)
        self._decide(related, adapter, part, contexts)
        return part

    @staticmethod
    def _decide(related: Related, adapter: Mapping[str, Any], part: Part,
                contexts: dict[str, tuple[Related, Mapping[str, Any]]] | None = None) -> None:
        """What a part's pieces and its chip's items decide (Related.raw_expect, product_cells)."""
        record = related.adapters[adapter["id"]]
        part.raw = {cell: decide(*cell, others + related.chip_items(adapter, *cell)) for cell, others in part.pieces.items()}
        part.coverage_raw = {cell: part.raw[cell] if others is None else decide(*cell, others + related.chip_items(record, *cell))
                             for cell, others in part.coverage_pieces.items()}
        part.cells = cells_from_pieces(related, adapter["id"], part.cell_pieces, contexts)

    @staticmethod
    def _published(part: Part, policy: Mapping[str, Any], policy_key: str) -> dict[str, dict[str, Any]]:
        """expectations.expectations of the product, from its part (kept while the policy stays the same)."""
        if part.published is None or part.published[0] != policy_key:
            out: dict[str, dict[str, Any]] = {"uas": {}, "boot": {}}
            for (platform, question), raw in part.raw.items():
                out[question][platform] = apply_policy(raw, policy).as_dict()
            part.published = (policy_key, out)
        # Made from the part's evidence (the digests of what it read, and of its chip's groups) under this policy.
        content_cache.note_made_from(part.published[1], f"expected:{part.rest}:{part.chip}:{policy_key}")
        return part.published[1]

    def _usb(self, related: Related, common: str, key: str, slot: Mapping[str, Any], policy: Mapping[str, Any],
             policy_key: str) -> dict[str, Any]:
        """An ID's expectations (Related.expect_for_id) on the platforms its slot has no verdict for."""
        platforms = [p for p in UAS_PLATFORMS
                     if ((slot.get("verdict") or {}).get(p) or {}).get("verdict", "untested") == "untested"]
        fingerprint = _digest(repr((common, slot.get("vid"), slot.get("pid"), platforms,
                                    [(m, self.record_digest(related.adapters[m]))
                                     for m, _ in related.by_id.get(f"{slot['vid']}:{slot['pid']}", [])])))
        known = self.usb.get(key)
        if known is None or known[0] != fingerprint:
            known = (fingerprint, {p: related.raw_expect_for_id(slot, p) for p in platforms}, None)
        published = known[2]
        if published is None or published[0] != policy_key:
            published = (policy_key, {p: apply_policy(raw, policy).as_dict() for p, raw in known[1].items()})
        self.usb[key] = (known[0], known[1], published)
        return published[1]

    @staticmethod
    def _coverage(related: Related, products: Mapping[str, Part], policy: Mapping[str, Any]) -> dict[str, Any]:
        """expectations.coverage, from the parts."""
        result = {}
        for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
            for platform in platforms:
                counts = {"products": 0, "verdict": 0, "expected": 0, "disagree": 0, "hints": 0, "none": 0}
                for adapter_id in related.adapters:
                    counts["products"] += 1
                    raw = products[adapter_id].coverage_raw.get((platform, question))
                    if raw is None:
                        counts["verdict"] += 1
                        continue
                    counts[apply_policy(raw, policy).state] += 1
                answered = counts["verdict"] + counts["expected"] + counts["disagree"]
                result[f"{question}:{platform}"] = dict(counts, share=_share(answered, counts["products"]))
        return result


def _source(report: Mapping[str, Any]) -> str | None:
    url = (report.get("source") or {}).get("url")
    return source_key(url) if url else None
