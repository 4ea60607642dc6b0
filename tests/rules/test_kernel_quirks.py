import pytest

from helpers import adapter, rule_hits
from kernel_fixtures import findings, hits


def on(vid_pid: str, bcd=None, **report):
    vid, pid = vid_pid.split(":")
    usb_id = {"vid": vid, "pid": pid}
    if bcd:
        usb_id["bcd_device"] = {"min": bcd[0], "max": bcd[1]}
    return adapter(usb_ids=[usb_id], report=dict({"driver": None, "uas": None}, **report))


CONTRADICTED = [
    ("uas bound where Linux ignores uas", on("2537:1068", driver="uas", uas="works"), ["reports[0].driver"]),
    ("uas works without a driver named", on("2537:1068", uas="works"), ["reports[0].uas"]),
    ("older kernel: the entry may be newer", on("2537:1068", driver="uas", uas="works", kernel="5.10.63-v8+"), []),
    ("same kernel still disagrees", on("2537:1068", driver="uas", uas="works", kernel="6.12.75+rpt-rpi-v8"), ["reports[0].driver"]),
    ("device-no-uas may be the kernel's doing", on("2537:1068", driver="usb-storage", uas="device-no-uas"), ["reports[0].uas"]),
    ("usb-storage agrees with IGNORE_UAS", on("2537:1068", driver="usb-storage", uas="works-with-quirk", quirks="u"), []),
    ("one-firmware entry, firmware unknown", on("0984:0301", driver="uas", uas="works"), []),
    ("one-firmware entry, report names it", on("0984:0301", driver="uas", uas="works", bcd_device="0128"), ["reports[0].driver"]),
    ("one-firmware entry, other firmware", on("0984:0301", driver="uas", uas="works", bcd_device="0130"), []),
    ("one-firmware entry, record's range", on("0984:0301", bcd=("0128", "0128"), driver="uas", uas="works"), ["reports[0].driver"]),
    ("entry inside #if: config-dependent", on("4971:1012", driver="uas", uas="works"), []),
    ("vendor-wide NO_ATA_1X vs SMART under uas", on("0bc2:2100", driver="uas", uas="works", smart="works"), ["reports[0].smart"]),
    ("SMART over usb-storage is fine", on("0bc2:2100", driver="usb-storage", uas="works-with-quirk", quirks="u", smart="works"), []),
    ("ASMedia: decided at runtime", on("174c:55aa", driver="uas", uas="works"), []),
    ("HIKSEMI strings only", on("0bda:9210", driver="uas", uas="works"), []),
    ("not Linux", on("2537:1068", host="macos", uas="works"), []),
    ("no kernel entry", on("152d:0578", driver="uas", uas="works"), []),
]


@pytest.mark.parametrize("name,record,expected", CONTRADICTED, ids=[c[0] for c in CONTRADICTED])
def test_kernel_quirk_contradicted(name, record, expected):
    assert hits("kernel-quirk-contradicted", record) == expected


def test_report_without_usb_id_on_a_record_with_several_ids_is_not_guessed():
    record = on("2537:1068", driver="uas", uas="works")
    record["usb_ids"].append({"vid": "152d", "pid": "0567"})
    assert hits("kernel-quirk-contradicted", record) == []
    record["reports"][0]["usb_id"] = "2537:1068"
    assert hits("kernel-quirk-contradicted", record) == ["reports[0].driver"]


REDUNDANT = [
    ("Linux already ignores uas", on("2537:1068", uas="works-with-quirk", quirks="u"), ["reports[0].quirks"]),
    ("an older kernel needed it", on("2537:1068", uas="works-with-quirk", quirks="u", kernel="5.15.0"), []),
    ("letter built in", on("152d:0567", uas="works-with-quirk", quirks="f"), ["reports[0].quirks"]),
    ("one letter not built in", on("152d:0567", uas="works-with-quirk", quirks="fu"), []),
    ("runtime choice is not built in", on("174c:55aa", uas="works-with-quirk", quirks="u"), []),
    ("vendor-wide runtime flag", on("0bc2:2100", uas="works-with-quirk", quirks="t"), ["reports[0].quirks"]),
    ("works without quirk", on("2537:1068", driver="usb-storage", uas="works"), []),
]


@pytest.mark.parametrize("name,record,expected", REDUNDANT, ids=[c[0] for c in REDUNDANT])
def test_kernel_quirk_redundant(name, record, expected):
    assert hits("kernel-quirk-redundant", record) == expected


def test_messages_name_the_kernel_place_and_say_it_in_words():
    [finding] = findings("kernel-quirk-redundant", on("2537:1068", uas="works-with-quirk", quirks="u"))
    assert finding.severity == "warning"
    assert finding.message == ("Linux 6.12 already applies IGNORE_UAS (falls back to usb-storage) at "
                               "drivers/usb/storage/unusual_uas.h:23 to 2537:1068, so this quirk is not needed there")
    [finding] = findings("kernel-quirk-contradicted", on("2537:1068", driver="uas", uas="works"))
    assert "drivers/usb/storage/unusual_uas.h:23" in finding.message and "add `kernel:`" in finding.fix


def test_registered_and_run_against_the_committed_kernel_table(check_records):
    """The real Linux 6.12 table lists 2537:1068 (Norelsys NS1068X) with IGNORE_UAS."""
    record = adapter(chipset=None, usb_ids=[{"vid": "2537", "pid": "1068"}], report={"driver": "uas", "uas": "works"})
    problems = check_records([record])
    assert rule_hits(problems, "kernel-quirk-contradicted") == ["reports[0].driver"]
    assert all(p.severity == "warning" for p in problems if p.rule.startswith("kernel-"))
