"""The long pages' filters (scripts/uasdb/publish/facets.py and the models that use it): which choices a filter
offers, with how many rows each matches, and what each row matches."""
from __future__ import annotations

import pytest

from uasdb.publish import buy, chipset, facets, lists, usb
from uasdb.records.vocabulary import KIND_TITLES

KINDS = {"enclosure": "A case for one drive", "dock": "A drive dock or station"}


def test_a_filter_counts_each_row_once_per_value_in_title_order():
    rows = [{"kind": ["dock"]}, {"kind": ["enclosure"]}, {"kind": ["dock", "dock"]}, {}]
    assert facets.facet("kind", "Kind", rows, KINDS) == {"key": "kind", "label": "Kind", "options": [
        {"value": "enclosure", "label": "A case for one drive", "count": 1},
        {"value": "dock", "label": "A drive dock or station", "count": 2}]}


def test_a_filter_with_one_choice_is_not_offered():
    assert facets.facet("kind", "Kind", [{"kind": ["dock"]}, {"kind": ["dock"]}], KINDS) is None
    assert facets.facets([{"kind": ["dock"]}], [("kind", "Kind", KINDS)]) == []


def test_a_value_without_a_title_is_an_error():
    with pytest.raises(ValueError, match="filter kind: no title for pi-case"):
        facets.facet("kind", "Kind", [{"kind": ["pi-case"]}, {"kind": ["dock"]}], KINDS)


@pytest.mark.parametrize("text, expected", [("VIA Labs", "via-labs"), ("Works (pending)", "works-pending"),
                                            ("Works at 480M", "works-at-480m"), ("JMicron", "jmicron")])
def test_slug(text, expected):
    assert facets.slug(text) == expected


def test_badge_titles_go_best_first_and_once():
    badges = [{"rank": 4, "short": "Needs quirk"}, None, {"rank": 1, "short": "Works"}, {"rank": 4, "short": "Needs quirk"}]
    assert list(facets.badge_titles(badges).items()) == [("works", "Works"), ("needs-quirk", "Needs quirk")]


def test_every_kind_of_the_schema_is_a_choice_in_its_words():
    assert list(buy.KINDS) == list(KIND_TITLES)
    assert buy.KINDS["multi-bay-enclosure"] == "A case for several drives"


@pytest.mark.parametrize("boot, expected", [
    (None, "untested"),
    ({"verdict": "untested", "confidence": "none"}, "untested"),
    ({"verdict": "works", "confidence": "confirmed"}, "yes"),
    ({"verdict": "works", "confidence": "likely"}, "likely"),
    ({"verdict": "works-with-workaround", "confidence": "confirmed"}, "workaround"),
    ({"verdict": "fails", "confidence": "confirmed"}, "no"),
    ({"verdict": "intermittent", "confidence": "confirmed"}, "no"),
    ({"verdict": "mixed", "confidence": "disputed"}, "disputed"),
    ({"verdict": "fixed", "confidence": "confirmed"}, "fixed"),
])
def test_boots(boot, expected):
    assert buy.boots(boot) == expected
    assert expected in buy.BOOTS


@pytest.mark.parametrize("drive, expected", [("sata", ["sata"]), ("nvme", ["nvme"]), ("nvme-sata", ["nvme", "m2-sata"]),
                                             (None, ["not-stated"])])
def test_a_row_matches_the_drives_it_takes(drive, expected):
    adapter = {"kind": "enclosure", **({"drive_interface": drive} if drive else {})}
    assert buy.row_facets({}, adapter, pi=False) == {"kind": ["enclosure"], "drive": expected}
    assert set(expected) <= set(buy.DRIVES)


def _buy(pi=True):
    row = lambda i, boot: {"id": i, "boot": boot}  # noqa: E731
    return {"slug": "pi5", "short": "Pi 5", "pi": pi,
            "products": [row("a", {"verdict": "works", "confidence": "confirmed"})],
            "avoid": [row("b", {"verdict": "fails", "confidence": "confirmed"})],
            "expected": [{"id": "c"}]}


ADAPTERS = {"a": {"kind": "enclosure", "drive_interface": "nvme"}, "b": {"kind": "dock", "drive_interface": "sata"},
            "c": {"kind": "enclosure", "drive_interface": "nvme-sata"}}
CATALOG = {"buy_order": ["pi5", "pi4"], "buy": {"pi5": {"slug": "pi5", "short": "Pi 5"}, "pi4": {"slug": "pi4", "short": "Pi 4"}}}


def test_the_buy_model_counts_every_section_and_tags_every_row():
    model = buy.model(_buy(), CATALOG, ADAPTERS)
    assert model["others"] == [{"slug": "pi4", "short": "Pi 4"}]
    assert model["products"][0]["facets"] == {"kind": ["enclosure"], "drive": ["nvme"], "boots": ["yes"]}
    assert model["expected"][0]["facets"] == {"kind": ["enclosure"], "drive": ["nvme", "m2-sata"], "boots": ["untested"]}
    offered = {f["key"]: {o["value"]: o["count"] for o in f["options"]} for f in model["facets"]}
    assert offered == {"kind": {"enclosure": 2, "dock": 1}, "drive": {"sata": 1, "nvme": 2, "m2-sata": 1},
                       "boots": {"yes": 1, "no": 1, "untested": 1}}
    assert [f["label"] for f in model["facets"]] == ["Kind", "Drive", "Boots Pi 5"]


def test_a_page_that_is_no_pi_has_no_boot_filter():
    model = buy.model(_buy(pi=False), CATALOG, ADAPTERS)
    assert [f["key"] for f in model["facets"]] == ["kind", "drive"]
    assert "boots" not in model["avoid"][0]["facets"]


def _slot(adapters=(), kernel=None, runtime=None):
    return {"adapters": list(adapters), "kernel": kernel or [], "kernel_runtime": runtime or []}


@pytest.mark.parametrize("slot, expected", [
    (_slot(), {"products": ["no"], "linux": ["none"]}),
    (_slot(["a"]), {"products": ["yes"], "linux": ["none"]}),
    (_slot(kernel=[{"flags": [{"name": "IGNORE_UAS"}]}]), {"products": ["no"], "linux": ["special"]}),
    (_slot(runtime=[{"unconditional": False, "flags": []}]), {"products": ["no"], "linux": ["special"]}),
    (_slot(kernel=[{"flags": []}]), {"products": ["no"], "linux": ["none"]}),
])
def test_usb_id_rows(slot, expected):
    assert usb.index_facets(slot) == expected


def test_usb_id_filters_name_the_kernel():
    rows = [{"facets": usb.index_facets(_slot())}, {"facets": usb.index_facets(_slot(["a"], [{"flags": [{"name": "X"}]}]))}]
    assert [f["label"] for f in usb.index_filters(rows, "6.12")] == ["Products", "Linux 6.12"]


def test_chipset_filters_list_makers_alphabetically():
    catalog = {"chipsets": [{"maker": "VIA Labs", "uas_label": "yes"}, {"maker": "ASMedia", "uas_label": "unknown"},
                            {"maker": "asmedia", "uas_label": "yes"}]}
    rows = chipset.index(catalog)
    assert rows[0]["facets"] == {"maker": ["via-labs"], "uas": ["yes"]}
    maker, uas = chipset.index_filters(rows)
    assert [(o["value"], o["count"]) for o in maker["options"]] == [("asmedia", 2), ("via-labs", 1)]
    assert [o["label"] for o in uas["options"]] == ["With UAS", "Not known"]


def test_list_filters_follow_the_entries_badges():
    badge = lambda short, rank: {"short": short, "rank": rank}  # noqa: E731
    same = {"pi5": badge("Untested", 10), "pi4_boot": badge("Untested", 10), "pi5_boot": badge("Untested", 10)}
    entries = [{"badges": {"pi4": badge("Needs quirk", 4), **same}}, {"badges": {"pi4": badge("Broken", 6), **same}}]
    for e in entries:
        e["facets"] = {k: [facets.slug(b["short"])] for k, b in e["badges"].items()}
    assert lists.filters(entries) == [{"key": "pi4", "label": "Pi 4 UAS", "options": [
        {"value": "needs-quirk", "label": "Needs quirk", "count": 1}, {"value": "broken", "label": "Broken", "count": 1}]}]
