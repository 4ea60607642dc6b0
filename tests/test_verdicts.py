"""The verdict rule, case by case (docs/verdicts.md states the same rule in words, with worked examples)."""
import pytest

from uasdb.verdicts.engine import (
    QUIRKS_PARAM_MAX_CHARS,
    adapter_verdict,
    boot_verdict_for_platform,
    combined_quirk_line,
    evidence_strength,
    quirk_line_fits,
    quirk_value_length,
    report_link,
    summary_line,
    usb_id_verdict,
    verdict_for_platform,
)

LSUSB_T_UAS = "|__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M"
ABORT = "sd 0:0:0:0: [sda] tag#2 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"
FIX = {"component": "bootloader", "version": "2020-09-03", "url": "https://example.org/release-notes"}
# A success the nice list accepts: the driver named, a workload stated, the link shown.
USED_FAST = {"uas": "works", "driver": "uas", "workload": ["copy"], "link_speed": "5000M"}
SEQ_READ_380 = {"tool": "dd", "test": "seq-read", "value": 380, "unit": "MB/s"}


def r(host="pi4", date="2021-01-01", **fields):
    return dict({"date": date, "source": {"url": "https://example.org/"}, "host": host}, **fields)


def record(*reports, usb_ids=(("152d", "0578"),)):
    return {"id": "x", "usb_ids": [{"vid": v, "pid": p} for v, p in usb_ids], "reports": list(reports)}


# (name, reports, platform, verdict, confidence)
UAS_CASES = [
    ("no reports", [], "pi4", "untested", "none"),
    # what a report states
    ("stated works, driver named", [r(uas="works", driver="uas")], "pi4", "works", "confirmed"),
    ("pi400 counts for pi4", [r("pi400", uas="works", driver="uas")], "pi4", "works", "confirmed"),
    ("cm4 counts for pi4", [r("cm4", uas="works-with-quirk", quirks="u")], "pi4", "works-with-quirk", "confirmed"),
    ("pi500 counts for pi5", [r("pi500", driver="uas", stability="stable")], "pi5", "works", "confirmed"),
    ("cm5 counts for pi5", [r("cm5", uas="broken", driver="uas", notes="x")], "pi5", "broken", "confirmed"),
    ("pi5 report does not speak for pi4", [r("pi5", uas="broken", driver="uas", notes="x")], "pi4", "untested", "none"),
    ("device without UAS", [r(uas="device-no-uas", driver="usb-storage")], "pi4", "no-uas", "confirmed"),
    # what a report's evidence shows when it states no outcome
    ("driver uas and stable is works", [r(driver="uas", stability="stable")], "pi4", "works", "confirmed"),
    ("lsusb -t shows uas, no trouble", [r(evidence={"lsusb_t": LSUSB_T_UAS})], "pi4", "works", "confirmed"),
    ("uas with errors is broken", [r(driver="uas", stability="errors", notes="x")], "pi4", "broken", "confirmed"),
    ("uas with disconnects is broken", [r(driver="uas", stability="disconnects", notes="x")], "pi4", "broken", "confirmed"),
    ("uas with aborts in dmesg is broken", [r(evidence={"lsusb_t": LSUSB_T_UAS, "dmesg": ABORT})], "pi4", "broken", "confirmed"),
    ("dmesg shows the uas host and a reset", [r(evidence={"dmesg": "scsi host0: uas\nusb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd"})],
     "pi4", "broken", "confirmed"),
    ("uas trouble blamed on power is not counted", [r(driver="uas", stability="errors", blamed_on="power", notes="x")],
     "pi4", "untested", "none"),
    ("uas trouble of unknown cause counts", [r(driver="uas", stability="errors", blamed_on="unknown", notes="x")],
     "pi4", "broken", "confirmed"),
    ("usb-storage with quirk letters is works-with-quirk", [r(driver="usb-storage", quirks="u", stability="stable")],
     "pi4", "works-with-quirk", "confirmed"),
    ("usb-storage for no stated reason says nothing", [r(driver="usb-storage")], "pi4", "untested", "none"),
    ("dmesg 'UAS is ignored' is usb-storage", [r(quirks="u", evidence={"dmesg": "usb 2-1: UAS is ignored for this device, using usb-storage instead"})],
     "pi4", "works-with-quirk", "confirmed"),
    ("a report without any UAS fact says nothing", [r(boot="works")], "pi4", "untested", "none"),
    # hearsay
    ("works with no driver named is hearsay", [r(uas="works")], "pi4", "works", "likely"),
    ("two hearsay works stay likely", [r(uas="works"), r(uas="works")], "pi4", "works", "likely"),
    ("observed works outvotes hearsay broken", [r(driver="uas", stability="stable"), r(uas="broken", notes="x")],
     "pi4", "works", "confirmed"),
    ("hearsay disagreeing among itself", [r(uas="works"), r(uas="broken", notes="x")], "pi4", "mixed", "likely"),
    # disagreement between strong reports
    ("works vs quirk is mixed", [r(uas="works", driver="uas"), r(uas="works-with-quirk", quirks="u")], "pi4", "mixed", "disputed"),
    ("works vs broken is mixed", [r(driver="uas", stability="stable"), r(driver="uas", stability="errors", notes="x")],
     "pi4", "mixed", "disputed"),
    # issue 35: failures of two kinds are a failure, not "reports disagree"
    ("quirk and broken agree: needs quirk", [r(uas="works-with-quirk", quirks="u"), r(driver="uas", stability="errors", notes="x")],
     "pi4", "works-with-quirk", "confirmed"),
    ("broken with the quirk applied stays broken", [r(uas="works-with-quirk", quirks="u"),
                                                    r(uas="broken", quirks="u", notes="x")], "pi4", "broken", "confirmed"),
    ("no-uas against works is mixed", [r(uas="works", driver="uas"), r(uas="device-no-uas", driver="usb-storage")],
     "pi4", "mixed", "disputed"),
    ("a Pi of unknown model is no Linux PC", [r(host="pi-unknown", uas="works-with-quirk", quirks="u")], "linux",
     "untested", "none"),
    ("a Pi of unknown model is no Pi 4", [r(host="pi-unknown", uas="works-with-quirk", quirks="u")], "pi4",
     "untested", "none"),
    ("broken blamed on the hub is not counted", [r(uas="works", driver="uas"), r(uas="broken", blamed_on="hub", notes="x")],
     "pi4", "works", "confirmed"),
    # superseded failures
    ("a failure fixed later is 'fixed'", [r(uas="broken", driver="uas", notes="x", fixed_in=dict(FIX, component="kernel", version="6.1"))],
     "pi4", "fixed", "confirmed"),
    ("a fixed failure does not outweigh a success", [r(uas="works", driver="uas"),
                                                      r(uas="broken", driver="uas", notes="x", fixed_in=dict(FIX, component="kernel"))],
     "pi4", "works", "confirmed"),
    # hosts without UAS
    ("pi3b+ is usb-storage by nature", [r("pi3b-plus", uas="host-no-uas", driver="usb-storage")], "pi3", "host-no-uas", "confirmed"),
    ("pi3 with errors still says nothing about UAS", [r("pi3", uas="host-no-uas", stability="errors", notes="x")],
     "pi3", "host-no-uas", "confirmed"),
    ("a pi3 report with no uas field is still a no-UAS host", [r("pi3", boot="works")], "pi3", "host-no-uas", "confirmed"),
    ("host-no-uas on a PC says nothing", [r("linux-x86_64", uas="host-no-uas")], "linux", "untested", "none"),
    ("macOS", [r("macos", uas="works", driver="uas")], "macos", "works", "confirmed"),
    ("linux arm64 is linux", [r("linux-arm64", driver="uas", stability="stable")], "linux", "works", "confirmed"),
]


@pytest.mark.parametrize("name,reports,platform,expected,confidence", UAS_CASES, ids=[c[0] for c in UAS_CASES])
def test_uas_verdict(name, reports, platform, expected, confidence):
    verdict = verdict_for_platform(reports, platform)
    assert (verdict.verdict, verdict.confidence) == (expected, confidence)


EVIDENCE_CASES = [
    ("lsusb -t attached", r(uas="works", evidence={"lsusb_t": LSUSB_T_UAS}), "observed"),
    ("dmesg with trouble attached", r(uas="broken", evidence={"dmesg": ABORT}), "observed"),
    ("probe output attached", r(uas="works", evidence={"probe": "uasdb probe 1\ndevice 2-1: 152d:0578\n  interface 2-1:1.0: class 08 protocol 62 driver uas disk sda\n"}), "observed"),
    ("driver named", r(uas="works", driver="uas"), "stated"),
    ("quirk named", r(uas="works-with-quirk", quirks="u"), "stated"),
    ("lsusb line alone shows no driver", r(uas="works", evidence={"lsusb": "Bus 002 Device 002: ID 152d:0578"}), "hearsay"),
    ("outcome only", r(uas="works"), "hearsay"),
    ("a relayed quirk is hearsay", r(uas="works-with-quirk", quirks="u", second_hand=True), "hearsay"),
    ("a relayed account with its output quoted is observed",
     r(uas="works", second_hand=True, evidence={"lsusb_t": LSUSB_T_UAS}), "observed"),
]


@pytest.mark.parametrize("name,report,expected", EVIDENCE_CASES, ids=[c[0] for c in EVIDENCE_CASES])
def test_evidence_strength(name, report, expected):
    assert evidence_strength(report) == expected


def test_hearsay_is_never_a_bare_works():
    verdict = verdict_for_platform([r(uas="works", date="2019-05-01"), r(uas="works", date="2020-02-01")], "pi4").as_dict()
    assert verdict["badge"] == "Likely works" and verdict["tone"] == "meh"
    assert verdict["basis_text"] == "2 unverified reports · 2019–2020"
    assert "unverified" in verdict["text"]


def test_basis_counts_reports_strongest_evidence_depth_link_and_years():
    reports = [r(uas="works", driver="uas", date="2020-03-01"), r(driver="uas", stability="stable", date="2024-06"),
               r(uas="works", evidence={"lsusb_t": LSUSB_T_UAS}, workload=["root-fs"], in_use_for="months", date="2022")]
    verdict = verdict_for_platform(reports, "pi4").as_dict()
    assert verdict["basis"] == {"reports": 3, "strongest": "observed", "first": "2020", "last": "2024",
                                "depth": "long-term", "link": "5000M", "link_from": "evidence"}
    assert verdict["basis_text"] == "3 reports · observed · used for weeks or more at 5000M · 2020–2024"
    assert verdict["badge"] == "Works" and verdict["tone"] == "good" and verdict["recommended"]


def test_outvoted_hearsay_is_listed_not_counted():
    verdict = verdict_for_platform([r(driver="uas", stability="stable"), r(uas="broken", notes="x")], "pi4")
    assert verdict.counted == [0] and verdict.unverified == [1] and verdict.disagreeing == [1]
    assert verdict.classes == {"works": [0]}
    agreeing = verdict_for_platform([r(driver="uas", stability="stable"), r(uas="works")], "pi4")
    assert agreeing.unverified == [1] and agreeing.disagreeing == []


def test_conflicts_are_shown_not_averaged():
    verdict = verdict_for_platform([r(uas="works", driver="uas"), r(uas="works-with-quirk", quirks="u"),
                                    r(uas="works", driver="uas")], "pi4")
    assert verdict.verdict == "mixed"
    assert verdict.classes == {"works": [0, 2], "works-with-quirk": [1]}


def test_discounted_reports_are_listed():
    verdict = verdict_for_platform([r(uas="broken", driver="uas", blamed_on="power", notes="x")], "pi4")
    assert verdict.discounted == [0] and verdict.counted == []


def test_fixed_failure_names_the_fixing_version():
    verdict = boot_verdict_for_platform([r(boot="fails", notes="x", fixed_in=FIX)], "pi4").as_dict()
    assert verdict["verdict"] == "fixed" and verdict["superseded"] == [0] and verdict["discounted"] == []
    assert verdict["fixed"] == [dict(FIX, reports=[0])]
    assert "fixed since bootloader 2020-09-03" in verdict["text"]


def test_fixed_in_keeps_the_reports_successes():
    reports = [r(uas="works", driver="uas", boot="fails", notes="x", fixed_in=FIX)]
    assert verdict_for_platform(reports, "pi4").verdict == "works"
    assert boot_verdict_for_platform(reports, "pi4").verdict == "fixed"


BOOT_CASES = [
    ("pi4 boots", [r(boot="works")], "pi4", "works"),
    ("pi5 boots", [r("pi5", boot="works")], "pi5", "works"),
    ("pi3b+ boots from USB natively", [r("pi3b-plus", uas="host-no-uas", boot="works")], "pi3", "works"),
    ("pi zero 2 cannot boot from USB: says nothing", [r("pi-zero-2", boot="fails", notes="x")], "pi3", "untested"),
    ("boot failure blamed on cable not counted", [r(boot="fails", blamed_on="cable", notes="x")], "pi4", "untested"),
    ("boot disagreement", [r(boot="works"), r(boot="fails", notes="x")], "pi4", "mixed"),
    ("a workaround and a failed boot agree", [r(boot="works-with-workaround", boot_workaround="x"), r(boot="fails", notes="x")],
     "pi4", "works-with-workaround"),
    ("a failed boot and a sometimes boot agree", [r(boot="intermittent"), r(boot="fails", notes="x")], "pi4", "intermittent"),
]


@pytest.mark.parametrize("name,reports,platform,expected", BOOT_CASES, ids=[c[0] for c in BOOT_CASES])
def test_boot_verdict(name, reports, platform, expected):
    assert boot_verdict_for_platform(reports, platform).verdict == expected


LIST_CASES = [
    ("used at 5000M on pi4 with a stated report is nice", [r(**USED_FAST)], "nice"),
    ("used at 5000M on pi5 only is nice", [r("pi5", driver="uas", stability="stable", link_speed="5000M")], "nice"),
    ("boot is a column, not a gate", [r(**USED_FAST, boot="fails", notes="x")], "nice"),
    ("a bind-only snapshot is pending, not nice", [r(uas="works", driver="uas", link_speed="5000M")], "pending"),
    ("used only at 480M is pending", [r(**dict(USED_FAST, link_speed="480M"))], "pending"),
    ("used with no link shown is pending", [r(uas="works", driver="uas", workload=["copy"])], "pending"),
    ("a figure USB 2 cannot carry shows the link", [r(uas="works", driver="uas", throughput=[SEQ_READ_380])], "nice"),
    ("pending with a boot failure is naughty", [r(uas="works", driver="uas", boot="fails", notes="x")], "naughty"),
    ("intermittent boot is naughty", [r(boot="intermittent", notes="x")], "naughty"),
    ("a quirk whose need is not shown lists nothing", [r(driver="usb-storage", quirks="u", link_speed="5000M")], None),
    ("a stated quirk is naughty", [r(uas="works-with-quirk", quirks="u", driver="usb-storage")], "naughty"),
    ("quirk on USB 3, works at 480M is naughty, not mixed",
     [r(uas="works-with-quirk", quirks="u", link_speed="5000M"), r(uas="works", driver="uas", link_speed="480M")],
     "naughty"),
    ("hearsay works is not nice", [r(uas="works", boot="works")], None),
    ("hearsay broken is not naughty", [r(uas="broken", notes="x")], None),
    ("quirk is naughty", [r(uas="works-with-quirk", quirks="u", boot="works")], "naughty"),
    ("observed broken is naughty", [r(driver="uas", stability="errors", notes="x")], "naughty"),
    ("pi5 broken is naughty", [r("pi5", uas="broken", driver="uas", notes="x")], "naughty"),
    # issue 35: reports that merely disagree make a group of their own, never the naughty list by that alone
    ("mixed UAS is 'disagree', not naughty", [r(uas="works", driver="uas"), r(uas="broken", driver="uas", notes="x")],
     "disagree"),
    ("mixed boot with UAS pending is 'disagree'", [r(uas="works", driver="uas", boot="works"), r(boot="fails", notes="x")],
     "disagree"),
    ("mixed on pi4 and broken on pi5 is naughty", [r(uas="works", driver="uas"), r(uas="broken", driver="uas", notes="x"),
                                                   r("pi5", uas="broken", driver="uas", notes="x")], "naughty"),
    ("hearsay disagreeing is no group", [r(uas="works"), r(uas="broken", notes="x")], None),
    ("nice with a boot dispute stays nice", [r(**USED_FAST, boot="works"), r(boot="fails", notes="x")], "nice"),
    ("works on pi4 but broken on pi5 is naughty", [r(uas="works", driver="uas"), r("pi5", uas="broken", driver="uas", notes="x")],
     "naughty"),
    ("hearsay against blocks the nice list", [r(uas="works", driver="uas"), r("pi5", uas="broken", notes="x")], None),
    ("boot fails, UAS unknown: naughty", [r(boot="fails", notes="x")], "naughty"),
    ("old boot failure fixed since: not naughty", [r(boot="fails", notes="x", fixed_in=FIX)], None),
    ("boot failure blamed on power: nice", [r(**USED_FAST), r(boot="fails", blamed_on="power", notes="x")], "nice"),
    ("no uas on adapter: neither", [r(uas="device-no-uas", driver="usb-storage", boot="works")], None),
    ("pi3 only: neither", [r("pi3b-plus", uas="host-no-uas", boot="works")], None),
]


@pytest.mark.parametrize("name,reports,expected", LIST_CASES, ids=[c[0] for c in LIST_CASES])
def test_lists(name, reports, expected):
    assert adapter_verdict(record(*reports)).listing == expected


def test_naughty_reasons_say_why():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u", boot="fails", notes="x"),
                                     r("pi5", uas="broken", driver="uas", notes="x")))
    assert verdict.reasons == ["needs a usb-storage quirk on Pi 4", "UAS is broken on Pi 5", "does not boot a Pi 4"]


def test_summary_of_a_nice_product_gives_its_basis():
    verdict = adapter_verdict(record(r(**USED_FAST, date="2023-01-01")))
    assert summary_line(verdict) == ("On the nice list: UAS works without a quirk on Pi 4, used at 5 Gbit/s or faster "
                                     "(1 report · stated · used at 5000M · 2023).")


def test_summary_of_a_pending_product_says_what_is_missing():
    verdict = adapter_verdict(record(r(uas="works", evidence={"lsusb_t": LSUSB_T_UAS}, date="2020-07-03")))
    assert summary_line(verdict) == ("Pending more reports: UAS binds without a quirk on Pi 4, not yet tried under load "
                                     "(1 report · observed · binds uas at 5000M, not tried under load · 2020).")


def test_quirk_line_applies_flags_to_every_id():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u"), usb_ids=(("152d", "0578"), ("152d", "a578"))))
    assert verdict.quirk_line == "usb-storage.quirks=152d:0578:u,152d:a578:u"


def test_quirk_line_uses_the_reported_id_only():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u", usb_id="152d:a578"),
                                     usb_ids=(("152d", "0578"), ("152d", "a578"))))
    assert verdict.quirk_entries == ["152d:a578:u"]


def test_quirk_flags_from_several_reports_are_united_and_sorted():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u"), r("linux-x86_64", uas="works-with-quirk", quirks="tu")))
    assert verdict.quirk_entries == ["152d:0578:tu"]


def test_no_quirk_line_from_macos_discounted_or_fixed_reports():
    verdict = adapter_verdict(record(r("macos", uas="works-with-quirk", quirks="u"),
                                     r(uas="works-with-quirk", quirks="t", blamed_on="cable"),
                                     r(uas="works-with-quirk", quirks="f", fixed_in=dict(FIX, component="kernel"))))
    assert verdict.quirk_line is None


def test_combined_quirk_line_merges_shared_ids_and_leaves_out_excluded_ones():
    a = adapter_verdict(record(r(uas="works-with-quirk", quirks="u")))
    b = adapter_verdict(record(r(uas="works-with-quirk", quirks="t"), usb_ids=(("152d", "0578"), ("174c", "55aa"))))
    assert combined_quirk_line([a, b]) == "usb-storage.quirks=152d:0578:tu,174c:55aa:t"
    assert combined_quirk_line([a, b], exclude_ids={"174c:55aa"}) == "usb-storage.quirks=152d:0578:tu"
    assert combined_quirk_line([]) is None


def test_quirk_line_length_limit_is_the_kernels():
    ten = "usb-storage.quirks=" + ",".join(f"152d:{n:04x}:u" for n in range(10))   # 10*11 + 9 commas = 119
    eleven = "usb-storage.quirks=" + ",".join(f"152d:{n:04x}:u" for n in range(11))  # 131
    assert quirk_value_length(ten) == 119 and quirk_line_fits(ten)
    assert quirk_value_length(eleven) == 131 and not quirk_line_fits(eleven)
    assert QUIRKS_PARAM_MAX_CHARS == 127 and quirk_line_fits(None)


def test_shared_usb_id_depends_on_the_product_when_products_disagree():
    works = adapter_verdict(record(r(uas="works", driver="uas")))
    quirky = adapter_verdict(record(r(uas="works-with-quirk", quirks="u")))
    result = usb_id_verdict({"good-one": works, "bad-one": quirky})
    assert result["pi4"]["verdict"] == "depends" and result["pi4"]["short"] == "Depends on the product"
    assert result["pi4"]["products"]["good-one"]["verdict"] == "works"
    assert result["pi4"]["products"]["bad-one"]["verdict"] == "works-with-quirk"
    assert result["pi5"]["verdict"] == "untested"


def test_shared_usb_id_agreeing_products_give_their_verdict():
    one = adapter_verdict(record(r(uas="works", driver="uas")))
    two = adapter_verdict(record(r(driver="uas", stability="stable"), r("pi5", uas="works", driver="uas")))
    result = usb_id_verdict({"one": one, "two": two})
    assert result["pi4"]["verdict"] == "works" and result["pi5"]["verdict"] == "works"


# Every spelling of a new device's speed the kernel has printed, as an owner would paste it: the link a verdict
# shows ("binds uas at 5000M") must come from any of them, never "link speed not shown".
DMESG_LINKS = [
    ("usb 1-1.2: new high-speed USB device number 3 using xhci_hcd", "480M"),
    ("usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd", "5000M"),                 # 6.x, and before 4.18
    ("usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd", "5000M"),           # 4.18-5.x
    ("usb 2-1: new SuperSpeed Gen 1x1 USB device number 2 using xhci_hcd", "5000M"),
    ("usb 5-1: new SuperSpeed Gen 1x2 USB device number 3 using xhci_hcd", "10000M"),        # two Gen 1 lanes
    ("usb 4-1: new SuperSpeedPlus Gen 2 USB device number 2 using xhci_hcd", "10000M"),      # 4.18-5.x
    ("usb 4-1: new SuperSpeedPlus Gen 2x2 USB device number 2 using xhci_hcd", "20000M"),
    ("usb 4-1: new SuperSpeed Plus USB device number 2 using xhci_hcd", "10000M"),           # 6.x, rate unknown
    ("usb 4-4: new SuperSpeed Plus Gen 2x1 USB device number 10 using xhci_hcd", "10000M"),  # 6.x
    ("usb 4-1: new SuperSpeed Plus Gen 1x2 USB device number 2 using xhci_hcd", "10000M"),
    ("usb 4-1: new SuperSpeed Plus Gen 2x2 USB device number 2 using xhci_hcd", "20000M"),
]


@pytest.mark.parametrize("line, link", DMESG_LINKS, ids=[line.split(": new ")[1].split(" USB")[0] for line, _ in DMESG_LINKS])
def test_the_link_is_read_from_every_dmesg_spelling(line, link):
    report = r(evidence={"dmesg": line + "\nscsi host0: uas"})
    assert report_link(report) == (link, "evidence")
    pv = verdict_for_platform([report], "pi4")
    assert pv.basis["link"] == link


def test_kolink_hdsub3u3_link_is_read_from_its_superspeed_gen_1_line():
    """The real record whose page said "link speed not shown" above a "new SuperSpeed Gen 1 USB device" line."""
    from pathlib import Path

    import yaml
    data = yaml.safe_load((Path(__file__).parent.parent / "data/adapters/kolink-hdsub3u3.yaml").read_text(encoding="utf-8"))
    assert "new SuperSpeed Gen 1 USB device" in data["reports"][0]["evidence"]["dmesg"]
    assert verdict_for_platform(data["reports"], "pi4").basis["link"] == "5000M"


def test_a_disagreement_gives_both_sides_and_what_differs():
    verdict = adapter_verdict(record(r(boot="works", bootloader="2020-09-03", port="usb3"),
                                     r(boot="fails", bootloader="2023-01-11", notes="x")))
    assert verdict.listing == "disagree" and verdict.reasons == ["Pi 4 boot reports disagree"]
    (d,) = verdict.disagreements
    assert (d["platform"], d["kind"], d["label"]) == ("pi4", "boot", "Pi 4 boot")
    assert [(side["outcome"], side["reports"]) for side in d["sides"]] == [("works", [0]), ("fails", [1])]
    assert d["differences"] == ["bootloader: 2020-09-03 (boots) against 2023-01-11 (does not boot)"]
    assert "Stated by one side only: port usb3 (boots)" in d["explain"]


def test_a_disagreement_that_states_nothing_names_what_usually_explains_it():
    verdict = adapter_verdict(record(r(uas="works", driver="uas"), r(uas="broken", driver="uas", notes="x")))
    (d,) = verdict.disagreements
    assert d["differences"] == [] and all(word in d["explain"] for word in ("bootloader", "port", "power"))
    linux = adapter_verdict(record(r("linux-x86_64", uas="works", driver="uas"),
                                   r("linux-x86_64", uas="broken", driver="uas", notes="x")))
    assert "bootloader" not in linux.disagreements[0]["explain"] and linux.listing is None


# issue 35: the what-to-buy pages and the lists place a product through one rule (platform_standing); each case
# gives the Pi 4 standing and the list it rolls up to.
STANDING_CASES = [
    ("used at 5000M: recommended, nice", [r(**USED_FAST)], "recommended", "nice"),
    ("recommended with a failed boot: boot is a column, not a gate", [r(**USED_FAST, boot="fails", notes="x")],
     "recommended", "nice"),
    ("pending with a failed boot: avoid, naughty", [r(uas="works", driver="uas", boot="fails", notes="x")], "avoid", "naughty"),
    ("boots only sometimes: avoid, naughty", [r(boot="intermittent", notes="x")], "avoid", "naughty"),
    ("a quirk shown needed: avoid, naughty", [r(uas="works-with-quirk", quirks="u")], "avoid", "naughty"),
    ("broken: avoid, naughty", [r(driver="uas", stability="errors", notes="x")], "avoid", "naughty"),
    ("works against broken: disagree", [r(uas="works", driver="uas"), r(uas="broken", driver="uas", notes="x")],
     "disagree", "disagree"),
    ("boot reports disagree: disagree", [r(uas="works", driver="uas", boot="works"), r(boot="fails", notes="x")],
     "disagree", "disagree"),
    ("bind-only: pending", [r(uas="works", driver="uas", link_speed="5000M")], "pending", "pending"),
    ("pending with a relayed quirk against it: other, no list",
     [r(uas="works", driver="uas", link_speed="5000M"), r(uas="works-with-quirk", quirks="u", second_hand=True)],
     "other", None),
    ("a quirk whose need is not shown: other", [r(driver="usb-storage", quirks="u", link_speed="5000M")], "other", None),
    ("hearsay works: other", [r(uas="works", boot="works")], "other", None),
    ("boot works only: other", [r(boot="works")], "other", None),
    ("no reports: other", [r("linux-x86_64", uas="works", driver="uas")], "other", None),
]


@pytest.mark.parametrize("name,reports,standing,listing", STANDING_CASES, ids=[c[0] for c in STANDING_CASES])
def test_one_rule_places_a_product_on_the_buy_page_and_the_lists(name, reports, standing, listing):
    from uasdb.publish.buy import buy_group
    from uasdb.verdicts.engine import platform_standing
    verdict = adapter_verdict(record(*reports))
    assert platform_standing(verdict.uas["pi4"], verdict.boot["pi4"]) == standing
    assert buy_group(verdict.uas["pi4"], verdict.boot["pi4"]) == standing  # the page asks the engine, decides nothing
    assert verdict.listing == listing


def test_a_product_recommended_on_one_pi_is_not_made_naughty_by_a_failed_boot_on_the_other():
    from uasdb.verdicts.engine import platform_standing
    verdict = adapter_verdict(record(r("pi5", **USED_FAST), r(boot="fails", notes="x")))
    assert platform_standing(verdict.uas["pi4"], verdict.boot["pi4"]) == "avoid"
    assert platform_standing(verdict.uas["pi5"], verdict.boot["pi5"]) == "recommended"
    assert verdict.listing == "nice"


# issue 35: today's kernel in the answer. Linux's own table (data/kernel/, the release the project imports) sets
# IGNORE_UAS for 2109:0715 (VIA VL817) at every bcdDevice: a success on uas from an older kernel is history there.
VL817 = (("2109", "0715"),)
USED_FAST_PC = dict(USED_FAST, host="linux-x86_64")


@pytest.mark.parametrize("kernel, grade", [("6.6.13", "kernel-ignores-uas"), (None, "kernel-ignores-uas"),
                                           ("6.12.200", "recommended")])
def test_a_success_on_uas_the_kernel_now_refuses_is_history(kernel, grade):
    from uasdb.verdicts.engine import platform_standing
    report = r(**USED_FAST_PC, **({"kernel": kernel} if kernel else {}))
    verdict = adapter_verdict(record(report, usb_ids=VL817))
    linux = verdict.uas["linux"]
    assert linux.verdict == "works" and linux.grade == grade
    if grade == "kernel-ignores-uas":
        assert not linux.recommended and not linux.pending
        assert platform_standing(linux) == "other"
        assert "IGNORE_UAS" in linux.text and "usb-storage" in linux.text and "2109:0715" in linux.text
        assert (f"on Linux {kernel} it ran uas" if kernel else "kernel version not given") in linux.text
        assert linux.as_dict()["kernel_history"][0]["release"].startswith("6.12.")
        assert linux.rank > adapter_verdict(record(report)).uas["linux"].rank  # ranks after a product that works


def test_the_kernel_table_is_what_makes_it_history():
    report = r(**USED_FAST_PC, kernel="6.6.13")
    assert adapter_verdict(record(report, usb_ids=VL817), kernel=None).uas["linux"].grade == "recommended"
    assert adapter_verdict(record(report)).uas["linux"].grade == "recommended"  # 152d:0578: no IGNORE_UAS
