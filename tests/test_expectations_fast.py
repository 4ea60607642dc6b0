"""The expectations step's fast path (scripts/uasdb/verdicts/expectations.py) gives what the plain definition gives.

The fast path shares work between the leave-one-out contexts of `evaluate`: a context reads the products it did not
change from its parent (`_Overlay`), takes its parent's group of a USB ID or a chip unless a product it changed now
says something else there, and counts an untraced item's origins without spelling them out (`source_count`,
`origin_labels`). The plain definition, `Plain` below, makes each context a full copy that asks its parent nothing
and counts origins by `origin_groups` itself. Both are run on the test fixtures and on random trees dense with what
the sharing must get right (products citing one source, shared IDs with bcdDevice ranges, records that may be one
product, distribution entries resting on reports and lists copying lists), and every output must be equal: the
evaluation with every cell's items and origins, the coverage, each product's and each USB ID's expectations.
"""
import copy
import random

import pytest

import uasdb.verdicts.expectations as module
from helpers import IgnoreUasKernel
from uasdb.verdicts.engine import adapter_verdict
from uasdb.verdicts.expectations import Related, coverage, evaluate, expectations, related_from_records

HOSTS = ["pi4", "pi4", "pi5", "pi5", "linux-x86_64", "macos", "pi400", "cm4"]
OUTCOMES = [
    {"uas": "works-with-quirk", "quirks": "u", "driver": "usb-storage"},                   # the need is shown
    {"uas": "works", "driver": "uas", "workload": ["copy"], "link_speed": "5000M"},       # used at 5 Gbit/s
    {"uas": "works", "driver": "uas"},                                                     # bound only
    {"uas": "broken", "driver": "uas", "notes": "Resets under load.",
     "evidence": {"dmesg": "uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"}},
    {"uas": "works", "driver": "uas", "workload": ["copy"], "link_speed": "5000M", "boot": "works"},
    {"uas": "works-with-quirk", "quirks": "u", "driver": "usb-storage", "boot": "fails"},
]


class Plain(Related):
    """The plain definition: each leave-one-out context is a whole copy of the records, verdicts and shipped
    entries with the hidden ones taken out, working out every group and origin itself."""

    def without(self, adapter_id, platform):
        context, hidden, keys = super().without(adapter_id, platform)
        find = self.origins.find
        roots = {find(f"src:{key}") for key in keys}
        context.adapters, context.verdicts = dict(context.adapters), dict(context.verdicts)
        context.shipped = {key: [(d, e) for d, e in pairs if find(module._entry_node(d, e)) not in roots]
                           for key, pairs in self.shipped.items()}
        context._parent, context._changed = None, frozenset()
        return context, hidden, keys


def _plain_counting(monkeypatch):
    monkeypatch.setattr(module, "source_count", lambda items: len(module.origin_groups(items)))
    monkeypatch.setattr(module, "origin_labels",
                        lambda items: sorted(min(group) for group in module.origin_groups(items)))


def outputs(related):
    """Everything the step publishes or prints, as plain data."""
    usb_ids = sorted({(u["vid"], u["pid"]) for a in related.adapters.values() for u in a.get("usb_ids", [])}
                     | {tuple(key.split(":")) for key in related.shipped})
    return {"evaluation": evaluate(related), "coverage": coverage(related),
            "adapters": {pid: expectations(a, related.verdicts[pid], related) for pid, a in related.adapters.items()},
            "usb": {f"{v}:{p}": {pl: related.expect_for_id({"vid": v, "pid": p}, pl).as_dict()
                                 for pl in module.UAS_PLATFORMS} for v, p in usb_ids}}


def both(monkeypatch, make):
    """The outputs of the fast path, and of the plain definition, for the context `make(cls)` builds."""
    fast = outputs(make(Related))
    with monkeypatch.context() as patch:
        _plain_counting(patch)
        plain = outputs(make(Plain))
    return fast, plain


def random_tree(seed: int, products: int = 24):
    rng = random.Random(seed)
    ids = [("152d", "0578"), ("174c", "55aa"), ("0bda", "9210"), ("1111", "0001"), ("2222", "0002"), ("3333", "0003")]
    urls = [f"https://example.org/thread/{n}" for n in range(14)] + ["https://github.com/acme/os/issues/7"]
    chips = [None, "jms578", "asm1153e", "rtl9210b"]
    adapters = []
    for n in range(products):
        record = {"id": f"p{n:02d}", "name": f"P{n}", "vendor": "Acme", "model": f"M{n}", "kind": "enclosure",
                  "drive_interface": rng.choice(["sata", "sata", "nvme", "nvme-sata"]),
                  "usb_ids": [], "reports": []}
        for vid, pid in rng.sample(ids, rng.choice([1, 1, 1, 2])):
            usb_id = {"vid": vid, "pid": pid}
            if rng.random() < 0.2:
                low = rng.randint(0, 3)
                usb_id["bcd_device"] = {"min": f"{low:04d}", "max": f"{low + rng.randint(0, 2):04d}"}
            record["usb_ids"].append(usb_id)
        if chip := rng.choice(chips):
            record["chipset"] = chip
        for _ in range(rng.randint(0, 4)):
            record["reports"].append(dict({"date": f"202{rng.randint(0, 5)}-01-01", "host": rng.choice(HOSTS),
                                           "source": {"url": rng.choice(urls)}}, **copy.deepcopy(rng.choice(OUTCOMES))))
        adapters.append(record)
    for record in adapters:
        if rng.random() < 0.1:
            record["may_be_same_as"] = [rng.choice(adapters)["id"]]
        elif rng.random() < 0.05:
            record["notes"] = f"This may be the same product as {rng.choice(adapters)['id']}."
    entries = [{"vid": v, "pid": p, "flags": "u", "added_in": rng.choice(urls),
                **({"reason": f"as {rng.choice(urls)} says"} if rng.random() < 0.5 else {})} for v, p in ids[:4]]
    distributions = [
        {"id": "someos", "name": "SomeOS", "hosts": ["pi4", "pi5"], "file": "https://example.org/cmdline.txt",
         "homepage": "https://github.com/acme/os", "entries": entries},
        {"id": "copyos", "name": "CopyOS", "hosts": ["pi4"], "file": "https://example.org/copy.txt",
         "notes": "Follows SomeOS's list.", "entries": [dict(e, added_in="https://example.org/copy/1") for e in entries[:3]]}]
    chipsets = [{"id": c, "name": c.upper(), "maker": "JMicron" if c == "jms578" else "Other",
                 "usb_ids": [{"vid": "152d", "pid": "0578"}] if c == "jms578" else []} for c in chips if c]
    return adapters, distributions, chipsets




@pytest.mark.parametrize("seed", range(3))
def test_the_fast_path_equals_the_plain_definition_on_random_trees(monkeypatch, seed):
    adapters, distributions, chipsets = random_tree(seed)

    def make(cls):
        records = copy.deepcopy(adapters)
        return cls(records, {r["id"]: adapter_verdict(r) for r in records}, IgnoreUasKernel("3333:0003"), copy.deepcopy(distributions),
                   None, chipsets)

    fast, plain = both(monkeypatch, make)
    assert fast["evaluation"]["cells"] > 20  # the trees are dense enough to grade
    assert any(c["hidden_sources"] for c in fast["evaluation"]["cells_detail"])
    for part in plain:
        assert fast[part] == plain[part], part


def test_the_fast_path_equals_the_plain_definition_on_the_site_fixtures(monkeypatch, site_tree_records):
    fast, plain = both(monkeypatch, lambda cls: _from_records(cls, site_tree_records))
    assert fast == plain


def _from_records(cls, records):
    related = related_from_records(records)
    if cls is Related:
        return related
    return cls(list(related.adapters.values()), related.verdicts, related.kernel,
               [r.data for r in records if r.kind == "distribution"], {"devices": list(related.linuxhw.values())},
               [r.data for r in records if r.kind == "chipset"])


@pytest.fixture(scope="module")
def site_tree_records():
    from uasdb.paths import REPO_ROOT
    from uasdb.records.database import check
    return check([REPO_ROOT / "tests" / "fixtures" / "site-data"]).records


def test_an_untraced_item_counts_and_labels_as_origin_groups_spells_it():
    chip = module.Item(3, "works", "same-chip", "12 products…", {"chipset": "jms578", "count": 12})
    same_id = module.Item(2, "works", "same-id", "2 products…", {"count": 2},
                          origins=[frozenset({"product:a", "src:x"}), frozenset({"src:x"}), frozenset({"product:b"})])
    lone = module.Item(4, "works", "linuxhw", "seen bound", {})
    for items in ([chip], [same_id], [lone], [chip, same_id, lone], [same_id, chip, chip], []):
        groups = module.origin_groups(items)
        assert module.source_count(items) == len(groups)
        assert module.origin_labels(items) == sorted(min(g) for g in groups)
