"""Chipset pages open with how the chip's adapters fare per platform: the counting and its wording."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from uasdb.export import SUMMARY_PLATFORMS, chipset_platform_summary, usb_summary, vendor_display_names


def verdicts(*words_per_adapter):
    """Each argument: {platform: verdict word}; platforms left out are untested."""
    return [SimpleNamespace(uas={p: SimpleNamespace(verdict=words.get(p, "untested")) for p in SUMMARY_PLATFORMS})
            for words in words_per_adapter]


@pytest.mark.parametrize("adapters, platform, text, tone", [
    ([{"pi4": "works-with-quirk"}] * 3, "pi4", "3 of 3 tested adapters need a quirk", "warn"),
    ([{"pi4": "works-with-quirk"}, {"pi4": "works"}, {}], "pi4",
     "1 of 2 tested adapters needs a quirk, 1 works; 1 not tested", "warn"),
    ([{"pi4": "works"}], "pi4", "1 of 1 tested adapter works", "good"),
    ([{"pi4": "broken"}, {"pi4": "no-uas"}], "pi4", "1 of 2 tested adapters has broken UAS, 1 has no UAS", "bad"),
    ([{}, {}], "pi5", "no adapter tested", "none"),
])
def test_summary_counts_and_words(adapters, platform, text, tone):
    row = next(r for r in chipset_platform_summary(verdicts(*adapters)) if r["platform"] == platform)
    assert row["text"] == text
    assert row["tone"] == tone


@pytest.mark.parametrize("vendors, expected", [
    (["StarTech.com", "StarTech", "StarTech.com"], {"StarTech.com": "StarTech.com", "StarTech": "StarTech.com"}),
    (["Natec", "NATEC"], {"Natec": "NATEC", "NATEC": "NATEC"}),
    (["Acme Inc.", "ACME", "Other"], {"Acme Inc.": "ACME", "ACME": "ACME", "Other": "Other"}),
    ([None, ""], {}),
])
def test_vendor_spellings_collapse_to_one_name(vendors, expected):
    assert vendor_display_names(vendors) == expected


# USB ID pages (and the search result for an ID) open with one sentence on what the database knows of the ID.
def _slot(adapters=0, chipsets=(), kernel=None, runtime=None):
    return {"adapters": [f"a{i}" for i in range(adapters)], "chipsets": list(chipsets), "kernel": kernel or [],
            "kernel_runtime": runtime or []}


def _entry(*flags, condition=None):
    return {"flags": [{"name": f} for f in flags], "condition": condition}


@pytest.mark.parametrize("slot, text", [
    (_slot(1, ["jms578"]), "1 product in the database reports this ID; bridge chip: JMicron JMS578. "
                           "Several products often share one ID, so check the product too."),
    (_slot(3), "3 products in the database report this ID. Several products often share one ID, so check the product too."),
    (_slot(0, ["jms578"]), "No product in the database reports this ID yet; bridge chip: JMicron JMS578."),
    (_slot(), "No product in the database reports this ID yet."),
    # Flags under a build condition are not what Linux does by itself; a flag set by two entries is named once.
    (_slot(kernel=[_entry("IGNORE_UAS"), _entry("NO_REPORT_OPCODES", condition="CONFIG_X"), _entry("IGNORE_UAS")]),
     "No product in the database reports this ID yet. Linux 6.12 lists it in its own tables and sets IGNORE_UAS "
     "for it by itself."),
    (_slot(kernel=[_entry()]), "No product in the database reports this ID yet. Linux 6.12 lists it in its own "
                               "tables, without quirk flags."),
])
def test_usb_id_summary(slot, text):
    assert usb_summary(slot, {"jms578": {"name": "JMicron JMS578"}}, "6.12") == text
