"""A check result can be linked: after a paste the address holds what was found (IDs, drivers, link speeds,
firmware and power figures, the kinds of dmesg trouble), never the paste, and loading that address shows the same
result. The format is documented above resultQuery in site/assets/js/check-core.js."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
from test_site_check import ASMEDIA_V, EXPECTED, captured, probe_output, run_check
from test_site_ux import TROUBLED_DMESG

pytestmark = pytest.mark.browser

# A paste with things that must never reach an address: a serial number, product strings, log lines.
PRIVATE_PASTE = """\
[    0.000000] Kernel command line: console=tty1 usb-storage.quirks=152d:0578:u
[    0.000001] Machine model: Raspberry Pi 4 Model B Rev 1.4
[    5.101] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd
[    5.122] usb 2-1: New USB device found, idVendor=174c, idProduct=55aa, bcdDevice= 1.00
[    5.124] usb 2-1: Product: Secret Box
[    5.125] usb 2-1: SerialNumber: SN-PRIVATE-4242
[    5.130] scsi host0: uas
[   61.402] sd 0:0:0:0: [sda] tag#3 uas_eh_abort_handler 0 uas-tag 4 inflight: CMD OUT
[   61.410] scsi host0: uas_eh_device_reset_handler start
[   61.530] usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd
[   61.610] I/O error, dev sda, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0
[   70.000] Under-voltage detected! (0x00050005)
Bus 001 Device 002: ID 2109:3431 VIA Labs, Inc. Hub
"""

PASTES = {name: captured(name) for name in sorted(EXPECTED)}
PASTES.update({"troubled-dmesg": TROUBLED_DMESG, "private": PRIVATE_PASTE, "probe-pi4-uas": probe_output("pi4-uas"),
               "probe-user-quirk": probe_output("pi4-user-quirk"),
               "asmedia-lsusb-v": ASMEDIA_V.format(power="36mA", streams="16")})


def _without_strings(text: str) -> str:
    """A "Your paste" line without the product strings a link leaves out (“asmedia” “ASMT1051”)."""
    return re.sub(r" · “[^”]*”(?: “[^”]*”)*", "", text)


def result(page) -> dict:
    """What a result says, section by section: everything but the pasted names and log lines."""
    found = {}
    for section in page.locator("section.found").all():
        facts = section.locator("dl.facts").evaluate(
            "dl => [...dl.querySelectorAll(':scope > dt')].map(dt => [dt.innerText, dt.nextElementSibling.innerText])")
        found[section.get_attribute("data-usb-id")] = {
            "driver": section.get_attribute("data-driver"),
            "flags": section.locator("ul.flags > li").evaluate_all(
                "lis => lis.map(li => [li.dataset.flag || '', li.querySelector('strong') ? li.querySelector('strong').innerText : ''])"),
            "facts": {dt: _without_strings(dd) if dt == "Your paste" else dd for dt, dd in facts},
        }
    summary = page.locator(".check-summary")
    return {
        "found": found,
        "summary": re.sub(r"\(the paste names [^)]*\)", "(the paste names it)", summary.inner_text()) if summary.count() else None,
        "orphans": page.locator(".orphans li").evaluate_all("lis => lis.map(li => [li.dataset.driver, li.innerText])"),
        "others": page.locator(".others-list li").evaluate_all("lis => lis.map(li => li.dataset.usbId)"),
        "line": page.locator("#check-line").inner_text() if page.locator("#check-line").count() else None,
        "unassigned": page.locator(".trouble").count(),
        "platform": page.locator("#check-platform").input_value(),
        "status": page.locator(".check-status").inner_text(),
    }


def _strip_where(orphans):
    """Orphans' "(Bus 02, Dev 3, from lsusb -t)": where in the paste is not part of a link."""
    return [[driver, re.sub(r"\((?:[^()]*, )?from ", "(from ", text)] for driver, text in orphans]


@pytest.mark.parametrize("name", sorted(PASTES))
def test_the_address_after_a_paste_shows_the_same_result(watched_page, name):
    page = watched_page
    page.goto("/check/")
    run_check(page, PASTES[name])
    pasted = result(page)
    address = page.url
    if not pasted["found"] and not pasted["orphans"] and not pasted["others"]:
        assert urlparse(address).query == ""  # nothing found: nothing to link
        return
    assert urlparse(address).query
    fresh = page.context.new_page()  # a helper opening the link
    fresh.goto(address)
    fresh.locator(".check-status").filter(has_text=re.compile(r"^Found")).wait_for()
    linked = result(fresh)
    assert fresh.locator("#check-paste").input_value() == ""  # the paste itself is not there
    assert fresh.locator("[data-linked-result]").count() == 1
    pasted["orphans"], linked["orphans"] = _strip_where(pasted["orphans"]), _strip_where(linked["orphans"])
    assert linked["found"] == pasted["found"]
    assert linked == pasted


def test_the_address_holds_what_was_found_and_never_the_paste(watched_page):
    page = watched_page
    page.goto("/check/")
    run_check(page, PRIVATE_PASTE)
    address = page.url
    for secret in ("SN-PRIVATE-4242", "Secret", "uas_eh", "sector", "Kernel", "Under-voltage", "VIA", "Raspberry"):
        assert secret.lower() not in address.lower(), secret
    query = parse_qs(urlparse(address).query)
    assert query["platform"] == ["pi4"] and query["host"] == ["pi4"]
    assert query["q"] == ["152d:0578:u"]
    devices = {d.split(",")[0]: d.split(",")[1:] for d in query["d"]}
    assert set(devices) == {"174c:55aa", "2109:3431"}
    assert {"disk", "drv:uas", "at:5000M", "bcd:0100", "io-error:1"} <= set(devices["174c:55aa"])
    assert any(token.startswith("reset:") for token in devices["174c:55aa"])  # the abort and the resets
    assert query["x"] == ["power:1"]  # the under-voltage line names no device
    assert len(address) < 200


def test_a_linked_result_keeps_the_trouble_findings_without_the_lines(watched_page):
    page = watched_page
    page.goto("/check/?platform=pi4&d=174c:55aa,from:td,disk,drv:uas,at:5000M,reset:2,io-error:1&x=power:1")
    page.locator(".check-status").filter(has_text=re.compile(r"^Found")).wait_for()
    flag = page.locator('section.found[data-usb-id="174c:55aa"] [data-flag="dmesg-trouble"]')
    assert flag.locator("strong").inner_text() == "Your dmesg shows trouble for this device: 2 resets, 1 I/O error."
    assert "not in the link" in flag.inner_text()
    assert "Trouble in your dmesg" in page.locator(".trouble").inner_text()
    assert page.problems == []


def test_copy_link_gives_the_address_that_shows_the_result(browser, site):
    context = browser.new_context(base_url=site.url, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/check/")
    run_check(page, TROUBLED_DMESG)
    button = page.get_by_role("button", name="Copy link to this result")
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url and "d=174c:55aa," in copied
    page.get_by_label("Your computer").select_option("linux")  # a changed platform is in the address too
    page.locator(".check-status").filter(has_text=re.compile(r"^Found")).wait_for()
    page.wait_for_function("location.search.includes('platform=linux')")
    page.get_by_role("button", name="Copy link to this result").click()
    assert "platform=linux" in page.evaluate("navigator.clipboard.readText()")
    context.close()


@pytest.mark.parametrize("query", ["d=zzzz", "d=152d:0578,drv:<script>,at:5000M,bcd:xyz,reset:99999",
                                   "o=::", "d=" + ",".join(["152d:0578"] + ["reset:999", "io-error:999"] * 50), "d=&o=&x=&q="])
def test_a_damaged_link_says_so_or_shows_what_is_left(watched_page, query):
    page = watched_page
    page.goto(f"/check/?{query}")
    status = page.locator(".check-status")
    status.filter(has_text=re.compile(r"^(Found|This link)")).wait_for()
    if status.inner_text().startswith("This link"):
        assert "Paste your output" in status.inner_text()
    else:
        assert page.locator("section.found").count() == 1
        assert page.locator('section.found[data-usb-id="152d:0578"]').get_attribute("data-driver") == ""
    assert page.locator("#check-results script, #check-results img").count() == 0
    assert page.problems == []


