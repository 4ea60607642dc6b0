"""The check page (/check/): its JavaScript parsers read the real captures exactly as the probe's parsers do, and
pasting each capture (or the probe's own output) shows the right USB IDs, drivers, verdicts and flags."""
from __future__ import annotations

import contextlib
import io
import json
import re
import urllib.request

import pytest

from uasdb import probe
from uasdb.paths import REPO_ROOT

pytestmark = pytest.mark.browser

PROBE_FIXTURES = REPO_ROOT / "tests" / "fixtures" / "probe"
CAPTURED = PROBE_FIXTURES / "captured"
CAPTURES = sorted(p.name for p in CAPTURED.glob("*.txt"))


def captured(name: str) -> str:
    return (CAPTURED / name).read_text(encoding="utf-8")


def probe_output(tree: str) -> str:
    """What `probe.py --root <fixture tree>` prints, as a person would paste it."""
    args = ["--date", "2026-11-21", "--handle", "octocat", "--root", str(PROBE_FIXTURES / "trees" / tree)]
    if (PROBE_FIXTURES / "commands" / tree).is_dir():
        args += ["--captured", str(PROBE_FIXTURES / "commands" / tree)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert probe.main(args) == 0
    return out.getvalue()


def python_parse(text: str) -> dict:
    return json.loads(json.dumps({
        "ids": probe.find_usb_ids(text), "lsusb": probe.parse_lsusb(text), "tree": probe.parse_lsusb_tree(text),
        "verbose": probe.parse_lsusb_verbose(text), "dmesg": probe.parse_dmesg(text), "ioreg": probe.parse_ioreg(text),
        "profiler": probe.parse_system_profiler(text),
        "macos": probe.join_macos(probe.parse_ioreg(text), probe.parse_system_profiler(text)),
    }))


JS_PARSE = """{ids: m.findUsbIds(args[0]), lsusb: m.parseLsusb(args[0]), tree: m.parseLsusbTree(args[0]),
  verbose: m.parseLsusbVerbose(args[0]), dmesg: m.parseDmesg(args[0]), ioreg: m.parseIoreg(args[0]),
  profiler: m.parseSystemProfiler(args[0]), macos: m.joinMacos(m.parseIoreg(args[0]), m.parseSystemProfiler(args[0]))}"""


# --------------------------------------------------------------------------- the page


def run_check(page, text: str) -> None:
    page.locator("#check-paste").fill(text)
    page.get_by_role("button", name="Check").click()
    page.locator(".check-status").filter(has_text=re.compile(r"^(Found|No)")).wait_for()


def shown(page) -> dict:
    """USB ID -> driver ('' when the paste does not say) for every adapter section the page shows."""
    return {s.get_attribute("data-usb-id"): s.get_attribute("data-driver") for s in page.locator("section.found").all()}


def orphan_drivers(page) -> list:
    return [li.get_attribute("data-driver") for li in page.locator(".orphans li").all()]


# capture -> (adapter sections {id: driver}, drivers seen without an ID, other IDs)
EXPECTED = {
    "seed-comment-lsusb-two-bridges.txt": ({"152d:0567": "usb-storage", "174c:55aa": "uas"}, [], []),
    "seed-comment-jms578-lsusb.txt": ({"152d:0578": "uas"}, [], []),
    "rpi-linux-3070-dmesg-blacklisted.txt": ({"152d:0578": "usb-storage"}, [], []),
    "rpi-eeprom-361-dmesg-uas.txt": ({"152d:0578": "uas"}, [], []),
    "tobetter-5-dmesg-uas.txt": ({"152d:3562": "uas"}, [], []),
    "rpi-eeprom-194-lsusb-v.txt": ({"152d:0578": ""}, [], []),
    "rpi-linux-4498-lsusb-v.txt": ({"152d:0567": ""}, [], []),
    "smartmontools-617-lsusb-v.txt": ({"152d:0586": ""}, [], []),
    "rpi-linux-4498-lsusb-t.txt": ({}, ["usb-storage"], []),
    "seed-geerling-lsusb-t.txt": ({}, ["uas"], []),
    "seed-comment-lsusb-t-hub-480m.txt": ({}, ["uas"], []),
    "seed-comment-dmesg-uas.txt": ({}, ["uas"], []),
    "seed-ioreg-uas.txt": ({}, ["uas"], []),
    "system-profiler-android.txt": ({"19d2:ffb0": ""}, [], ["0a5c:4500", "05ac:828f"]),
}


def test_every_capture_has_an_expectation():
    # The last: a long dmesg for the probe's too-long-for-a-link case, with trouble but no USB ID or driver line.
    nothing = {"tobetter-5-lsusb-v-uas-altsetting.txt", "ironsheep-91-vcgencmd-bootloader-version.txt",
               "linux-usb-2020-12-05-dmesg-uas-resets.txt"}
    assert set(EXPECTED) | nothing == set(CAPTURES)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_pasting_each_capture_finds_its_ids_and_drivers(watched_page, name):
    sections, orphans, others = EXPECTED[name]
    page = watched_page
    page.goto("/check/")
    run_check(page, captured(name))
    assert shown(page) == sections
    assert orphan_drivers(page) == orphans
    assert [li.get_attribute("data-usb-id") for li in page.locator(".others-list li").all()] == others
    if orphans:
        assert "not in the paste" in page.locator(".orphans").inner_text()
    assert page.problems == []


@pytest.mark.parametrize("tree, driver, platform", [
    ("pi4-uas", "uas", "pi4"), ("pi4-kernel-ignores-uas", "usb-storage", "pi4"), ("pi3-usb-storage", "usb-storage", "pi3"),
])
def test_pasting_probe_output_finds_the_driver_and_the_computer(watched_page, tree, driver, platform):
    page = watched_page
    page.goto("/check/")
    run_check(page, probe_output(tree))
    assert shown(page) == {"152d:0578": driver}
    assert page.locator("#check-platform").input_value() == platform
    assert page.problems == []


def test_usb_storage_but_works_with_uas_is_flagged(watched_page, site):
    """The kernel in the capture refused UAS; a fixture product with the same ID reports UAS working on a Pi 4."""
    page = watched_page
    page.goto("/check/")
    run_check(page, captured("rpi-linux-3070-dmesg-blacklisted.txt"))
    flag = page.locator('section.found[data-usb-id="152d:0578"] [data-flag="usb-storage-but-uas-works"]')
    assert flag.count() == 1
    text = flag.inner_text()
    assert "on usb-storage, but reports say it works with UAS" in text
    assert site.adapter("fixture-second-jms")["name"] in text
    assert "UAS is blacklisted" in text  # why: the old kernel's own table
    assert flag.locator('a[href="/adapters/fixture-second-jms/"]').count() == 1
    assert page.locator('[data-flag="uas-but-needs-quirk"]').count() == 0
    assert page.problems == []


def test_own_quirk_is_named_as_the_reason(watched_page):
    page = watched_page
    page.goto("/check/")
    run_check(page, probe_output("pi4-user-quirk"))
    flag = page.locator('[data-flag="usb-storage-but-uas-works"]')
    assert "152d:0578:u" in flag.inner_text() and "turns UAS off" in flag.inner_text()
    assert "usb-storage.quirks=152d:0578:u" in page.locator("#check-results").inner_text()


def test_uas_but_reports_need_the_quirk_is_flagged_with_the_line(browser, site):
    context = browser.new_context(base_url=site.url, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/check/")
    run_check(page, captured("seed-comment-jms578-lsusb.txt"))
    flag = page.locator('[data-flag="uas-but-needs-quirk"]')
    assert flag.count() == 1
    assert "on uas, but reports say it needs the quirk" in flag.inner_text()
    assert site.adapter("fixture-naughty-jms")["name"] in flag.inner_text()
    line = site.adapter("fixture-naughty-jms")["verdict"]["quirk_line"]
    assert page.locator("#check-line").inner_text().replace("\n", "") == line
    page.locator("#check-results").get_by_role("button", name="Copy", exact=True).click()
    assert page.evaluate("navigator.clipboard.readText()") == line
    builder = page.get_by_role("link", name="Change it in the quirk builder").get_attribute("href")
    assert builder == "/quirks/?entries=152d:0578:u"
    context.close()


def test_verdicts_and_kernel_facts_for_each_id(watched_page, site):
    page = watched_page
    page.goto("/check/")
    run_check(page, captured("seed-comment-lsusb-two-bridges.txt"))
    nice = page.locator('section.found[data-usb-id="174c:55aa"]')
    assert "Works" in nice.locator(".matches").inner_text()
    assert nice.locator('a[href="/adapters/fixture-nice-sata/"]').count() == 1
    assert nice.locator("[data-flag]").count() == 0  # on uas and reports agree: nothing to flag
    unknown = page.locator('section.found[data-usb-id="152d:0567"]')
    assert "No adapter record has this ID yet" in unknown.inner_text()
    kernel = unknown.inner_text()
    assert "Linux 6.12 already applies to 152d:0567" in kernel and "NO_REPORT_OPCODES" in kernel
    assert "drivers/usb/storage/unusual_uas.h:" in kernel
    page.select_option("#check-platform", "pi5")
    page.locator(".check-summary").filter(has_text="Raspberry Pi 5").wait_for()
    assert "Raspberry Pi 5 UAS" in nice.inner_text()
    assert page.problems == []


@pytest.mark.parametrize("text", [
    "hello, my disk does not work on the pi",
    "Error: sda: unable to read partition table\nI/O error, dev sda",
    captured("ironsheep-91-vcgencmd-bootloader-version.txt"),
    captured("tobetter-5-lsusb-v-uas-altsetting.txt"),  # a lsusb -v fragment without the device's IDs
])
def test_garbage_gets_an_explanation(watched_page, text):
    page = watched_page
    page.goto("/check/")
    run_check(page, text)
    explanation = page.locator("[data-nothing-found]")
    assert explanation.is_visible()
    assert "No USB ID or storage driver found" in explanation.inner_text()
    assert "lsusb" in explanation.inner_text() and "dmesg" in explanation.inner_text()
    assert page.locator("section.found").count() == 0
    assert page.problems == []


def test_empty_paste_asks_for_output(watched_page):
    page = watched_page
    page.goto("/check/")
    page.get_by_role("button", name="Check").click()
    page.locator(".check-status").filter(has_text="Paste some output first").wait_for()
    assert "lsusb" in page.locator("#check-results").inner_text()


def test_ids_in_the_address_prefill_the_check(watched_page):
    page = watched_page
    page.goto("/check/?ids=152d:0578,174c:55aa")
    page.locator(".check-status").filter(has_text=re.compile(r"^Found")).wait_for()
    assert page.locator("#check-paste").input_value() == "152d:0578\n174c:55aa"
    assert set(shown(page)) == {"152d:0578", "174c:55aa"}
    assert page.problems == []


def test_a_bare_unknown_id_is_answered_not_hidden(watched_page):
    page = watched_page
    page.goto("/check/")
    run_check(page, "ffff:0001")
    section = page.locator('section.found[data-usb-id="ffff:0001"]')
    assert "No adapter record has this ID yet" in section.inner_text()
    assert "Linux 6.12 has no built-in quirk for ffff:0001" in section.inner_text()


def test_links_the_results_make_resolve(watched_page, site):
    page = watched_page
    page.goto("/check/")
    run_check(page, captured("seed-comment-lsusb-two-bridges.txt") + "\n" + captured("seed-comment-jms578-lsusb.txt"))
    hrefs = set(page.locator("#check-results a[href^='/']").evaluate_all("els => els.map(e => e.getAttribute('href'))"))
    assert "/adapters/fixture-naughty-jms/" in hrefs
    for href in hrefs:
        assert urllib.request.urlopen(site.url + href).status == 200, href


def test_without_javascript_the_page_says_what_to_use(browser, site):
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/check/")
    assert page.locator("#check-form").is_hidden()
    assert "needs JavaScript" in page.locator("main").inner_text()  # the <noscript> text shows
    for href in ("/adapters/", "/naughty/"):
        assert page.locator(f'main a[href="{href}"]').count() >= 1
    context.close()


def test_check_and_quirk_scripts_load_only_on_their_pages(site):
    for path in ("adapters/fixture-naughty-jms", "naughty", "", "adapters"):
        html = (site.public / path / "index.html").read_text()
        assert not re.search(r"/js/(check|quirks)\.", html), path
    assert re.search(r'<script type="module" src="/js/check\.[0-9a-f]+\.js" integrity="sha384-', (site.public / "check/index.html").read_text())
    assert re.search(r'<script type="module" src="/js/quirks\.[0-9a-f]+\.js" integrity="sha384-', (site.public / "quirks/index.html").read_text())


def test_hostile_record_text_stays_text_in_the_results(watched_page, site):
    page = watched_page
    page.goto("/check/?ids=abcd:1234")
    page.locator(".check-status").filter(has_text=re.compile(r"^Found")).wait_for()
    assert page.locator(".matches a").inner_text() == site.adapter("fixture-hostile")["name"]
    assert page.evaluate("window.__xss") is None
    assert page.locator("#check-results img, #check-results script, #check-results [onerror]").count() == 0
    assert page.problems == []


# One ASMedia 174c:55aa unit, as `lsusb -v` (with `lsusb -t` for the link) prints it; the three variants differ only
# in what uas-detect.h looks at, so each must lead to a different decision.
ASMEDIA_V = """Bus 002 Device 002: ID 174c:55aa ASMedia Technology Inc. ASM1051E SATA 6Gb/s bridge
Device Descriptor:
  bcdUSB               3.00
  idVendor           0x174c ASMedia Technology Inc.
  idProduct          0x55aa ASM1051E SATA 6Gb/s bridge
  bcdDevice            1.00
  iManufacturer           2 asmedia
  iProduct                3 ASMT1051
    MaxPower              {power}
      bAlternateSetting       1
      bInterfaceClass         8 Mass Storage
      bInterfaceProtocol     98
        MaxStreams             {streams}
/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M
    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=usb-storage, 5000M
"""


@pytest.mark.parametrize("power, streams, expected", [
    ("0mA", "32", "For your unit (MaxPower 0 mA) Linux 6.12 keeps UAS and adds nothing: it takes the bridge for an ASM1153"),
    ("36mA", "32", "For your unit (32 streams) Linux 6.12 adds"),
    ("36mA", "16", "For your unit (MaxPower 36 mA, 16 streams at 5000M) Linux 6.12 adds"),
])
def test_check_applies_the_kernels_own_tests_to_the_pasted_unit(watched_page, power, streams, expected):
    """uas-detect.h tells ASMedia bridges sharing 174c:55aa apart by MaxPower, link speed and streams: the check
    page reads those from `lsusb -v` and says what Linux does with this unit and which chip that points to."""
    page = watched_page
    page.goto("/check/")
    run_check(page, ASMEDIA_V.format(power=power, streams=streams))
    text = page.locator('section.found[data-usb-id="174c:55aa"]').inner_text()
    assert expected in text
    assert f"MaxPower {power[:-2]} mA" in text and f"{streams} streams" in text
    if streams == "32" and power != "0mA":
        assert "ASM1051" in text and "turns UAS off for this unit by itself" in text
    if streams == "16":
        assert "ASM1053" in text
    assert page.problems == []


def test_check_asks_for_lsusb_v_when_the_kernel_decides_by_the_device(watched_page):
    page = watched_page
    page.goto("/check/")
    run_check(page, "Bus 002 Device 002: ID 174c:55aa ASMedia Technology Inc.")
    text = page.locator('section.found[data-usb-id="174c:55aa"]').inner_text()
    assert "to see which applies to yours" in text and "lsusb -v -d 174c:55aa" in text


def test_a_distribution_that_already_sets_the_quirk_is_named(watched_page, site):
    page = watched_page
    page.goto("/check/")
    run_check(page, "174c:55aa\n152d:0567")
    shipped = page.locator('section.found[data-usb-id="174c:55aa"] [data-distributions="174c:55aa"]')
    assert "Fixture OS already sets 174c:55aa:u on its Raspberry Pi 4 images" in shipped.inner_text()
    assert shipped.locator('a[href="https://example.com/fixture-os/pull/1"]').count() == 1
    assert page.locator('section.found[data-usb-id="152d:0567"] [data-distributions]').count() == 0
    assert page.problems == []


def test_the_probe_people_download_is_served_and_is_the_bundle(site):
    """/probe.py, the file the issue form and the check page tell people to fetch, is the stand-alone bundle of
    scripts/uasdb/probe/ built with the site, and the check page links to it."""
    from uasdb.publish.probebuild import bundle
    served = urllib.request.urlopen(site.url + "/probe.py").read().decode("utf-8")
    assert served == bundle()
    page = urllib.request.urlopen(site.url + "/check/").read().decode("utf-8")
    assert re.search(r'href="?/probe\.py"?', page)


# Device-tree model strings as Raspberry Pi boards print them (/proc/device-tree/model), and others.


