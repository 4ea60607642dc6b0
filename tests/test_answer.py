"""What an answer says to do on a platform (scripts/uasdb/verdicts/answer.py), table by table: a small record in,
the kind of answer, whether a line is offered and words it must (or must never) hold out."""
import pytest

from uasdb.verdicts.answer import id_answer, product_answer, product_answers, tried_without_help
from uasdb.verdicts.engine import adapter_verdict


def r(host="pi4", date="2021-01-01", **fields):
    return dict({"date": date, "source": {"url": "https://example.org/"}, "host": host}, **fields)


def record(*reports, usb_ids=(("152d", "0578"),), name="X"):
    return {"id": name.lower(), "name": name, "usb_ids": [{"vid": v, "pid": p} for v, p in usb_ids],
            "reports": list(reports)}


USED = {"driver": "uas", "workload": ["copy"], "link_speed": "5000M"}
PC_QUIRK = r("linux-x86_64", uas="works-with-quirk", quirks="u", kernel="6.6.13")
SHIPPED = [{"name": "Fixture OS", "entry": "152d:0578:u", "sentence": "Fixture OS already sets 152d:0578:u.",
            "url": "https://example.org/os", "hosts": ["pi4"]}]

CASES = [
    # name, reports, platform, kind, line offered, words it holds, words it never holds
    ("a Pi 4 report needed the line", [r(uas="works-with-quirk", quirks="u")], "pi4", "quirk",
     "usb-storage.quirks=152d:0578:u", ["Add this line", "Raspberry Pi 4, 1 report"], []),
    ("a quirk whose need is not shown", [r(driver="usb-storage", quirks="u")], "pi4", "quirk-applied",
     "usb-storage.quirks=152d:0578:u", ["none shows it fail without it"], ["Add this line"]),
    ("works on the Pi, a PC needed the line", [PC_QUIRK, r(**USED)], "pi4", "not-needed", None,
     ["Not needed on this Pi", "152d:0578:u", "Linux PC, kernel 6.6.13, 1 report"], ["Add this line"]),
    ("the PC's own answer offers the PC's line", [PC_QUIRK, r(**USED)], "linux", "quirk",
     "usb-storage.quirks=152d:0578:u", ["reports on a Linux PC needed it"], []),
    ("works and nobody needed a line", [r(**USED)], "pi4", "nothing", None, ["Nothing to add"], []),
    ("broken and nothing tried", [r(driver="uas", stability="errors")], "pi4", "no-fix", None,
     ["No report on this Pi names a line"], ["Nothing to add"]),
    ("broken, the quirk tried in vain twice", [r(driver="uas", stability="errors"),
                                               r(driver="usb-storage", uas="broken", quirks="u", blamed_on="adapter"),
                                               r(driver="usb-storage", stability="disconnects", blamed_on="adapter")],
     "pi4", "tried", None, ["tried on this Pi and did not help (2 reports"], ["Nothing to add"]),
    ("broken, a PC needed a line", [PC_QUIRK, r(driver="uas", stability="errors")], "pi4", "no-fix", None,
     ["shows whether a quirk helps", "152d:0578:u is what reports elsewhere needed"], ["Nothing to add"]),
    ("no verdict, a PC needed a line", [PC_QUIRK], "pi5", "untested", None,
     ["No verdict on this Pi yet", "152d:0578:u"], []),
    ("a line means nothing on macOS", [PC_QUIRK], "macos", "untested", None, ["No verdict on macOS yet"],
     ["152d:0578:u"]),
    ("a Pi with no UAS", [r("pi3", driver="usb-storage")], "pi3", "no-uas", None, ["this Pi has no UAS"], []),
    ("hearsay never offers a line", [r(uas="works-with-quirk")], "pi4", "untested", None,
     ["only unverified reports"], []),
    ("hearsay that a Pi works does not make a PC's line 'not needed' there", [PC_QUIRK, r(uas="works")], "pi4",
     "untested", None, ["only unverified reports", "152d:0578:u is what reports elsewhere needed"], ["Not needed"]),
]


@pytest.mark.parametrize("name,reports,platform,kind,line,has,never", CASES, ids=[c[0] for c in CASES])
def test_what_an_answer_says(name, reports, platform, kind, line, has, never):
    adapter = record(*reports)
    answer = product_answer(adapter, adapter_verdict(adapter), platform)
    assert (answer["do"], answer["line"]) == (kind, line)
    for words in has:
        assert words in answer["text"]
    for words in never:
        assert words not in answer["text"]
    assert answer["sentence"].endswith(answer["text"])


def test_distributions_that_ship_the_entry_are_named_for_their_platform_only():
    adapter = record(r(driver="uas", stability="errors"), r("linux-x86_64", driver="uas", stability="errors"))
    answers = product_answers(adapter, adapter_verdict(adapter), {"152d:0578": SHIPPED})
    assert "1 distribution ships 152d:0578:u for it (Fixture OS)" in answers["pi4"]["text"]
    assert answers["linux"]["shipped"] == [] and "Fixture OS" not in answers["linux"]["text"]


def test_a_stated_quirk_outcome_is_not_a_quirk_tried_in_vain():
    """The trouble a works-with-quirk report lists is what it had before the quirk (the Samsung T7's PC report)."""
    adapter = record(r("linux-x86_64", uas="works-with-quirk", quirks="u", stability="errors"))
    assert tried_without_help(adapter, "linux") == []


def test_an_id_answer_gives_both_sides_and_only_this_platforms_line():
    works = record(r(**USED), name="Good")
    needs = record(r(uas="works-with-quirk", quirks="u"), name="Bad")
    pc_only = record(PC_QUIRK, r(**USED), name="Pc")
    products = []
    for adapter in (works, needs, pc_only):
        adapter["answers"] = product_answers(adapter, adapter_verdict(adapter), {})
        products.append(adapter)
    answer = id_answer("152d:0578", products, {"pi4": {"verdict": "depends"}}, "pi4", SHIPPED, None)
    assert answer["short"] == "Depends on the product"
    assert answer["text"].startswith("Products with this ID disagree: Good: Works")
    assert "Bad: Needs quirk" in answer["text"] and "Pc: Works" in answer["text"]
    assert "not needed here: 152d:0578:u came from Linux PC" in answer["text"]
    assert answer["line"] == "usb-storage.quirks=152d:0578:u" and answer["line_from"] == "Bad (Raspberry Pi 4, 1 report)"
    alone = id_answer("152d:0578", [pc_only], {"pi4": {"verdict": "works"}}, "pi4", [], None)
    assert alone["line"] is None and alone["short"] == "Works"


def test_the_naughty_line_holds_only_entries_a_pi_report_needed():
    """/naughty/'s one line is pasted on a Pi: an entry only a Linux PC report needed is named in the table with its
    platform, never put in the line (the T7's 04e8:4001:u was, before issue 35)."""
    from uasdb.verdicts.answer import naughty_combined_line, naughty_quirk_entries
    pc_only = dict(record(PC_QUIRK, usb_ids=(("04e8", "4001"),), name="PC"), id="pc")
    pi_too = dict(record(r(uas="works-with-quirk", quirks="u"), name="Pi"), id="pi")
    verdicts = {a["id"]: adapter_verdict(a) for a in (pc_only, pi_too)}
    entries = naughty_quirk_entries([pc_only, pi_too], verdicts, {})
    by_id = {e["usb_id"]: e for e in entries}
    assert by_id["04e8:4001"]["pi"] is False and "Linux PC" in by_id["04e8:4001"]["where"]
    assert by_id["152d:0578"]["pi"] is True
    assert naughty_combined_line(entries) == "usb-storage.quirks=152d:0578:u"
