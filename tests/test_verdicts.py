"""The verdict rule, case by case (CONTRIBUTING.md states the same rule in words)."""
import pytest

from uasdb.verdicts import adapter_verdict, combined_quirk_line, verdict_for_platform


def r(host="pi4", **fields):
    return dict({"date": "2021-01-01", "source": {"url": "https://example.org/"}, "host": host}, **fields)


def record(*reports, usb_ids=(("152d", "0578"),)):
    return {"id": "x", "usb_ids": [{"vid": v, "pid": p} for v, p in usb_ids], "reports": list(reports)}


UAS_CASES = [
    ("no reports", [], "pi4", "untested"),
    ("one works", [r(uas="works")], "pi4", "works"),
    ("pi400 counts for pi4", [r("pi400", uas="works")], "pi4", "works"),
    ("cm4 counts for pi4", [r("cm4", uas="works-with-quirk", quirks="u")], "pi4", "works-with-quirk"),
    ("agreeing quirk reports", [r(uas="works-with-quirk", quirks="u"), r(uas="works-with-quirk", quirks="u")], "pi4", "works-with-quirk"),
    ("works vs quirk is mixed", [r(uas="works"), r(uas="works-with-quirk", quirks="u")], "pi4", "mixed"),
    ("works vs broken is mixed", [r(uas="works"), r(uas="broken", notes="x")], "pi4", "mixed"),
    ("broken blamed on power is not counted", [r(uas="works"), r(uas="broken", blamed_on="power", notes="x")], "pi4", "works"),
    ("only a discounted report", [r(uas="broken", blamed_on="hub", notes="x")], "pi4", "untested"),
    ("blamed on adapter counts", [r(uas="works"), r(uas="broken", blamed_on="adapter", notes="x")], "pi4", "mixed"),
    ("device without UAS", [r(uas="device-no-uas", driver="usb-storage")], "pi4", "no-uas"),
    ("pi5 report does not speak for pi4", [r("pi5", uas="broken", notes="x")], "pi4", "untested"),
    ("pi5 report speaks for pi5", [r("pi5", uas="broken", notes="x")], "pi5", "broken"),
    ("pi3 host-no-uas stable works", [r("pi3b-plus", uas="host-no-uas")], "pi3", "works"),
    ("pi3 host-no-uas with errors", [r("pi3", uas="host-no-uas", stability="errors", notes="x")], "pi3", "broken"),
    ("host-no-uas on a PC says nothing", [r("linux-x86_64", uas="host-no-uas")], "linux", "untested"),
    ("report without uas outcome says nothing", [r(boot="works")], "pi4", "untested"),
    ("macOS", [r("macos", uas="works")], "macos", "works"),
    ("linux arm64 is linux", [r("linux-arm64", uas="works")], "linux", "works"),
]


@pytest.mark.parametrize("name,reports,platform,expected", UAS_CASES, ids=[c[0] for c in UAS_CASES])
def test_uas_verdict(name, reports, platform, expected):
    assert verdict_for_platform(reports, platform).verdict == expected


def test_conflicts_are_shown_not_averaged():
    verdict = verdict_for_platform([r(uas="works"), r(uas="works-with-quirk", quirks="u"), r(uas="works")], "pi4")
    assert verdict.verdict == "mixed"
    assert verdict.classes == {"works": [0, 2], "works-with-quirk": [1]}


def test_discounted_reports_are_listed():
    verdict = verdict_for_platform([r(uas="broken", blamed_on="power", notes="x")], "pi4")
    assert verdict.discounted == [0] and verdict.counted == []


LIST_CASES = [
    ("works and boots is nice", [r(uas="works", boot="works")], "nice"),
    ("works, boot untested: neither", [r(uas="works")], None),
    ("works, boot needs workaround: neither", [r(uas="works", boot="works-with-workaround", boot_workaround="x")], None),
    ("quirk is naughty", [r(uas="works-with-quirk", quirks="u", boot="works")], "naughty"),
    ("broken is naughty", [r(uas="broken", notes="x")], "naughty"),
    ("mixed is naughty", [r(uas="works", boot="works"), r(uas="broken", notes="x")], "naughty"),
    ("boot fails is naughty", [r(uas="works", boot="fails", notes="x")], "naughty"),
    ("boot disagreement is naughty", [r(uas="works", boot="works"), r(boot="fails", notes="x")], "naughty"),
    ("boot failure blamed on power: still nice", [r(uas="works", boot="works"), r(boot="fails", blamed_on="power", notes="x")], "nice"),
    ("pi5 failure does not list", [r("pi5", uas="broken", notes="x")], None),
    ("no uas on adapter: neither", [r(uas="device-no-uas", boot="works")], None),
]


@pytest.mark.parametrize("name,reports,expected", LIST_CASES, ids=[c[0] for c in LIST_CASES])
def test_lists(name, reports, expected):
    assert adapter_verdict(record(*reports)).listing == expected


def test_naughty_reasons_say_why():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u", boot="fails", notes="x")))
    assert verdict.reasons == ["needs a usb-storage quirk on Pi 4", "does not boot a Pi 4"]


def test_quirk_line_applies_flags_to_every_id():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u"), usb_ids=(("152d", "0578"), ("152d", "a578"))))
    assert verdict.quirk_line == "usb-storage.quirks=152d:0578:u,152d:a578:u"


def test_quirk_line_uses_the_reported_id_only():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u", usb_id="152d:a578"), usb_ids=(("152d", "0578"), ("152d", "a578"))))
    assert verdict.quirk_entries == ["152d:a578:u"]


def test_quirk_flags_from_several_reports_are_united_and_sorted():
    verdict = adapter_verdict(record(r(uas="works-with-quirk", quirks="u"), r("linux-x86_64", uas="works-with-quirk", quirks="tu")))
    assert verdict.quirk_entries == ["152d:0578:tu"]


def test_no_quirk_line_from_macos_or_discounted_reports():
    verdict = adapter_verdict(record(r("macos", uas="works-with-quirk", quirks="u"),
                                     r(uas="works-with-quirk", quirks="t", blamed_on="cable")))
    assert verdict.quirk_line is None


def test_combined_quirk_line_merges_shared_ids():
    a = adapter_verdict(record(r(uas="works-with-quirk", quirks="u")))
    b = adapter_verdict(record(r(uas="works-with-quirk", quirks="t"), usb_ids=(("152d", "0578"), ("174c", "55aa"))))
    assert combined_quirk_line([a, b]) == "usb-storage.quirks=152d:0578:tu,174c:55aa:t"
    assert combined_quirk_line([]) is None


def test_quirk_line_length_limit_is_the_kernels():
    from uasdb.verdicts import QUIRKS_PARAM_MAX_CHARS, quirk_line_fits, quirk_value_length
    ten = "usb-storage.quirks=" + ",".join(f"152d:{n:04x}:u" for n in range(10))   # 10*11 + 9 commas = 119
    eleven = "usb-storage.quirks=" + ",".join(f"152d:{n:04x}:u" for n in range(11))  # 131
    assert quirk_value_length(ten) == 119 and quirk_line_fits(ten)
    assert quirk_value_length(eleven) == 131 and not quirk_line_fits(eleven)
    assert QUIRKS_PARAM_MAX_CHARS == 127 and quirk_line_fits(None)
