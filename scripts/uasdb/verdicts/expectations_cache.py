"""The export's expectations step, kept in the content cache (records/cache.py) under the digest of its inputs.

Why: expectations and their leave-one-out evaluation are the largest whole-tree step of the export (about half of
it at 1,000 products), and they depend on nothing but the catalog so far, the records, the distributions, the
chipsets and the code (the reference tables they read are in the cache's code version). An export whose records
did not change since an earlier one reads the step's result back instead. Any change of an input is a new key: a
miss costs the step's time, never a different answer (tests/test_cache.py compares the exports byte for byte).
On a miss (an edit), the step is worked out by the memo the last export kept (expectations_memo.py, one entry per
code version, pickled, read back by an unpickler that makes none but the memo's own classes): only the products
whose neighbourhood the edit touched are worked out again.
"""
from __future__ import annotations

import hashlib
import marshal
from collections.abc import Mapping
from typing import Any

from ..records import cache as content_cache
from . import expectations
from .expectations_memo import Memo


def with_expectations(site: Mapping[str, Any], records: list[dict[str, Any]], verdict_by_id: dict[str, Any],
                      distributions: list[dict[str, Any]], chipsets: list[dict[str, Any]],
                      kept: bool = True, memo: Memo | None = None) -> dict[str, Any]:
    """expectations.with_expectations, or the same result from the cache. The verdicts are worked out from the
    records alone, so the records stand for them in the key. `kept=False` skips the cache: the watcher exports
    after an edit, when the inputs are new, and keying them (encoding the catalog) would only add to the wait;
    it passes its `memo` instead (expectations_memo.py), which works out again only the parts an edit touched."""
    if memo is not None:
        return memo.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    store = content_cache.store() if kept else None
    key = _key(store, site, records, distributions, chipsets) if store else None
    known = from_entry(site, store.get(key)) if store and key else None
    if known is not None:
        return known
    if store is None:
        return expectations.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    # A miss: the memo of the last export (one entry per code version) works out again only the parts whose
    # neighbourhood changed since; then it is kept for the next.
    memo_key = store.key("expectations-memo")
    kept_memo = store.open_stream(memo_key)
    memo = None
    if kept_memo is not None:
        with kept_memo:
            memo = Memo.load(kept_memo)
    memo = memo or Memo()
    result = memo.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    store.put_stream(memo_key, memo.dump)
    del memo
    if key:
        store.put(key, ({a["id"]: a["expected"] for a in result["adapters"]},
                        {usb_id: slot["expected"] for usb_id, slot in result["usb"].items()},
                        result["expectation_evaluation"]))
    return result


def _key(store: content_cache.Store, site: Mapping[str, Any], records: list[dict[str, Any]],
         distributions: list[dict[str, Any]], chipsets: list[dict[str, Any]]) -> str | None:
    """The inputs' key, or None when one of them is not plain data (then the step is not kept: a value whose text
    could hide a difference must never make two inputs look the same). Hashed one product, USB ID or record at a
    time, each with its length: the whole catalog as one text was 180 MB at 10,000 products, and encoding it
    raised the export's peak by 700 MB."""
    digest = hashlib.sha256()
    try:
        for part in (site["adapters"], site["usb"], records, distributions, chipsets):
            digest.update(b"\0part")
            for item in (part.items() if isinstance(part, Mapping) else part):
                # marshal's version 2 (no back-references): the bytes follow the value alone, tell 1 from 1.0 and a
                # list from a tuple, keep keys' order, refuse what is not plain data; several times quicker than JSON.
                data = marshal.dumps(item, 2)
                digest.update(len(data).to_bytes(8, "big"))
                digest.update(data)
    except (TypeError, ValueError):
        return None
    return store.key("expectations", digest.hexdigest())


def from_entry(site: Mapping[str, Any], entry: Any) -> dict[str, Any] | None:
    """The catalog with the kept expectations put where with_expectations puts them, or None (a miss) when the
    entry is not one or does not fit this catalog."""
    try:
        by_adapter, by_usb_id, evaluation = entry
        adapters = [dict(adapter, expected=by_adapter[adapter["id"]]) for adapter in site["adapters"]]
        usb = {usb_id: dict(slot, expected=by_usb_id[usb_id]) for usb_id, slot in site["usb"].items()}
    except (TypeError, ValueError, KeyError):
        return None
    if len(by_adapter) != len(adapters) or len(by_usb_id) != len(usb) or not isinstance(evaluation, dict):
        return None
    return dict(site, adapters=adapters, usb=usb, expectation_evaluation=evaluation)
