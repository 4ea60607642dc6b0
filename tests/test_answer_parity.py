"""One answer per product × platform and per USB ID × platform (verdicts/answer.py), said the same by every surface.

The export of the real data/ is written once; then every product × platform and every USB ID × platform is walked
through each file a page or script reads — the adapter's own file and adapters.json, its page model, the USB ID
file /check/ and /usb/ read, lists.json, the what-to-buy files, quirk-index.json (/quirks/) and adapters.csv — and
each must carry the same answer. Then the examples of issue 35, each of which read wrong before."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from uasdb.publish.files import API, api_file
from uasdb.verdicts.engine import LIST_PLATFORMS, PLATFORMS


@pytest.fixture(scope="module")
def out(real_catalog) -> Path:
    return real_catalog.export_dir  # the real data/ exported once per session (conftest.real_catalog)


def api(out: Path, name: str):
    return json.loads(api_file(out, name).read_text(encoding="utf-8"))["result"]


@pytest.fixture(scope="module")
def adapters(out):
    return {a["id"]: a for a in api(out, "adapters.json")}


def test_every_surface_gives_each_product_the_same_answer_on_each_platform(out, adapters):
    lists = api(out, "lists.json")
    listed = {e["id"]: e for name in ("naughty", "nice", "pending") for e in lists["entries"][name]}
    buy = {}
    for path in (out / API / "buy").glob("*.json"):
        page = json.loads(path.read_text(encoding="utf-8"))["result"]
        for row in page["products"] + page["avoid"]:
            buy[(page["platform"], row["id"])] = row
    quirky = {a["id"]: a for a in api(out, "quirk-index.json")["adapters"]}
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO((out / "static" / "adapters.csv").read_text(encoding="utf-8")))}
    checked = 0
    for adapter_id, adapter in adapters.items():
        own = api(out, f"adapters/{adapter_id}.json")
        page = {a["platform"]: a for a in own["page"]["what_to_do"]}
        # The page prints every Pi's answer, and every other platform's that has something to say, from `answers`.
        assert set(LIST_PLATFORMS) <= set(page)
        assert all(p in page for p, a in own["answers"].items() if a["do"] != "untested"
                   and any(r["platform"] == p for r in own["page"]["verdict_rows"]))
        assert [bool(page[p]["box"]) for p in page] == [bool(own["answers"][p]["line"]) for p in page]
        assert set(adapter["answers"]) == set(PLATFORMS)
        for platform, answer in adapter["answers"].items():
            checked += 1
            assert own["answers"][platform] == answer
            assert answer["verdict"] == adapter["verdict"]["uas"][platform]["verdict"]
            assert answer["short"] == adapter["verdict"]["uas"][platform]["short"]
            if (platform, adapter_id) in buy:
                assert buy[(platform, adapter_id)]["answer"] == {k: answer[k] for k in ("do", "text", "line")}
            for usb_id in adapter.get("usb_ids", []):
                key = f"{usb_id['vid']}:{usb_id['pid']}"
                id_file = api(out, f"usb/{usb_id['vid']}/{usb_id['pid']}.json") if platform == "pi4" else None
                if id_file is None:
                    continue
                for name, id_answer in id_file["answers"].items():
                    row = next((r for r in id_answer["products"] if r["id"] == adapter_id), None)
                    mine = adapter["answers"][name]
                    if row is None:  # left out only when it has nothing to say there
                        assert mine["verdict"] == "untested" and not mine["elsewhere"], (key, adapter_id, name)
                        continue
                    assert {k: row[k] for k in ("verdict", "grade", "short", "do", "text")} == \
                        {k: mine[k] for k in ("verdict", "grade", "short", "do", "text")}
                    assert row["entries"] == [e for e in mine["entries"] if e.startswith(f"{key}:")]
        if adapter_id in listed:
            assert listed[adapter_id]["answers"] == [{k: adapter["answers"][p][k] for k in ("platform", "label", "do", "text", "line")}
                                                     for p in LIST_PLATFORMS]
        if adapter_id in quirky:
            sentences = [a["sentence"] for a in adapter["answers"].values()
                         if a["do"] in ("quirk", "quirk-applied", "not-needed", "tried")]
            assert quirky[adapter_id]["answers"] == sentences
        assert rows[adapter_id]["pi4_do"] == adapter["answers"]["pi4"]["text"]
        assert rows[adapter_id]["pi5_do"] == adapter["answers"]["pi5"]["text"]
        assert adapter["summary"].startswith(adapter["answer_summary"])
    assert checked == len(adapters) * len(PLATFORMS)


def test_a_line_is_offered_only_on_the_platform_whose_reports_needed_it(adapters):
    for adapter in adapters.values():
        sources = adapter["verdict"]["quirk_sources"]
        for platform, answer in adapter["answers"].items():
            needed_here = [s["entry"] for s in sources if platform in s["platforms"]]
            if answer["line"]:
                assert answer["do"] in ("quirk", "quirk-applied")
                assert answer["entries"] and set(answer["entries"]) <= set(needed_here), (adapter["id"], platform)
            if answer["verdict"] == "works" and answer["confidence"] == "confirmed" and not needed_here:
                assert answer["line"] is None and answer["do"] in ("nothing", "not-needed")
            if answer["do"] == "not-needed":
                assert "Not needed" in answer["text"] and all(e["entry"] in answer["text"] for e in answer["elsewhere"])


def test_every_id_answer_offers_only_its_platforms_lines(out):
    for path in (out / "static" / "api" / "v1" / "usb").glob("*/*.json"):
        slot = json.loads(path.read_text(encoding="utf-8"))["result"]
        key = f"{slot['vid']}:{slot['pid']}"
        # An ID with products answers on each platform where one of them has something to say; with none, nothing.
        assert bool(slot.get("answers")) <= bool(slot["adapters"]), key
        said = {p for a in slot["adapters"] for p, v in a["verdict"]["uas"].items() if v["verdict"] != "untested"}
        assert said <= set(slot.get("answers") or {}), key
        for platform, answer in (slot.get("answers") or {}).items():
            needed = {e for r in answer["products"] for e in r["entries"]}
            if answer["line"]:
                assert answer["line"].startswith(f"usb-storage.quirks={key}:") and needed, (key, platform)
            else:
                assert not needed, (key, platform)
        for row in slot["page"]["what_to_do"]:
            assert bool(row["box"]) == bool(slot["answers"][row["platform"]]["line"])


def test_broken_or_mixed_never_reads_nothing_to_add(adapters):
    """Issue 35: nine Broken or Mixed products said "What to do: Nothing to add"."""
    for adapter_id in ("argon-one-m2", "crucial-x9", "dockcase-dswc1p", "geekworm-x872", "icy-box-ib-rd3621u3",
                       "orico-3139u3", "seagate-expansion-desktop-srd0nf2", "generic-asmedia-usb-enclosure-174c-1156",
                       "sandisk-external-drive-b094jhrbjw"):
        answers = adapters[adapter_id]["answers"]
        # dockcase-dswc1p now reads "Needs quirk" (issue 40: its failure happened with the quirk applied).
        bad = [a for a in answers.values() if a["verdict"] in ("broken", "mixed", "works-with-quirk")]
        assert bad, adapter_id
        for answer in bad:
            assert "Nothing to add" not in answer["text"], (adapter_id, answer["text"])
    for adapter in adapters.values():
        for answer in adapter["answers"].values():
            if answer["verdict"] in ("broken", "mixed", "works-with-quirk"):
                assert "Nothing to add" not in answer["text"], (adapter["id"], answer["text"])


def test_where_the_quirk_was_tried_and_did_not_help_it_says_so(adapters):
    """argon-one-m2: two Pi 4 reports ran the case's 174c:1156 bridge on usb-storage (one with 174c:1156:u named)
    and it still failed."""
    answer = adapters["argon-one-m2"]["answers"]["pi4"]
    assert answer["do"] == "tried" and len(answer["tried"]) == 2
    assert "tried on this Pi and did not help (2 reports" in answer["text"]
    reports = adapters["argon-one-m2"]["reports"]
    assert all(reports[n - 1]["host"] == "pi4" for n in answer["tried"])


def test_the_t7_answer_per_pi_opens_its_page_and_names_where_its_line_came_from(out, adapters):
    t7 = adapters["samsung-t7"]
    pi4 = t7["answers"]["pi4"]
    assert (pi4["short"], pi4["do"], pi4["line"]) == ("Works (pending)", "not-needed", None)
    assert "Not needed on this Pi" in pi4["text"] and "04e8:4001:u" in pi4["text"] and "Linux PC" in pi4["text"]
    assert t7["summary"].startswith("Pi 4: Works (pending), no quirk needed; Pi 5:")
    linux = t7["answers"]["linux"]
    assert linux["line"] == "usb-storage.quirks=04e8:4001:u" and "1 report" in linux["where"]
    # The page's meta description is its model's summary (head/meta.html), not a copy in pages.json, which holds
    # nothing that changes with a record's text.
    assert api(out, "adapters/samsung-t7.json")["summary"] == t7["summary"]
    entry = next(a for a in json.loads((out / "data" / "pages.json").read_text())["adapters"] if a["id"] == "samsung-t7")
    assert "description" not in entry and "title" not in entry


def test_the_usb_id_page_keeps_the_pending_grade_and_offers_the_pc_line_only_as_the_pcs(out):
    slot = api(out, "usb/04e8/4001.json")
    rows = {r["platform"]: r for r in slot["page"]["verdict_rows"]}
    assert rows["pi4"]["verdict"]["short"] == "Works (pending)"
    todo = {r["platform"]: r for r in slot["page"]["what_to_do"]}
    answers = slot["answers"]
    assert answers["pi4"]["line"] is None and todo["pi4"]["box"] is None
    assert "not needed here" in answers["pi4"]["text"]
    assert answers["linux"]["line"] == "usb-storage.quirks=04e8:4001:u" and todo["linux"]["box"]


def test_a_product_that_works_on_a_pi_is_not_filed_as_needing_its_ids_quirk_there(out, adapters):
    """StarTech USB3S2SAT3CB: a Linux PC report used 174c:55aa:u; on a Pi 4 UAS works without it."""
    slot = api(out, "usb/174c/55aa.json")
    startech = next(r for r in slot["answers"]["pi4"]["products"] if r["id"] == "startech-usb3s2sat3cb")
    assert startech["do"] == "not-needed" and startech["entries"] == []
    assert "startech-usb3s2sat3cb" not in (slot["answers"]["pi4"]["line_from"] or "")
    assert "USB3S2SAT3CB" not in (slot["answers"]["pi4"]["line_from"] or "")
    quirky = {a["id"]: a for a in api(out, "quirk-index.json")["adapters"]}
    assert any(s.startswith("Pi 4: Works. Not needed on this Pi") for s in quirky["startech-usb3s2sat3cb"]["answers"])


def test_an_id_whose_products_disagree_gives_both_sides(out):
    """152d:0578 on a Pi 4: one bind-only report works, the 8-report JMicron adapter is Mixed, ORICO 2139U3 needs
    the quirk, and distributions ship 152d:0578:u for Pi images."""
    answer = api(out, "usb/152d/0578.json")["answers"]["pi4"]
    assert answer["verdict"] == "depends"
    sides = {r["id"]: r for r in answer["products"]}
    assert sides["generic-jms578-sata-adapter"]["short"] == "Mixed"
    assert sides["orico-2139u3"]["short"] == "Needs quirk"
    assert sides["kolink-hdsub3u3"]["verdict"] == "works"
    for name in ("Mixed (8 reports", "Needs quirk", "Binds UAS", "distributions ship 152d:0578:u"):
        assert name in answer["text"]
    assert len(answer["shipped"]) >= 5 and answer["line"] == "usb-storage.quirks=152d:0578:u"


def test_the_naughty_line_holds_only_what_a_pi_report_needed(out):
    lists = api(out, "lists.json")
    rows = {e["usb_id"]: e for e in lists["naughty_quirk_entries"]}
    # The T7 and T5 lines came from Linux PC reports only (and both products now sit under "Reports disagree").
    for line in (lists["naughty_quirk_line"], lists["naughty_quirk_line_preserving_builtin"]):
        assert "04e8:4001" not in (line or "") and "04e8:61f5" not in (line or "")
        for usb_id, row in rows.items():
            if not row["pi"]:
                assert f"{usb_id}:" not in (line or ""), (usb_id, row["where"])
    for usb_id, row in rows.items():
        if row["pi"] and not row["shared_with_working"]:
            assert f"{usb_id}:" in lists["naughty_quirk_line"]
