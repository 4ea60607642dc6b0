"""Verdicts exactly as strong as their evidence: depth, link, grade, quirk provenance and "no verdict" texts
(scripts/uasdb/verdicts/engine.py, rules 4, 6, 8 and 9)."""
import pytest

from uasdb.verdicts.engine import (
    adapter_verdict,
    boot_verdict_for_platform,
    list_for,
    report_depth,
    report_link,
    summary_line,
    verdict_for_platform,
)

LSUSB_T_UAS_480 = "|__ Port 1: Dev 3, If 0, Class=Mass Storage, Driver=uas, 480M"
LSUSB_T_UAS_10G = "/:  Bus 04.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 10000M\n" \
                  "    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 10000M"
DMESG_SS = "usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\nscsi host0: uas"
DMESG_SSP = "usb 4-1: new SuperSpeed Plus Gen 2x1 USB device number 2 using xhci-hcd\nscsi host0: uas"
DMESG_TWO = "usb 1-1.3: new high-speed USB device number 4 using xhci_hcd\nusb 2-1: new SuperSpeed USB device number 2 using xhci_hcd"
ABORT = "sd 0:0:0:0: [sda] tag#2 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"


def r(host="pi4", date="2021-01-01", **fields):
    return dict({"date": date, "source": {"url": "https://example.org/"}, "host": host}, **fields)


def record(*reports, usb_ids=(("152d", "0578"),)):
    return {"id": "x", "usb_ids": [{"vid": v, "pid": p} for v, p in usb_ids], "reports": list(reports)}


def seq(value, unit="MB/s", test="seq-read"):
    return {"tool": "dd", "test": test, "value": value, "unit": unit}


DEPTH_CASES = [
    ("a driver and nothing else is a snapshot", r(driver="uas"), "bound"),
    ("a probe attached is still a snapshot", r(evidence={"probe": "x"}), "bound"),
    ("a stated workload is use", r(driver="uas", workload=["server"]), "used"),
    ("a benchmark figure is use", r(driver="uas", throughput=[seq(30)]), "used"),
    ("stable under sustained use is use", r(driver="uas", stability="stable"), "used"),
    ("booting the OS from it is use", r(driver="uas", boot="works"), "used"),
    ("a boot that failed is no use", r(driver="uas", boot="fails"), "bound"),
    ("days of use", r(driver="uas", in_use_for="days"), "used"),
    ("weeks of use is long-term", r(driver="uas", in_use_for="weeks"), "long-term"),
    ("years of use is long-term", r(driver="uas", workload=["raid"], in_use_for="years"), "long-term"),
]


@pytest.mark.parametrize("name,report,depth", DEPTH_CASES, ids=[c[0] for c in DEPTH_CASES])
def test_depth_of_a_report(name, report, depth):
    assert report_depth(report) == depth


LINK_CASES = [
    ("stated link_speed wins", r(link_speed="480M", evidence={"dmesg": DMESG_SS}), ("480M", "stated")),
    ("lsusb -t line of the storage interface", r(evidence={"lsusb_t": LSUSB_T_UAS_10G}), ("10000M", "evidence")),
    ("lsusb -t at 480M", r(evidence={"lsusb_t": LSUSB_T_UAS_480}), ("480M", "evidence")),
    ("dmesg SuperSpeed", r(evidence={"dmesg": DMESG_SS}), ("5000M", "evidence")),
    ("dmesg SuperSpeed Plus Gen 2x1", r(evidence={"dmesg": DMESG_SSP}), ("10000M", "evidence")),
    ("two devices at two speeds say nothing", r(evidence={"dmesg": DMESG_TWO}), (None, None)),
    ("a figure above USB 2's ceiling", r(throughput=[seq(61)]), ("5000M", "throughput")),
    ("MiB/s converted before comparing", r(throughput=[seq(58, "MiB/s")]), ("5000M", "throughput")),
    ("a figure USB 2 can carry says nothing", r(throughput=[seq(40)]), (None, None)),
    ("random 4K figures say nothing of the link", r(throughput=[seq(300, test="rand4k-read")]), (None, None)),
    ("nothing shown", r(driver="uas"), (None, None)),
]


@pytest.mark.parametrize("name,report,link", LINK_CASES, ids=[c[0] for c in LINK_CASES])
def test_link_of_a_report(name, report, link):
    assert report_link(report) == link


# (name, reports, verdict, grade, short, recommended) — the grade of a Pi 4 UAS verdict.
GRADE_CASES = [
    ("used at 5000M is recommended", [r(driver="uas", workload=["copy"], link_speed="5000M")],
     "works", "recommended", "Works", True),
    ("bound at 5000M binds only", [r(driver="uas", link_speed="5000M")], "works", "bound", "Binds UAS", False),
    ("used at 480M only", [r(driver="uas", workload=["copy"], link_speed="480M")], "works", "slow-only", "Works at 480M",
     False),
    ("used, link not shown", [r(driver="uas", stability="stable")], "works", "pending", "Works (pending)", False),
    ("bound at 5000M and used elsewhere at unknown link: still pending",
     [r(driver="uas", link_speed="5000M"), r(driver="uas", stability="stable")], "works", "pending", "Works (pending)",
     False),
    ("hearsay used at 5000M is never recommended", [r(uas="works", workload=["copy"], link_speed="5000M")],
     "works", None, "Likely works", False),
    ("used at 5000M and a strong failure: mixed, not recommended",
     [r(driver="uas", workload=["copy"], link_speed="5000M"), r(driver="uas", stability="errors", notes="x")],
     "mixed", None, "Mixed", False),
    ("the quirk applied and working, failure not shown",
     [r(driver="usb-storage", quirks="u", evidence={"dmesg": "usb 2-2: UAS is ignored for this device, using usb-storage instead"})],
     "works-with-quirk", "failure-not-shown", "Works with quirk", False),
    ("a stated need for the quirk", [r(uas="works-with-quirk", quirks="u")], "works-with-quirk", None, "Needs quirk", False),
    ("trouble shown, then the quirk", [r(uas="works-with-quirk", quirks="u", evidence={"dmesg": ABORT})],
     "works-with-quirk", None, "Needs quirk", False),
    ("errors of unknown cause", [r(driver="uas", stability="errors", blamed_on="unknown", notes="x")],
     "broken", "cause-not-isolated", "Errors", False),
    ("errors blamed on the adapter are broken", [r(driver="uas", stability="errors", blamed_on="adapter", notes="x")],
     "broken", None, "Broken", False),
]


@pytest.mark.parametrize("name,reports,verdict,grade,short,recommended", GRADE_CASES, ids=[c[0] for c in GRADE_CASES])
def test_grade_of_a_uas_verdict(name, reports, verdict, grade, short, recommended):
    pv = verdict_for_platform(reports, "pi4")
    assert (pv.verdict, pv.grade, pv.short, pv.recommended) == (verdict, grade, short, recommended)


def test_a_bind_only_snapshot_reads_as_one():
    pv = verdict_for_platform([r(driver="uas", evidence={"lsusb_t": LSUSB_T_UAS_480}, date="2020")], "pi4")
    assert pv.basis_text == "1 report · observed · binds uas at 480M (USB 2 speed), not tried under load · 2020"
    assert "not tried under load" in pv.text and "pending" in pv.text and pv.tone == "fair"


def test_success_at_480m_never_outweighs_a_failure_at_5000m():
    # icy-box-ib-183m2: UAS fails on the USB 3 port and works on a USB 2 port; that is "needs the quirk on USB 3".
    reports = [r(uas="works-with-quirk", quirks="u", link_speed="5000M", evidence={"dmesg": ABORT}),
               r(uas="works", driver="uas", link_speed="480M")]
    pv = verdict_for_platform(reports, "pi4")
    assert (pv.verdict, pv.confidence, pv.counted, pv.set_aside_at_480m) == ("works-with-quirk", "confirmed", [0], [1])
    assert pv.link_note == "UAS works without a quirk at 480M (USB 2 speed, 1 report)"
    assert pv.text == ("works only with a quirk on a USB 3 port; UAS works without a quirk at 480M (USB 2 speed, "
                       "1 report)")
    assert pv.link_note in pv.text
    listing, reasons = list_for({"pi4": pv, "pi5": verdict_for_platform([], "pi5")},
                                {"pi4": boot_verdict_for_platform([], "pi4"), "pi5": boot_verdict_for_platform([], "pi5")})
    assert listing == "naughty" and reasons == ["needs a usb-storage quirk on Pi 4 on USB 3 — UAS works without a quirk "
                                                "at 480M (USB 2 speed, 1 report)"]


def test_failure_and_success_at_the_same_480m_link_disagree():
    pv = verdict_for_platform([r(driver="uas", link_speed="480M", stability="errors", notes="x"),
                               r(driver="uas", link_speed="480M", workload=["copy"])], "pi4")
    assert pv.verdict == "mixed" and pv.set_aside_at_480m == []


def test_a_failure_of_unknown_link_still_sets_a_480m_success_aside():
    pv = verdict_for_platform([r(driver="uas", stability="errors", notes="x"), r(driver="uas", link_speed="480M")], "pi4")
    assert pv.verdict == "broken" and pv.set_aside_at_480m == [1]


BOOT_GRADE_CASES = [
    ("boots sometimes", [r(boot="intermittent", notes="x")], "intermittent", "Boots sometimes", "warn"),
    ("boots only from a USB 2 port", [r(boot="works", link_speed="480M")], "works", "Boots from USB 2", "fair"),
    ("fails on USB 3, boots from USB 2: the USB 3 attempt decides",
     [r(boot="fails", link_speed="5000M", notes="x"), r(boot="works", link_speed="480M")], "fails", "Does not boot", "bad"),
    ("boots over USB 3", [r(boot="works", link_speed="5000M")], "works", "Boots", "good"),
]


@pytest.mark.parametrize("name,reports,verdict,short,tone", BOOT_GRADE_CASES, ids=[c[0] for c in BOOT_GRADE_CASES])
def test_boot_grades(name, reports, verdict, short, tone):
    pv = boot_verdict_for_platform(reports, "pi4")
    assert (pv.verdict, pv.short, pv.tone) == (verdict, short, tone)


def test_a_usb3_boot_failure_names_the_usb2_boot_beside_it():
    pv = boot_verdict_for_platform([r("pi5", boot="fails", link_speed="5000M", notes="x"),
                                    r("pi5", boot="works", link_speed="480M")], "pi5")
    assert pv.text == "does not boot from it on a USB 3 port; from a USB 2 port it boots (480M, 1 report)"


def test_a_failure_on_a_stated_usb3_port_is_tied_to_it():
    """sabrent-ec-snve: on a Pi 5's USB 3 port the system came up and then reads failed (no link shown); on a USB 2
    port it booted. The product is not "does not boot a Pi 5" without saying where."""
    reports = [r("pi5", boot="fails", port="usb3", notes="x"), r("pi5", boot="works", port="usb2")]
    verdict = adapter_verdict(record(*reports))
    assert verdict.boot["pi5"].text == "does not boot from it on a USB 3 port; from a USB 2 port it boots (480M, 1 report)"
    assert verdict.reasons == ["does not boot a Pi 5 from a USB 3 port — from a USB 2 port it boots (480M, 1 report)"]
    assert report_link(reports[1]) == ("480M", "port") and report_link(reports[0]) == (None, None)


ABOUT_CASES = [
    ("no reports at all", [], "uas", "Untested", "no reports yet"),
    ("boot reports only", [r(boot="works"), r(boot="fails", notes="x")], "uas", "No verdict",
     "2 Pi 4 reports, no UAS verdict: 2 about booting only"),
    ("a report naming no driver", [r(smart="works")], "uas", "No verdict",
     "1 Pi 4 report, no UAS verdict: 1 naming no driver or UAS outcome"),
    ("a failure blamed on the hub", [r(driver="uas", stability="errors", blamed_on="hub", notes="x")], "uas", "No verdict",
     "1 Pi 4 report, no UAS verdict: 1 not counted (blamed on the hub)"),
    ("UAS reports are not boot reports", [r(driver="uas")], "boot", "Untested", "no boot reports yet"),
    ("a boot failure blamed on power", [r(driver="uas"), r(boot="fails", blamed_on="power", notes="x")], "boot", "No verdict",
     "1 Pi 4 report, no boot verdict: 1 not counted (blamed on power)"),
]


@pytest.mark.parametrize("name,reports,kind,short,text", ABOUT_CASES, ids=[c[0] for c in ABOUT_CASES])
def test_no_reports_yet_only_when_there_are_none(name, reports, kind, short, text):
    pv = verdict_for_platform(reports, "pi4") if kind == "uas" else boot_verdict_for_platform(reports, "pi4")
    assert (pv.verdict, pv.short, pv.text) == ("untested", short, text)


def test_summary_of_a_product_with_only_boot_reports_says_so():
    verdict = adapter_verdict(record(r(boot="works")))
    assert summary_line(verdict) == "Raspberry Pi 4: no UAS verdict; booting: boots from it."


def test_each_quirk_entry_says_where_it_came_from():
    verdict = adapter_verdict(record(
        r("linux-x86_64", uas="works-with-quirk", quirks="u", kernel="6.6.13"),
        r("linux-x86_64", uas="works-with-quirk", quirks="u", kernel="6.1.0"),
        r(uas="works", driver="uas", workload=["copy"], link_speed="5000M")))
    assert verdict.quirk_sources == [{"usb_id": "152d:0578", "flags": "u", "entry": "152d:0578:u", "platforms": ["linux"],
                                      "reports": [0, 1], "kernels": ["6.1.0", "6.6.13"], "failure_shown": True,
                                      "where": "Linux PC, kernel 6.1.0, 6.6.13, 2 reports"}]
    assert verdict.quirk_entries_for(["pi4", "pi5"]) == [] and verdict.quirk_entries_for(["linux"]) == ["152d:0578:u"]


# (name, reports, scope): which quirk line the adapter page offers, and for whom.
ADVICE_CASES = [
    ("nothing needed", [r(uas="works", driver="uas")], "none"),
    ("needed on a Pi", [r(uas="works-with-quirk", quirks="u")], "pi"),
    ("a PC's line while a Pi works without", [r("linux-x86_64", uas="works-with-quirk", quirks="u"),
                                              r(uas="works", driver="uas")], "elsewhere-pi-works"),
    ("a PC's line, no Pi verdict", [r("linux-x86_64", uas="works-with-quirk", quirks="u")], "elsewhere"),
    ("hearsay works on a Pi does not count as works", [r("linux-x86_64", uas="works-with-quirk", quirks="u"),
                                                      r(uas="works")], "elsewhere"),
]


@pytest.mark.parametrize("name,reports,scope", ADVICE_CASES, ids=[c[0] for c in ADVICE_CASES])
def test_advice_scope(name, reports, scope):
    assert adapter_verdict(record(*reports)).advice["scope"] == scope


def test_a_pc_line_is_never_offered_as_the_pis():
    advice = adapter_verdict(record(r("linux-x86_64", uas="works-with-quirk", quirks="u", kernel="6.6.13"),
                                    r(uas="works", driver="uas", workload=["copy"], link_speed="5000M"))).advice
    assert advice["text"] == ("On a Pi 4 UAS works without a quirk, so nothing to add there. On a Linux PC a report "
                              "needed this line (152d:0578:u: Linux PC, kernel 6.6.13, 1 report); use it only if yours "
                              "shows the same trouble.")


PENDING_CASES = [
    ("bound", [r(driver="uas", link_speed="5000M")], "UAS binds without a quirk on Pi 4, not yet tried under load"),
    ("slow", [r(driver="uas", workload=["copy"], link_speed="480M")],
     "UAS works without a quirk on Pi 4, but only seen at 480M (USB 2 speed)"),
    ("link unknown", [r(driver="uas", workload=["copy"])],
     "UAS works without a quirk on Pi 4, but no report shows it used at 5 Gbit/s or faster"),
]


@pytest.mark.parametrize("name,reports,reason", PENDING_CASES, ids=[c[0] for c in PENDING_CASES])
def test_pending_says_what_is_missing(name, reports, reason):
    verdict = adapter_verdict(record(*reports))
    assert (verdict.listing, verdict.reasons) == ("pending", [reason])


def test_hearsay_against_keeps_a_pending_product_off_every_list():
    verdict = adapter_verdict(record(r(driver="uas", link_speed="5000M"), r("pi5", uas="broken", notes="x")))
    assert verdict.listing is None


def test_readings_carry_depth_and_link_for_each_report():
    verdict = adapter_verdict(record(r(driver="uas", workload=["copy"], evidence={"lsusb_t": LSUSB_T_UAS_10G})))
    reading = verdict.readings(1)[0]["uas"]
    assert (reading["depth"], reading["link"], reading["link_from"]) == ("used", "10000M", "evidence")
    assert reading["depth_text"] == "used at 10000M"
