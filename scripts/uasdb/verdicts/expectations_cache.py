"""The export's expectations step, worked out with the memo an earlier export kept in the content cache
(records/cache.py).

Why: expectations and their leave-one-out evaluation are the largest whole-tree step of the export (about half of
it at 1,000 products), and they depend on nothing but the catalog so far, the records, the distributions, the
chipsets and the code (the reference tables they read are in the cache's code version). The memo (expectations_memo.py,
one entry per code version, pickled, read back by an unpickler that makes none but the memo's own classes) keeps
each product's part under the digest of what it read: only the products whose neighbourhood changed are worked out
again, and nothing is, when no record changed. (The step's whole result was once kept too, under a digest of the
whole catalog: hashing the catalog cost more than the memo saves it, at 10,000 products.) A missing or damaged memo
costs the step's time, never a different answer (tests/test_cache.py compares the exports byte for byte).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..records import cache as content_cache
from . import expectations
from .expectations_memo import Memo


def with_expectations(site: Mapping[str, Any], records: list[dict[str, Any]], verdict_by_id: dict[str, Any],
                      distributions: list[dict[str, Any]], chipsets: list[dict[str, Any]],
                      kept: bool = True, memo: Memo | None = None) -> dict[str, Any]:
    """expectations.with_expectations, working out again only what changed since an earlier export. The watcher
    passes its `memo` (expectations_memo.py), kept in memory; otherwise (`kept`, with the content cache on) the memo
    of an earlier export is read from the cache and kept there again when this export worked out enough of it anew
    (`worth_keeping`). Without either, the step runs whole."""
    if memo is not None:
        return memo.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    store = content_cache.store() if kept else None
    if store is None:
        return expectations.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    memo_key = store.key("expectations-memo")
    kept_memo = store.open_stream(memo_key)
    memo = None
    if kept_memo is not None:
        with kept_memo:
            memo = Memo.load(kept_memo)
    fresh = memo is None
    memo = memo or Memo()
    result = memo.with_expectations(site, records, verdict_by_id, distributions, chipsets)
    if fresh or worth_keeping(memo):
        store.put_stream(memo_key, memo.dump)
    return result


# How many products an export may work out or decide again from a kept memo before the memo is kept anew.
KEEP_AFTER = 64


def worth_keeping(memo: Memo) -> bool:
    """Whether the memo, after an export read it from the cache and used it, is worth writing back: when this export
    worked out or decided again more than KEEP_AFTER products. Writing it costs more than a few products' parts (it
    holds every product's: seconds at 10,000 products), and a memo read back is only ever a head start (each part is
    kept under the digest of what it read): the next export finds the few parts an edit touched out of date and
    works them out again, until there are enough of them to keep the memo anew."""
    return len(memo.worked_out) + len(memo.decided_again) > KEEP_AFTER
