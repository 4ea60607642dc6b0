"""Expectations where nobody has reported (scripts/uasdb/verdicts/expectations.py): what related evidence gives, how the
leave-one-out evaluation hides a product's own reports, and that an expectation never becomes a verdict."""
import copy

import pytest

from helpers import IgnoreUasKernel
from uasdb.publish.buy import buy_rankings
from uasdb.verdicts.answer import with_answers
from uasdb.verdicts.engine import adapter_verdict
from uasdb.verdicts.expectations import Related, coverage, evaluate, expectations, summarise, with_expectations

QUIRK = {"uas": "works-with-quirk", "quirks": "u"}                      # stated: the need is shown
USED_FAST = {"driver": "uas", "workload": ["copy"], "link_speed": "5000M"}  # recommended


def report(host="pi4", url="https://example.org/r", **fields):
    return dict({"date": "2024-01-01", "source": {"url": url}, "host": host}, **fields)


def product(pid, ids=(), chip=None, *reports):
    record = {"id": pid, "name": pid.title(), "vendor": "Acme", "model": pid.upper(), "kind": "enclosure",
              "usb_ids": [{"vid": v, "pid": p} for v, p in ids], "reports": list(reports)}
    if chip:
        record["chipset"] = chip
    return record




DISTRIBUTION = {"id": "someos", "name": "SomeOS", "hosts": ["pi4"], "file": "https://example.org/cmdline.txt",
                "entries": [{"vid": "3333", "pid": "0001", "flags": "u", "added_in": "https://example.org/pr/1"},
                            {"vid": "5555", "pid": "0001", "flags": "u", "added_in": "https://example.org/e1"}]}

PRODUCTS = [
    # Three products with one product-specific ID, each shown to need the quirk on a Pi 4; a fourth is untested.
    product("a1", [("1111", "0001")], None, report(url="https://example.org/a1", **QUIRK)),
    product("a2", [("1111", "0001")], None, report(url="https://example.org/a2", **QUIRK)),
    product("a3", [("1111", "0001")], None, report(url="https://example.org/a3", **QUIRK)),
    product("a4", [("1111", "0001")]),
    # Used at 5 Gbit/s on a Pi 4, nothing on a Pi 5; booted a Pi 4.
    product("b1", [("9999", "0001")], None, report(url="https://example.org/b1", boot="works", **USED_FAST)),
    # One ID, one product working and one needing the quirk on a Pi 4: a third can expect nothing, and each of
    # the two, hidden, is expected to behave like the other (wrong both times: the evaluation must say so).
    product("c1", [("2222", "0001")], None, report(url="https://example.org/c1", **USED_FAST)),
    product("c2", [("2222", "0001")], None, report(url="https://example.org/c2", **QUIRK)),
    product("c3", [("2222", "0001")]),
    # Only a distribution's quirk list speaks for this ID.
    product("d1", [("3333", "0001")]),
    # Linux's own table turns UAS off for this ID.
    product("k1", [("4444", "0001")]),
    # Its own Pi 4 report is the one a distribution cites: hiding the report must hide that entry too.
    product("e1", [("5555", "0001")], None, report(url="https://example.org/e1", **QUIRK)),
    # Nothing related at all.
    product("z1", [("6666", "0001")]),
]


@pytest.fixture
def related():
    records = copy.deepcopy(PRODUCTS)
    return Related(records, {r["id"]: adapter_verdict(r) for r in records}, IgnoreUasKernel("4444:0001"), [DISTRIBUTION], None, [])


def expected_for(related, pid, platform="pi4", question="uas"):
    """What the related evidence gives, before the evaluation's policy (tested on its own below)."""
    record = related.adapters[pid]
    return related.raw_expect(record, related.verdicts[pid], platform, question).as_dict()


# (product, platform, question, state, verdict, confidence)
CASES = [
    ("a4", "pi4", "uas", "expected", "needs-quirk", "strong"),   # three independent products agree
    ("b1", "pi5", "uas", "expected", "works", "weak"),           # the same product on the other Pi
    ("b1", "pi5", "boot", "expected", "boots", "weak"),
    ("c3", "pi4", "uas", "disagree", None, None),                # a success and a failure with the same ID
    ("d1", "pi4", "uas", "expected", "needs-quirk", "weak"),     # one distribution: one source
    ("k1", "pi4", "uas", "expected", "no-uas", "strong"),        # the kernel's table is a fact
    ("k1", "macos", "uas", "none", None, None),                  # ... about Linux only
    ("z1", "pi4", "uas", "none", None, None),
]


@pytest.mark.parametrize("pid,platform,question,state,verdict,confidence", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_expectation_from_related_evidence(related, pid, platform, question, state, verdict, confidence):
    e = expected_for(related, pid, platform, question)
    assert (e["state"], e["verdict"], e["confidence"]) == (state, verdict, confidence)


def test_every_piece_of_evidence_links_where_it_comes_from(related):
    basis = expected_for(related, "a4")["basis"]
    assert [sorted(item["adapters"]) for item in basis] == [["a1", "a2", "a3"]]
    assert expected_for(related, "d1")["basis"][0]["url"] == "https://example.org/pr/1"
    assert expected_for(related, "k1")["basis"][0]["line"] == 42


def test_cells_with_a_verdict_get_no_expectation(related):
    assert "pi4" not in expectations(related.adapters["a1"], related.verdicts["a1"], related)["uas"]


def test_leave_one_out_has_known_answers(related):
    """a1..a3, each hidden in turn: the other two agree (two sources, weak) and are right. b1 (UAS and boot on a
    Pi 4): nothing related. c1 and c2, each hidden: the other one decides, wrongly and in the opposite direction.
    e1: its own report is the distribution's source, so nothing is left."""
    result = evaluate(related)
    assert result["cells"] == 8
    assert (result["expected"], result["disagree"]) == (5, 0)
    assert result["agreement"] == 0.6 and result["opposite_errors"] == 0.4
    assert result["cells_by_confidence"] == {"strong": 0, "weak": 5}
    assert sorted((c["adapter"], c["expected"], c["truth"]) for c in result["wrong"]) == [
        ("c1", "needs-quirk", "works"), ("c2", "works", "needs-quirk")]
    assert result["by_platform"]["uas:pi4"]["coverage"] == round(5 / 7, 4)


def test_hiding_a_products_reports_hides_what_they_caused(related):
    """Without hiding, e1's own Pi 4 report (and the distribution entry it led to) would predict its own verdict:
    the evaluation must not see them."""
    record = related.adapters["e1"]
    unhidden = related.raw_expect(record, related.verdicts["e1"], "pi4", "uas")
    assert (unhidden.state, unhidden.verdict) == ("expected", "needs-quirk")  # the distribution entry alone
    cell = next(c for c in evaluate(related)["cells_detail"] if c["adapter"] == "e1")
    assert cell["state"] == "none" and cell["hidden_sources"] == ["example.org/e1"]


def test_product_coverage_counts_verdicts_expectations_and_disagreement(related):
    related.use_policy(None)  # every expectation the evidence gives (the policy is tested below)
    pi4 = coverage(related)["uas:pi4"]
    assert pi4["products"] == len(PRODUCTS)
    assert (pi4["verdict"], pi4["expected"], pi4["disagree"], pi4["none"]) == (7, 3, 1, 1)
    assert pi4["share"] == round(11 / 12, 4)


def test_an_expectation_never_reaches_a_verdict_a_list_or_a_ranking(related, monkeypatch):
    """with_expectations only adds `expected`; verdicts, lists and what-to-buy rankings stay what reports give
    (with every expectation the evidence gives allowed through, whatever the evaluation would let the site say)."""
    import uasdb.verdicts.expectations as module
    monkeypatch.setattr(module, "apply_policy", lambda expectation, policy: expectation)
    records = copy.deepcopy(PRODUCTS)
    verdicts = {r["id"]: adapter_verdict(r) for r in records}
    adapters = [dict(r, verdict=verdicts[r["id"]].as_dict(), vendor_label="Acme", drive_label="SATA",
                     throughput_chart=[]) for r in records]
    before = copy.deepcopy([a["verdict"] for a in adapters])
    site = {"adapters": adapters, "usb": {}}
    site = with_expectations(site, records, verdicts, [DISTRIBUTION], [])
    assert [a["verdict"] for a in site["adapters"]] == before
    assert site["adapters"][3]["expected"]["uas"]["pi4"]["verdict"] == "needs-quirk"  # a4 has an expectation…
    site = with_answers(site, verdicts)  # what a ranking row says to do comes from the product's answers
    ranking = buy_rankings(site["adapters"], verdicts)["pi4"]
    listed = [p["id"] for p in ranking["products"] + ranking["avoid"]]
    assert "a4" not in listed and ranking["counts"]["with_verdict"] == len(listed)  # …and is ranked nowhere
    assert [p["id"] for p in ranking["expected"]] == ["a4", "d1"]  # shown apart


def test_a_bind_only_success_elsewhere_is_shown_but_decides_nothing():
    """The same product seen bound to uas once on a Linux PC is too thin to carry over to a Pi 4: the page names
    it (hints) instead of saying "nothing related is known", and no expectation comes of it."""
    records = [product("t1", [("7777", "0001")], None,
                       report(host="linux-x86_64", url="https://example.org/t1", driver="uas", link_speed="5000M"))]
    verdicts = {r["id"]: adapter_verdict(r) for r in records}
    assert verdicts["t1"].uas["linux"].verdict == "works" and not verdicts["t1"].uas["linux"].recommended
    related = Related(records, verdicts, IgnoreUasKernel("4444:0001"), [], None, [])
    e = expectations(records[0], verdicts["t1"], related)["uas"]["pi4"]
    assert (e["state"], e["verdict"]) == ("hints", None)
    assert [(b["kind"], b["platform"]) for b in e["basis"]] == [("same-product", "linux")]
    assert "binds UAS on a Linux PC" in e["text"] and "too thin" in e["text"]
    assert "nothing related" not in e["text"]


def test_coverage_counts_expectations_and_disagreement_not_hints():
    """The evaluation's coverage is what it says: the share of cells that got an expectation or "related evidence
    disagrees"; context alone (hints) answers nothing."""
    cells = [{"adapter": f"x{n}", "platform": "pi4", "question": "uas", "truth": "works", "state": state,
              "expected": expected, "confidence": "weak" if expected else None, "basis": []}
             for n, (state, expected) in enumerate([("expected", "works"), ("disagree", None), ("hints", None),
                                                    ("none", None)])]
    assert summarise(cells)["coverage"] == 0.5


# -- origins, shared IDs, even-handed carry-over, an evaluation that can fail (issue 36) ----------------------

def _related(records, distributions=(), chipsets=()):
    records = copy.deepcopy(list(records))
    return Related(records, {r["id"]: adapter_verdict(r) for r in records}, IgnoreUasKernel("4444:0001"), list(distributions), None,
                   list(chipsets))


def test_a_planted_copy_of_the_hidden_report_is_hidden_with_it():
    """p1's own Pi 4 report is the source of list A's entry; list B says it copies list A (its own commit is
    another URL), and p2 cites the very same post. Hiding p1 must hide all three copies, or p1 predicts itself."""
    original = {"id": "lista", "name": "List A", "hosts": ["pi4"], "file": "https://example.org/a",
                "entries": [{"vid": "8888", "pid": "0001", "flags": "u", "added_in": "https://example.org/p1"}]}
    copier = {"id": "listb", "name": "List B", "hosts": ["pi4"], "file": "https://example.org/b",
              "notes": "Its entries copy List A's.",
              "entries": [{"vid": "8888", "pid": "0001", "flags": "u", "added_in": "https://example.org/b/commit/1"}]}
    records = [product("p1", [("8888", "0001")], None, report(url="https://example.org/p1/", **QUIRK)),
               product("p2", [("8888", "0001")], None, report(url="https://www.example.org/p1", **QUIRK))]
    related = _related(records, [original, copier])
    unhidden = related.raw_expect(related.adapters["p1"], related.verdicts["p1"], "pi4", "uas")
    assert {i.kind for i in unhidden.basis} == {"same-id", "distribution"} and len(unhidden.basis) == 3
    # One origin, not three: the post, the list resting on it and the list copying that list.
    assert len(unhidden.basis) == 3 and len({g for g in __import__("uasdb.verdicts.expectations", fromlist=["x"])
                                             .origin_groups(unhidden.basis)}) == 1
    cells = {c["adapter"]: c for c in evaluate(related)["cells_detail"]}
    assert cells["p1"]["state"] == "none" and cells["p1"]["items"] == []
    assert cells["p1"]["hidden_sources"] == ["example.org/p1"]


def test_a_copied_list_without_the_copy_note_would_leak():
    """The same fixture without B's note: B's entry is then an independent origin and survives the hiding, so the
    test above fails if the copy rule goes."""
    original = {"id": "lista", "name": "List A", "hosts": ["pi4"], "file": "https://example.org/a",
                "entries": [{"vid": "8888", "pid": "0001", "flags": "u", "added_in": "https://example.org/p1"}]}
    independent = {"id": "listb", "name": "List B", "hosts": ["pi4"], "file": "https://example.org/b",
                   "entries": [{"vid": "8888", "pid": "0001", "flags": "u", "added_in": "https://example.org/b/1"}]}
    related = _related([product("p1", [("8888", "0001")], None, report(url="https://example.org/p1", **QUIRK))],
                       [original, independent])
    cell = evaluate(related)["cells_detail"][0]
    assert [i["text"] for i in cell["items"]] == ["List B ships 8888:0001:u on its Pi 4 images"]


def test_records_that_may_be_the_same_product_are_one_origin():
    """Three products agree on one ID, but two of them are marked as possibly the same product: two origins, so
    the expectation for a fourth is not strong."""
    records = [product("m1", [("1212", "0001")], None, report(url="https://example.org/m1", **QUIRK)),
               product("m2", [("1212", "0001")], None, report(url="https://example.org/m2", **QUIRK)),
               product("m3", [("1212", "0001")], None, report(url="https://example.org/m3", **QUIRK)),
               product("m4", [("1212", "0001")])]
    records[1]["notes"] = "The M1 record (m1) may be the same product."
    e = _related(records).raw_expect(records[3], adapter_verdict(records[3]), "pi4", "uas")
    assert (e.state, e.verdict, e.confidence) == ("expected", "needs-quirk", "weak")
    records[1]["notes"] = "Not the same as m1."
    e = _related(records).raw_expect(records[3], adapter_verdict(records[3]), "pi4", "uas")
    assert e.confidence == "strong"


CHIPS = [{"id": "jms567", "name": "JMS567", "maker": "JMicron", "usb_ids": [{"vid": "152d", "pid": "0562"}]}]


def test_an_id_shared_by_sata_and_nvme_bridges_gives_hints_not_an_expectation():
    """Three SATA products need the quirk on a Pi 4; an NVMe enclosure reporting the same default ID is not
    the same hardware: it gets the siblings as hints, with why."""
    records = [dict(product(f"s{n}", [("152d", "0562")], "jms567", report(url=f"https://example.org/s{n}", **QUIRK)),
                    drive_interface="sata") for n in range(3)]
    records.append(dict(product("nv", [("152d", "0562")]), drive_interface="nvme"))
    related = _related(records, chipsets=CHIPS)
    e = related.raw_expect(records[3], adapter_verdict(records[3]), "pi4", "uas")
    assert (e.state, e.verdict) == ("hints", None)
    assert "152d:0562 is JMicron's default ID, used by SATA and NVMe bridges" in e.text
    assert related.shared_id("152d", "0562").startswith("152d:0562 is JMicron's default ID")
    # All SATA: the same hardware as far as anyone knows, and the siblings decide.
    records[3]["drive_interface"] = "sata"
    related = _related(records, chipsets=CHIPS)
    assert related.shared_id("152d", "0562") is None
    assert related.raw_expect(records[3], adapter_verdict(records[3]), "pi4", "uas").verdict == "needs-quirk"


def test_own_pi4_use_and_a_pc_failure_disagree_on_the_pi5():
    """Used for weeks on a Pi 4 (no link speed) against one Linux PC failure: neither side is picked."""
    used = {"driver": "uas", "workload": ["copy"], "duration": "weeks"}
    record = product("t", [("4343", "0001")], None, report(url="https://example.org/t1", **used),
                     report(host="linux-x86_64", url="https://example.org/t2", **QUIRK))
    verdict = adapter_verdict(record)
    assert verdict.uas["pi4"].verdict == "works" and not verdict.uas["pi4"].recommended
    e = _related([record]).raw_expect(record, verdict, "pi5", "uas")
    assert e.state == "disagree"
    assert sorted(i.direction for i in e.basis if i.kind == "same-product") == ["needs-quirk", "works"]


def test_the_summary_has_a_confusion_matrix_a_baseline_and_agreement_per_direction():
    def cell(truth, state, expected=None, confidence=None):
        return {"adapter": "x", "platform": "pi4", "question": "uas", "truth": truth, "state": state,
                "expected": expected, "confidence": confidence, "lead": "same-id" if expected else None,
                "origins": [], "basis": []}
    cells = ([cell("needs-quirk", "expected", "needs-quirk", "weak")] * 4 + [cell("needs-quirk", "none")] * 3
             + [cell("works", "expected", "needs-quirk", "weak"), cell("works", "hints")])
    block = summarise(cells)["by_platform"]["uas:pi4"]
    assert block["matrix"] == {"needs-quirk": {"needs-quirk": 4, "none": 3}, "works": {"needs-quirk": 1, "hints": 1}}
    assert block["baseline"] == {"says": "needs-quirk", "right": 7, "cells": 9, "agreement": round(7 / 9, 4),
                                 "on_expected": 0.8}
    assert block["by_direction"] == {"needs-quirk": {"cells": 5, "right": 4, "agreement": 0.8}}
    # 4 of 5 right, while always saying "needs a quirk" is right 7 of 9 (78%) here: 80% beats it, narrowly.
    assert summarise(cells)["by_kind"]["uas:same-id:needs-quirk"]["beats_baseline"] is True


def test_the_policy_withholds_unproven_kinds_and_unearned_strong():
    from uasdb.verdicts.expectations import Expectation, Item, apply_policy, publish_policy
    result = {"by_question": {"uas": {"agreement_by_confidence": {"strong": 1.0}, "independent_by_confidence": {"strong": 19}}},
              "by_kind": {"uas:same-id:needs-quirk": {"beats_baseline": True},
                          "uas:same-product:works": {"beats_baseline": False}},
              "by_platform": {}}
    policy = publish_policy(result)
    assert policy["strong"] == {"uas": False}  # 100% but on 19 independent cells, not 20
    same_id = Item(2, "needs-quirk", "same-id", "3 products…", {"platform": "pi4", "count": 3})
    strong = apply_policy(Expectation("pi4", "uas", "expected", "needs-quirk", "strong", [same_id]), policy)
    assert (strong.state, strong.confidence) == ("expected", "weak")
    own = Item(1, "works", "same-product", "this product works with UAS, no quirk on a Pi 5", {"platform": "pi5"})
    withheld = apply_policy(Expectation("pi4", "uas", "expected", "works", "weak", [own]), policy)
    assert (withheld.state, withheld.verdict) == ("hints", None) and "does not predict" in withheld.text
    assert withheld.basis == [own]  # what is known is still shown


# -- the real data: the cells the issue named ---------------------------------------------------------------

@pytest.fixture(scope="module")
def data(real_catalog):  # data/ checked once per session (conftest.real_catalog)
    from uasdb.verdicts.expectations import related_from_records
    return related_from_records(real_catalog.check.records)


def _published(data, pid, platform):
    return expectations(data.adapters[pid], data.verdicts[pid], data)["uas"].get(platform)


@pytest.mark.parametrize("pid,platform", [
    ("ssk-usb31-gen2-nvme-enclosure-152d-0562", "pi5"), ("orico-ufsd-j", "pi5"), ("orico-ufsd-j", "pi4"),
    ("generic-jmicron-sata-case-152d-0562", "pi5"), ("intenso-premium-portable-ssd-3823430", "pi5"),
    ("generic-jms578-sata-adapter", "pi5"), ("samsung-t7", "pi5")])
def test_no_strong_expectation_from_copies_or_another_hardware(data, pid, platform):
    e = _published(data, pid, platform)
    assert e is None or e["confidence"] != "strong", e and e["text"]


@pytest.mark.parametrize("pid,platform,why", [
    ("ssk-usb31-gen2-nvme-enclosure-152d-0562", "pi5", "SATA siblings of a shared default ID"),
    ("orico-ufsd-j", "pi5", "siblings of a shared default ID"),
    ("orico-ufsd-j", "pi4", "siblings of a shared default ID"),
    ("generic-jms578-sata-adapter", "pi5", "its own Pi 4 reports disagree"),
    ("generic-jmicron-sata-case-152d-0562", "pi5", "its Pi 4 failure against the SSK on its ID booting a Pi 5"),
    ("intenso-premium-portable-ssd-3823430", "pi5", "one product's evidence and a copy, not independent origins"),
    ("samsung-t7", "pi5", "its own Pi 4 use against one PC failure")])
def test_no_one_sided_expectation_where_evidence_points_both_ways_or_is_not_the_same_hardware(data, pid, platform, why):
    e = _published(data, pid, platform)
    assert e is None or e["state"] != "expected", f"{why}: {e['text']}"


def test_the_shared_id_is_said_in_words(data):
    e = _published(data, "orico-ufsd-j", "pi4")
    assert "152d:0562 is JMicron's default ID, used by SATA and NVMe bridges" in e["text"]
    assert e["shared"] == ["152d:0562 is JMicron's default ID, used by SATA and NVMe bridges: what one of its "
                           "products does says little about another"]  # the page prints it under the evidence


@pytest.mark.parametrize("pid,copies", [
    ("adata-ed600", ["Umbrel OS ships 125f:a76a", "umbrelOS (Raspberry Pi image) ships 125f:a76a"]),
    ("tccmebius-tcc-s9-uk", ["Home Assistant OS ships 152d:0562", "OpenCCU (formerly RaspberryMatic) ships 152d:0562"]),
    ("wavlink-usb3-sata-adapter", ["Home Assistant OS ships 7825:a2a4", "OpenCCU (formerly RaspberryMatic) ships 7825:a2a4"])])
def test_leave_one_out_hides_the_lists_that_copy_the_hidden_report(data, pid, copies):
    cell = next(c for c in data.evaluation["cells_detail"]
                if (c["adapter"], c["platform"], c["question"]) == (pid, "pi4", "uas"))
    shown = " | ".join(i["text"] for i in cell["items"])
    assert not any(copy_ in shown for copy_ in copies), shown


def test_siblings_citing_the_hidden_source_are_hidden_too(data):
    """Jeff Geerling's post is cited by several products: hiding one product's Pi 4 reports hides the post, and
    with it every sibling's report from the same post."""
    cell = next(c for c in data.evaluation["cells_detail"]
                if (c["adapter"], c["platform"], c["question"]) == ("generic-asmedia-55aa-sata-enclosure", "pi4", "uas"))
    assert "jeffgeerling.com/blog/2020/uasp-makes-raspberry-pi-4-disk-io-50-faster" in cell["hidden_sources"]
    context, _, _ = data.without("generic-asmedia-55aa-sata-enclosure", "pi4")
    post = "https://www.jeffgeerling.com/blog/2020/uasp-makes-raspberry-pi-4-disk-io-50-faster"
    assert not any((r.get("source") or {}).get("url", "").rstrip("/") == post
                   for a in context.adapters.values() for r in a.get("reports", []))


def test_possible_duplicates_never_vouch_for_each_other():
    """Two records that may be one product (`may_be_same_as`) share an ID: each one's verdict is the same product's
    evidence, so neither may give the other an expectation, while a third product on the ID still gets one."""
    first = product("p1", [("7777", "0001")], None, report(url="https://example.org/p1", **QUIRK))
    second = product("p2", [("7777", "0001")])
    third = product("p3", [("7777", "0001")])
    first["may_be_same_as"], second["may_be_same_as"] = ["p2"], ["p1"]
    records = [first, second, third]
    rel = Related(records, {r["id"]: adapter_verdict(r) for r in records}, IgnoreUasKernel("4444:0001"), [], None, [])
    assert expected_for(rel, "p2")["state"] == "none"
    assert expected_for(rel, "p3")["state"] == "expected"
