"""Chipset pages open with how the chip's adapters fare per platform: the counting and its wording."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from uasdb.export import SUMMARY_PLATFORMS, chipset_platform_summary, vendor_display_names


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
