"""The expectations step after an edit (scripts/uasdb/verdicts/expectations_memo.py) works out again only what the
edit touched, and gives what a fresh run gives: each product's and each USB ID's expectations, the evaluation (every
cell, with its items and origins) and the coverage, after every kind of edit, one after another on one memo."""
import copy
import io
import pickle
import random

import pytest

import helpers
from test_expectations_fast import random_tree
from uasdb.verdicts import expectations
from uasdb.verdicts.engine import adapter_verdict
from uasdb.verdicts.expectations_memo import Memo


def site_of(records):
    ids = sorted({(u["vid"], u["pid"]) for r in records for u in r.get("usb_ids", [])})
    return {"adapters": [dict(r, page="entry") for r in records],
            "usb": {f"{v}:{p}": {"vid": v, "pid": p, "verdict": {"pi4": {"verdict": "works"}} if v == "1111" else {}}
                    for v, p in ids}}


def run(step, records, distributions, chipsets):
    verdicts = {r["id"]: adapter_verdict(r) for r in records}
    return step(site_of(records), records, verdicts, distributions, chipsets)


def fresh(records, distributions, chipsets, monkeypatch):
    """expectations.with_expectations of the records, and the evaluation it worked out (every cell)."""
    seen = {}
    page = expectations.evaluation_page

    def keep(result, products):
        seen["evaluation"] = result
        return page(result, products)

    with monkeypatch.context() as patch:
        patch.setattr(expectations, "evaluation_page", keep)
        return run(expectations.with_expectations, records, distributions, chipsets), seen["evaluation"]


def _outcome(rng, records):
    record = rng.choice([r for r in records if r["reports"]])
    report = rng.choice(record["reports"])
    report.update({"uas": "broken", "driver": "uas", "notes": "Resets.",
                   "evidence": {"dmesg": "uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"}}
                  if report.get("uas") != "broken" else {"uas": "works", "driver": "uas", "link_speed": "5000M",
                                                          "workload": ["copy"]})
    return record


def _usb_id(rng, records):
    record = rng.choice(records)
    record["usb_ids"] = [{"vid": "174c", "pid": "55aa"} if record["usb_ids"][0]["pid"] != "55aa" else
                         {"vid": "1111", "pid": "0001"}]
    return record


def _chip(rng, records):
    record = rng.choice(records)
    record["chipset"] = "asm1153e" if record.get("chipset") != "asm1153e" else "jms578"
    return record


def _source(rng, records):
    record = rng.choice([r for r in records if r["reports"]])
    rng.choice(record["reports"])["source"] = {"url": "https://example.org/thread/3"}
    return record


def _twin(rng, records):
    record = rng.choice(records)
    record["may_be_same_as"] = [rng.choice(records)["id"]]
    return record


def _name(rng, records):
    record = rng.choice(records)
    record["name"] += " (renamed)"
    return record


EDITS = {"outcome": _outcome, "usb-id": _usb_id, "chip": _chip, "source": _source, "twin": _twin, "name": _name}


def edit_one_after_another(monkeypatch, seed, products, steps, kept=False, decided_again_expected=True):
    """Edits one after another on one memo; `kept`: the memo is written and read back before each step, as the
    export keeps it in the content cache between runs (a new process)."""
    rng = random.Random(seed)
    records, distributions, chipsets = random_tree(seed, products)
    memo = Memo()
    assert (run(memo.with_expectations, records, distributions, chipsets), memo.evaluation) == fresh(
        records, distributions, chipsets, monkeypatch)
    assert len(memo.worked_out) == len(records)
    decided_again = 0
    for n, step in enumerate(steps):
        records = [copy.deepcopy(r) for r in records]  # a new tree: an edited record is a new object, as loaded
        if step == "new":
            added = copy.deepcopy(rng.choice(records))
            added["id"] = f"new-{n}"  # ids are unique (validate refuses a tree with two)
            records.insert(rng.randrange(len(records) + 1), added)
        elif step == "deleted":
            records.remove(rng.choice(records))
        elif step == "distribution":
            distributions = copy.deepcopy(distributions)
            distributions[1]["entries"].pop()
        else:
            EDITS[step](rng, records)
        if kept:
            memo = Memo.load(io.BytesIO(memo.dumps()))
            assert memo is not None
        got = run(memo.with_expectations, records, distributions, chipsets)
        want, evaluation = fresh(records, distributions, chipsets, monkeypatch)
        assert got == want, step
        assert memo.evaluation == evaluation, step
        decided_again += len(memo.decided_again)
    assert decided_again or not decided_again_expected  # some edits changed only other products' chip groups:
    # decided from kept pieces


def test_the_memo_after_every_kind_of_edit_equals_a_fresh_run(monkeypatch):
    edit_one_after_another(monkeypatch, 0, 16, [*EDITS, "new", "deleted", "distribution"])


@pytest.mark.slow  # the fast lane keeps the in-process memo after every kind of edit
def test_a_memo_kept_between_runs_after_every_kind_of_edit_equals_a_fresh_run(monkeypatch):
    edit_one_after_another(monkeypatch, 5, 16, [*EDITS, "new", "deleted", "distribution"], kept=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(helpers.examples(8)))
def test_kept_memos_over_random_runs_of_edits(monkeypatch, seed):
    rng = random.Random(seed)
    steps = [rng.choice([*EDITS, "new", "deleted", "distribution"]) for _ in range(6)]
    edit_one_after_another(monkeypatch, 100 + seed, 20, steps, kept=True, decided_again_expected=False)


def test_a_kept_memo_that_is_not_one_is_refused_before_anything_is_made():
    """What the cache hands back is checked: a class outside the memo's own is never made (an entry's checksum
    proves it intact, not harmless), a damaged or foreign value is a miss, and the export then works it all out."""
    class Foreign:
        made = []

        def __reduce__(self):
            return (Foreign.made.append, ("made",))
    records, distributions, chipsets = random_tree(3, products=6)
    memo = Memo()
    run(memo.with_expectations, records, distributions, chipsets)
    good = memo.dumps()
    assert Memo.load(io.BytesIO(good)) is not None
    for bad in (pickle.dumps((1, {"p": Foreign()}, {}, {}, None)), good[: len(good) // 2], b"", pickle.dumps("memo"),
                pickle.dumps((2, {}, {}, {}, None)), pickle.dumps((1, {"p": "not a part"}, {}, {}, None))):
        assert Memo.load(io.BytesIO(bad)) is None
    assert Foreign.made == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 4))
def test_longer_runs_of_edits_on_larger_trees(monkeypatch, seed):
    edit_one_after_another(monkeypatch, seed, 30, [*EDITS, "new", "deleted", "distribution", *EDITS, "new", "deleted"])


def test_an_edit_works_out_again_only_what_it_touched():
    """An unchanged tree works out nothing again; a name edit only the edited product; an outcome edit the product
    (and its ID's and sources' products, none here) and, when what it says changed, its chip's products are decided
    again from their kept evidence, not worked out."""
    records, distributions, chipsets = random_tree(7, products=40)
    for record in records:  # one ID each, no shared sources: neighbourhoods are small
        record["usb_ids"] = [{"vid": "abcd", "pid": record["id"][1:].zfill(4)}]
        record.pop("may_be_same_as", None)
        record.pop("notes", None)
        for n, report in enumerate(record["reports"]):
            report["source"] = {"url": f"https://example.org/{record['id']}/{n}"}
    memo = Memo()
    run(memo.with_expectations, records, distributions, chipsets)
    run(memo.with_expectations, records, distributions, chipsets)
    assert memo.worked_out == []
    renamed = [dict(r, name=r["name"] + "!") if r["id"] == "p05" else r for r in records]
    run(memo.with_expectations, renamed, distributions, chipsets)
    assert memo.worked_out == ["p05"]
    chipless = next(r for r in records if not r.get("chipset") and r["reports"])
    edited = [copy.deepcopy(r) if r["id"] == chipless["id"] else r for r in renamed]
    _outcome(random.Random(1), [next(r for r in edited if r["id"] == chipless["id"])])
    assert run(memo.with_expectations, edited, distributions, chipsets) == run(
        expectations.with_expectations, edited, distributions, chipsets)
    assert memo.worked_out == [chipless["id"]] and memo.decided_again == []
    on_chip = next(r for r in edited if r.get("chipset") == "jms578" and any(p.get("uas") == "works" for p in r["reports"]))
    again = [copy.deepcopy(r) if r is on_chip else r for r in edited]
    for report in next(r for r in again if r["id"] == on_chip["id"])["reports"]:
        report.update(uas="broken", driver="uas", evidence={"dmesg": "uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"})
    assert run(memo.with_expectations, again, distributions, chipsets) == run(
        expectations.with_expectations, again, distributions, chipsets)
    assert memo.worked_out == [on_chip["id"]]  # the chip's other products are only decided again
    assert set(memo.decided_again) == {r["id"] for r in again if r.get("chipset") == "jms578"} - {on_chip["id"]}
