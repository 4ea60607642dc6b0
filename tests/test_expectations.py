"""Expectations where nobody has reported (scripts/uasdb/verdicts/expectations.py): what related evidence gives, how the
leave-one-out evaluation hides a product's own reports, and that an expectation never becomes a verdict."""
import copy

import pytest

from uasdb.publish.export import add_expectations, buy_rankings
from uasdb.verdicts.answer import add_answers
from uasdb.verdicts.engine import adapter_verdict
from uasdb.verdicts.expectations import Related, coverage, evaluate, expectations, summarise

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


class Kernel:
    """The part of reference.KernelTable the expectations read: one unconditional IGNORE_UAS entry."""
    version = "6.12"

    class Entry:
        bcd_min, bcd_max, flags, condition = "0000", "9999", ("IGNORE_UAS",), None
        file, line = "drivers/usb/storage/unusual_uas.h", 42

    def entries_for(self, vid, pid):
        return [self.Entry()] if (vid, pid) == ("4444", "0001") else []


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
    return Related(records, {r["id"]: adapter_verdict(r) for r in records}, Kernel(), [DISTRIBUTION], None, [])


def expected_for(related, pid, platform="pi4", question="uas"):
    record = related.adapters[pid]
    return expectations(record, related.verdicts[pid], related)[question][platform]


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
    unhidden = related.expect(record, related.verdicts["e1"], "pi4", "uas")
    assert (unhidden.state, unhidden.verdict) == ("expected", "needs-quirk")  # the distribution entry alone
    cell = next(c for c in _all_cells(related) if c["adapter"] == "e1")
    assert cell["state"] == "none"


def _all_cells(related):
    """The evaluation's cells, right ones included (evaluate keeps only the wrong ones in its summary)."""
    from uasdb.verdicts.expectations import _hide, transferable_uas_class
    cells = []
    for pid, record in related.adapters.items():
        pv = related.verdicts[pid].uas["pi4"]
        if transferable_uas_class(pv):
            hidden, urls = _hide(record, "pi4")
            e = related.expect(hidden, adapter_verdict(hidden), "pi4", "uas", urls)
            cells.append({"adapter": pid, "state": e.state, "verdict": e.verdict})
    return cells


def test_product_coverage_counts_verdicts_expectations_and_disagreement(related):
    pi4 = coverage(related)["uas:pi4"]
    assert pi4["products"] == len(PRODUCTS)
    assert (pi4["verdict"], pi4["expected"], pi4["disagree"], pi4["none"]) == (7, 3, 1, 1)
    assert pi4["share"] == round(11 / 12, 4)


def test_an_expectation_never_reaches_a_verdict_a_list_or_a_ranking(related):
    """add_expectations only adds `expected`; verdicts, lists and what-to-buy rankings stay what reports give."""
    records = copy.deepcopy(PRODUCTS)
    verdicts = {r["id"]: adapter_verdict(r) for r in records}
    adapters = [dict(r, verdict=verdicts[r["id"]].as_dict(), vendor_label="Acme", drive_label="SATA",
                     throughput_chart=[]) for r in records]
    before = copy.deepcopy([a["verdict"] for a in adapters])
    site = {"adapters": adapters, "usb": {}}
    add_expectations(site, records, verdicts, [DISTRIBUTION], [])
    assert [a["verdict"] for a in site["adapters"]] == before
    assert site["adapters"][3]["expected"]["uas"]["pi4"]["verdict"] == "needs-quirk"  # a4 has an expectation…
    add_answers(site, verdicts)  # what a ranking row says to do comes from the product's answers
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
    related = Related(records, verdicts, Kernel(), [], None, [])
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
