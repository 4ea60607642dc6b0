"""Chipset pages open with how the chip's adapters fare per platform: the counting and its wording."""
from __future__ import annotations

import pytest

from uasdb.publish.chipset import chipset_platform_summary
from uasdb.publish.labels import vendor_display_names
from uasdb.publish.usb import usb_summary
from uasdb.verdicts.engine import adapter_verdict


def r(host="pi4", **fields):
    return dict({"date": "2022-01-01", "source": {"url": "https://example.org/"}, "host": host}, **fields)


def verdicts(*reports_per_adapter):
    """Each argument: the reports of one adapter."""
    return [adapter_verdict({"id": "x", "reports": list(reports)}) for reports in reports_per_adapter]


QUIRK = r(uas="works-with-quirk", quirks="u")
USED = r(driver="uas", workload=["copy"], link_speed="5000M")
BOUND = r(driver="uas", link_speed="5000M")


@pytest.mark.parametrize("adapters, platform, text, tone", [
    ([[QUIRK]] * 3, "pi4", "3 of 3 tested adapters need a quirk", "warn"),
    ([[QUIRK], [USED], []], "pi4", "1 of 2 tested adapters needs a quirk, 1 works, used at 5 Gbit/s; 1 not tested", "warn"),
    ([[USED]], "pi4", "1 of 1 tested adapter works, used at 5 Gbit/s", "good"),
    ([[BOUND]], "pi4", "1 of 1 tested adapter works, pending more reports", "fair"),
    ([[r(uas="works")]], "pi4", "1 of 1 tested adapter has only unverified reports", "meh"),
    ([[r(driver="uas", stability="errors", notes="x")], [r(uas="device-no-uas", driver="usb-storage")]], "pi4",
     "1 of 2 tested adapters has broken UAS, 1 has no UAS", "bad"),
    ([[], []], "pi5", "no tested adapter", "none"),
])
def test_summary_counts_and_words(adapters, platform, text, tone):
    row = next(r for r in chipset_platform_summary(verdicts(*adapters)) if r["platform"] == platform)
    assert row["text"] == text
    assert row["tone"] == tone


def test_chip_summary_counts_booting_beside_uas():
    # The JMS583 case: one adapter binds UAS on a Pi 4, four of them do not boot it.
    fails = r(boot="fails", notes="x")
    rows = chipset_platform_summary(verdicts([BOUND], [fails], [fails], [fails], [fails, BOUND], [r(boot="works")], []))
    pi4 = next(row for row in rows if row["platform"] == "pi4")
    assert pi4["text"] == "2 of 2 tested adapters work, pending more reports; 5 not tested"
    assert pi4["boot"]["text"] == "4 of 5 adapters with a boot report do not boot, 1 boots; 2 not tested"
    assert pi4["boot"]["tone"] == "bad" and pi4["trouble"] == 4
    assert "boot" not in next(row for row in rows if row["platform"] == "linux")


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
