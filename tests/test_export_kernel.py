"""The export tells what Linux does on its own: per USB ID, per adapter, and for its quirk line."""
import json

import pytest

from helpers import adapter, write_tree
from kernel_fixtures import fixture_drivedb, fixture_kernel, fixture_usbids
from uasdb.publish.export import build, write
from uasdb.publish.kernel import preserve_builtin, with_reference
from uasdb.records.database import check


@pytest.mark.parametrize("entry,span,preserving,dropped,no_effect,kept", [
    # NO_REPORT_OPCODES (f) is cleared by a user entry, but only matters under uas, which `u` turns off.
    ("152d:0567:u", None, "152d:0567:u", ["NO_REPORT_OPCODES"], ["NO_REPORT_OPCODES"], ["BROKEN_FUA"]),
    # Without `u` the device stays on uas, so f has to be written to keep it.
    ("152d:0567:t", None, "152d:0567:ft", ["NO_REPORT_OPCODES"], [], ["BROKEN_FUA"]),
    # The vendor-wide NO_ATA_1X from uas-detect.h is cleared too.
    ("0bc2:2100:s", None, "0bc2:2100:st", ["NO_ATA_1X"], [], []),
    ("0bc2:2100:u", None, "0bc2:2100:u", ["NO_ATA_1X"], ["NO_ATA_1X"], []),
    ("2537:1068:u", None, "2537:1068:u", [], [], []),
    ("0984:0301:t", ("0128", "0128"), "0984:0301:tu", ["IGNORE_UAS"], [], []),
    ("0984:0301:t", ("0200", "0200"), "0984:0301:t", [], [], []),
])
def test_quirk_entry_keeping_the_builtin_flags(entry, span, preserving, dropped, no_effect, kept):
    result = preserve_builtin(fixture_kernel(), entry, span)
    assert (result["preserving"], result["dropped"], result["dropped_without_effect"], result["kept"]) == (preserving, dropped, no_effect, kept)
    # What the preserving entry adds back is what was dropped and still matters: pages word it, never recompute it.
    assert result["restored"] == [f for f in dropped if f not in no_effect]


def test_runtime_choice_is_moot_only_when_u_leaves_nothing_for_it_to_do():
    """uas-detect.h may add MAX_SECTORS_240 (uas only) for 174c:55aa: an entry overrides that choice, which
    matters while the device stays on uas and not once `u` hands it to usb-storage."""
    table = fixture_kernel()
    on_uas = preserve_builtin(table, "174c:55aa:f")
    assert on_uas["runtime_replaced"] == ["IGNORE_UAS", "MAX_SECTORS_240"] and on_uas["runtime_moot"] is False
    off_uas = preserve_builtin(table, "174c:55aa:fu")
    assert off_uas["runtime_replaced"] == ["MAX_SECTORS_240"] and off_uas["runtime_moot"] is True
    assert preserve_builtin(table, "152d:0567:u")["runtime_moot"] is False      # nothing replaced, nothing to call moot


def test_builtin_already_and_bcd_dependence():
    table = fixture_kernel()
    assert preserve_builtin(table, "2537:1068:u")["builtin_already"] is True
    assert preserve_builtin(table, "0984:0301:u")["builtin_already"] is False      # one firmware only
    assert preserve_builtin(table, "0984:0301:u")["bcd_dependent"] is True
    assert preserve_builtin(table, "0984:0301:u", ("0128", "0128"))["builtin_already"] is True
    assert preserve_builtin(table, "174c:55aa:f")["runtime_replaced"] == ["IGNORE_UAS", "MAX_SECTORS_240"]


def _site(adapters):
    usb = {}
    for a in adapters:
        for u in a.get("usb_ids", []):
            usb.setdefault(f"{u['vid']}:{u['pid']}", {"vid": u["vid"], "pid": u["pid"], "adapters": [], "chipsets": []})["adapters"].append(a["id"])
    site = {"adapters": adapters, "usb": usb, "lists": {"naughty": [a["id"] for a in adapters]}, "counts": {}}
    return with_reference(site, fixture_kernel(), fixture_usbids(), fixture_drivedb())


def _adapter(adapter_id, usb_id, quirk_entries):
    vid, pid = usb_id.split(":")
    return {"id": adapter_id, "usb_ids": [{"vid": vid, "pid": pid}], "verdict": {"quirk_entries": quirk_entries}}


@pytest.fixture(scope="module")
def site():
    return _site([_adapter("jms567-box", "152d:0567", ["152d:0567:t"]), _adapter("seagate-drive", "0bc2:2100", ["0bc2:2100:u"])])


def test_every_kernel_listed_id_gets_a_usb_entry(site):
    assert set(fixture_kernel().ids()) <= set(site["usb"])
    assert site["usb"]["2537:1068"]["adapters"] == []
    assert list(site["usb"]) == sorted(site["usb"])
    assert site["counts"]["usb_ids"] == len(site["usb"])


def test_usb_entry_carries_kernel_entries_names_and_smartctl(site):
    slot = site["usb"]["152d:0567"]
    first = slot["kernel"][0]
    assert [(f["name"], f["letter"]) for f in first["flags"]] == [("BROKEN_FUA", None), ("NO_REPORT_OPCODES", "f")]
    assert (first["bcd"], first["every_bcd"], first["source"]) == ({"min": "0000", "max": "9999"}, True, "drivers/usb/storage/unusual_uas.h:17")
    assert (first["vendor"], first["product"]) == ("JMicron", "JMS567")
    assert slot["kernel"][1]["bcd"] == {"min": "0114", "max": "0117"}
    assert slot["usbids"] == {"vendor": "JMicron Technology Corp. / JMicron USA Technology Corp.", "product": "JMS567 SATA 6Gb/s bridge"}
    assert [(s["device_type"], s["line"]) for s in slot["smartctl"]] == [("sat", 61)]
    assert slot["kernel_summary"][0] == ("Linux 6.12 already applies to 152d:0567: BROKEN_FUA (does not use forced-unit-access writes), "
                                         "NO_REPORT_OPCODES (does not ask which commands the bridge supports) "
                                         "[drivers/usb/storage/unusual_uas.h:17]")


def test_runtime_checks_in_words(site):
    assert site["usb"]["174c:55aa"]["kernel_summary"] == [
        "Linux 6.12 looks at the device (max-power, link-speed, streams) and may add IGNORE_UAS or MAX_SECTORS_240 "
        "to 174c:55aa [drivers/usb/storage/uas-detect.h:16]"]
    assert site["usb"]["0bc2:2100"]["kernel_summary"] == [
        "Linux 6.12 adds NO_ATA_1X (blocks ATA pass-through, so SMART via `smartctl -d sat` fails) to every 0bc2 device "
        "when uas probes it [drivers/usb/storage/uas-detect.h:31]"]


def test_adapter_summary_and_preserving_quirk_line(site):
    jms = next(a for a in site["adapters"] if a["id"] == "jms567-box")["kernel"]
    assert jms["quirk_entries_preserving_builtin"] == ["152d:0567:ft"]
    assert jms["quirk_line_preserving_builtin"] == "usb-storage.quirks=152d:0567:ft"
    assert jms["quirk_entries"][0]["dropped"] == ["NO_REPORT_OPCODES"]
    assert [b["source"] for b in jms["builtin"]] == ["drivers/usb/storage/unusual_uas.h:17", "drivers/usb/storage/unusual_devs.h:38"]
    assert site["lists"]["naughty_quirk_line_preserving_builtin"] == "usb-storage.quirks=0bc2:2100:u,152d:0567:ft"


def test_kernel_only_lists_uas_relevant_ids_without_a_record(site):
    # 2109:0715 and 2537:1068 (IGNORE_UAS), 0984:0301, 4971:*: from unusual_uas.h or IGNORE_UAS; not 03f3:0001 (SCM_MULT_TARG).
    assert site["lists"]["kernel_only"] == ["0984:0301", "2109:0715", "2537:1068", "4971:1012", "4971:8017"]


def test_top_level_kernel_object(site):
    kernel = site["kernel"]
    assert (kernel["version"], kernel["release"]) == ("6.12", "6.12.0-fixture")
    assert {"letter": "u", "flag": "IGNORE_UAS", "drivers": "both", "plain": "falls back to usb-storage"} in kernel["letters"]
    assert "IGNORE_UAS" in kernel["user_entry_replaces"] and "BROKEN_FUA" not in kernel["user_entry_replaces"]
    assert site["usbids"]["version"] == "2025.07.26" and site["smartmontools"]["drivedb_version"].startswith("7.3")


def test_kernel_object_carries_every_builtin_entry_by_id(site):
    """The site's check page and quirk builder read built-in flags for any ID from kernel.json alone."""
    builtin = site["kernel"]["builtin"]
    assert set(builtin) == {e.usb_id for e in fixture_kernel().entries}
    assert builtin["152d:0567"] == [
        {"flags": ["BROKEN_FUA", "NO_REPORT_OPCODES"], "letters": "f", "bcd": {"min": "0000", "max": "9999"}, "every_bcd": True,
         "condition": None, "vendor": "JMicron", "product": "JMS567", "source": "drivers/usb/storage/unusual_uas.h:17"},
        {"flags": ["BROKEN_FUA"], "letters": "", "bcd": {"min": "0114", "max": "0117"}, "every_bcd": False,
         "condition": None, "vendor": "JMicron", "product": "USB to ATA/ATAPI Bridge", "source": "drivers/usb/storage/unusual_devs.h:38"}]
    assert site["kernel"]["flag_plain"]["BROKEN_FUA"] == "does not use forced-unit-access writes"


def test_full_export_writes_pages_for_kernel_only_ids(tmp_path):
    """With the committed Linux 6.12 table: 2537:1068 has no record but gets an API file."""
    data = write_tree(tmp_path, [adapter(report={"uas": "works-with-quirk", "quirks": "u", "driver": "usb-storage"})])
    result = check([data])
    site = build(result.records)
    out = tmp_path / "out"
    write(out, site, "2026-11-21T00:00:00Z")
    api = out / "api" / "v1"
    page = json.loads((api / "usb" / "2537" / "1068.json").read_text())["result"]
    assert page["adapters"] == [] and page["kernel"][0]["flags"][0]["name"] == "IGNORE_UAS"
    kernel = json.loads((api / "kernel.json").read_text())["result"]
    assert kernel["version"] == "6.12" and len(kernel["letters"]) >= 20
    acme = json.loads((api / "adapters" / "acme-box.json").read_text())["result"]
    assert acme["kernel"]["summary"][0].startswith("Linux 6.12 already applies to 152d:0578: BROKEN_FUA")
    assert acme["kernel"]["quirk_entries_preserving_builtin"] == ["152d:0578:u"]
    assert "2537:1068" in site["lists"]["kernel_only"] and "152d:0578" not in site["lists"]["kernel_only"]


def test_no_ata_1x_from_unusual_devs_is_kept_when_uas_is_turned_off():
    """usb-storage honours NO_ATA_1X (scsiglue.c) and applies unusual_devs.h entries, so a `u` entry must add `t`
    back there; the same flag from unusual_uas.h or the uas probe check is moot under usb-storage."""
    from uasdb.publish.kernel import letter_drivers, preserve_builtin
    from uasdb.records.reference import load_kernel
    table = load_kernel()
    assert letter_drivers(table, "t") == "both" and letter_drivers(table, "f") == "uas"
    for entry in table.entries:
        if "NO_ATA_1X" not in entry.flags or not entry.every_bcd or entry.condition is not None:
            continue
        others = [e for e in table.entries_for(*entry.usb_id.split(":")) if e is not entry]
        if others:
            continue
        result = preserve_builtin(table, f"{entry.usb_id}:u")
        letters = result["preserving"].split(":")[2]
        if entry.file.endswith("unusual_devs.h"):
            assert "t" in letters and "NO_ATA_1X" not in result["dropped_without_effect"], entry.usb_id
        else:
            assert letters == "u" and "NO_ATA_1X" in result["dropped_without_effect"], entry.usb_id


def _entry(flags, file="drivers/usb/storage/unusual_uas.h", line=1, bcd=("0000", "9999"), every=True, condition=None):
    return {"usb_id": "152d:0578", "flags": [{"name": f} for f in flags], "bcd": {"min": bcd[0], "max": bcd[1]},
            "every_bcd": every, "condition": condition, "file": file, "line": line}


def test_entries_setting_the_same_flags_are_one_fact_with_both_sources():
    from uasdb.publish.kernel import applies_by_itself, group_entries
    groups = group_entries([
        _entry(["BROKEN_FUA"], line=122),
        _entry(["BROKEN_FUA"], file="drivers/usb/storage/unusual_devs.h", line=2181),
        _entry(["BROKEN_FUA"], line=130, bcd=("0100", "0100"), every=False),   # another firmware: another fact
        _entry([], line=140),                                                    # listed without flags: no fact
    ])
    assert [(len(g["sources"]), g["bcd"]["min"]) for g in groups] == [(2, "0000"), (1, "0100")]
    assert groups[0]["sources"] == [{"file": "drivers/usb/storage/unusual_uas.h", "line": 122},
                                    {"file": "drivers/usb/storage/unusual_devs.h", "line": 2181}]
    assert applies_by_itself(groups, [])
    assert not applies_by_itself(group_entries([_entry(["IGNORE_UAS"], condition="CONFIG_USB_UAS")]), [])
    assert applies_by_itself([], [{"unconditional": True}]) and not applies_by_itself([], [{"unconditional": False}])


@pytest.mark.parametrize("kernel, runtime, device_type, expected", [
    ([_entry(["NO_ATA_1X"])], [], "sat", "table"),
    ([_entry(["NO_ATA_1X"], bcd=("0100", "0100"), every=False)], [], "sat", None),   # only some firmware
    ([_entry(["NO_ATA_1X"], condition="CONFIG_X")], [], "sat", None),               # only some builds
    ([], [{"unconditional": True, "flags": [{"name": "NO_ATA_1X"}]}], "sat", "uas"),  # uas-detect.h, under uas
    ([_entry(["NO_ATA_1X"])], [], "sntjmicron", None),                               # smartctl does not send ATA
])
def test_smart_blocked_says_when_linux_stops_smartctl_d_sat(kernel, runtime, device_type, expected):
    from uasdb.publish.kernel import smart_blocked
    slot = {"kernel": kernel, "kernel_runtime": runtime, "smartctl": [{"device_type": device_type}]}
    assert smart_blocked(slot) == expected
