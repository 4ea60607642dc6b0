"""What Linux already knows, on the pages: adapters and USB IDs say whether Linux applies a built-in quirk by
itself (with its source line) or not (and which line to add), a quirk line that would drop built-in flags is
rewritten to keep them, IDs only the kernel names have searchable pages and a section on the naughty list, and
chipset pages explain ASMedia's probe-time check. The kernel facts are the real imported Linux tables
(data/kernel/): 152d:0578 has BROKEN_FUA, 2109:0715 has IGNORE_UAS, 152d:0567 has NO_REPORT_OPCODES."""
from __future__ import annotations

import html
import re

import pytest

from helpers import adapter, write_tree

pytestmark = pytest.mark.browser

STABLE_TREE = "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree/"


def kernel_section(page):
    """What the page says about the kernel: on adapter pages the "What to do" section (the quirk line and its
    notes) and "What Linux does by itself" both carry the class."""
    return page.locator("section.kernel")


def kernel_text(page) -> str:
    return " ".join(" ".join(kernel_section(page).all_inner_texts()).split())


def page_text(path) -> str:
    """A built page as one line of plain text (tags dropped, entities decoded, whitespace collapsed)."""
    text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
    return " ".join(html.unescape(text).split())


def test_adapter_whose_id_has_a_builtin_quirk_says_linux_already_applies_it(watched_page, site):
    kernel = site.export["kernel"]
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    section = kernel_section(page)
    text = kernel_text(page)
    assert f"Linux {kernel['version']} already applies: BROKEN_FUA (does not use forced-unit-access writes)." in text
    for entry in site.adapter("fixture-naughty-jms")["kernel"]["builtin"]:
        link = section.get_by_role("link", name=f"{entry['file'].rsplit('/', 1)[1]}:{entry['line']}")
        assert link.get_attribute("href") == f"{STABLE_TREE}{entry['file']}?h=v{kernel['release']}#n{entry['line']}"
    # BROKEN_FUA has no quirk letter: the reports' `u` entry cannot clear it, and the page says so.
    assert "BROKEN_FUA (does not use forced-unit-access writes) stays whatever the line says" in text
    assert "No built-in quirk" not in text
    assert page.locator("#quirk-line").inner_text().replace("\n", "") == "usb-storage.quirks=152d:0578:u"
    assert page.problems == []


def test_adapter_without_a_builtin_quirk_says_so_and_gives_the_line(watched_page, site):
    page = watched_page
    page.goto("/adapters/fixture-hostile/")
    text = kernel_text(page)
    assert f"No built-in quirk for this ID in Linux {site.export['kernel']['version']}: add this line." in text
    assert "already applies" not in text
    assert page.locator("#quirk-line").inner_text().replace("\n", "") == "usb-storage.quirks=abcd:1234:u"


def test_adapter_with_no_quirk_and_a_string_check_says_when_linux_steps_in(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-nvme/")
    text = kernel_text(page)
    assert "No built-in quirk for this ID in Linux 6.12." in text
    assert "only to devices whose manufacturer string is HIKSEMI and product string is MD202" in text
    assert page.locator("#quirk-line").count() == 0


def test_a_quirk_entry_that_would_drop_builtin_flags_is_shown_keeping_them(tmp_path):
    """152d:0567 has NO_REPORT_OPCODES (letter f) built in; a report's `152d:0567:t` entry would clear it."""
    from uasdb.publish.sitebuild import build_site
    record = adapter(usb_ids=[{"vid": "152d", "pid": "0567"}],
                     report={"driver": "uas", "uas": "works-with-quirk", "quirks": "t"})
    public = build_site(tmp_path / "site", "http://127.0.0.1:1", [write_tree(tmp_path, [record])])
    page = page_text(public / "adapters/acme-box/index.html")
    assert ("Add this line: reports on this Pi needed it (152d:0567:t: Raspberry Pi 4, 1 report). "
            "The line keeps the flags Linux 6.12 sets for this ID by itself, which a usb-storage.quirks "
            "entry would otherwise replace. The line for a Raspberry Pi 4: usb-storage.quirks= 152d:0567:ft Copy") in page
    assert ("A usb-storage.quirks entry replaces the kernel's built-in flags for that ID, so 152d:0567:t alone would "
            "drop NO_REPORT_OPCODES (letter f : does not ask which commands the bridge supports). "
            "The line above, 152d:0567:ft , keeps it.") in page
    assert "BROKEN_FUA (does not use forced-unit-access writes) stays whatever the line says" in page
    assert "Some of the flags Linux sets for 152d:0567 depend on the firmware revision" in page
    usb = page_text(public / "usb/152d/0567/index.html")
    assert ("The line keeps the flags Linux 6.12 sets for this ID by itself, which a usb-storage.quirks entry would "
            "otherwise replace. The line for a Raspberry Pi 4, from the reports of") in usb
    assert "1 report): usb-storage.quirks= 152d:0567:ft" in usb


def test_kernel_only_id_has_a_page_with_names_smart_and_the_builtin_quirk(watched_page, site):
    usb = site.export["usb"]["2109:0715"]
    assert usb["adapters"] == [] and usb["chipsets"] == []
    page = watched_page
    page.goto("/usb/2109/0715/")
    assert "No product in the database reports this ID yet" in page.locator(".summary").inner_text()
    facts = " ".join(page.locator("dl.facts").inner_text().split())
    assert f"{usb['usbids']['vendor']} · {usb['usbids']['product']}" in facts
    assert f"smartctl -d {usb['smartctl'][0]['device_type']}" in facts
    text = kernel_text(page)
    assert "Linux 6.12 already applies: IGNORE_UAS (falls back to usb-storage)." in text
    assert page.get_by_role("link", name="add your report").count() == 1
    assert page.problems == []


@pytest.mark.parametrize("query", ["2109:0715", "0x2109 0x0715", "VID_2109&PID_0715"])
def test_search_finds_a_kernel_only_id(watched_page, query):
    page = watched_page
    page.goto("/")
    page.get_by_role("searchbox").fill(query)
    page.locator(".search-status").filter(has_text="result").wait_for()
    assert page.locator(".results li a.result-title").first.get_attribute("href") == "/usb/2109/0715/"
    assert "sets IGNORE_UAS for it by itself" in page.locator(".results li .result-verdict").first.inner_text()


def test_naughty_list_has_the_ids_linux_already_treats_specially(watched_page, site):
    page = watched_page
    page.goto("/naughty/")
    section = page.locator("section.kernel-only")
    assert section.get_by_role("heading").inner_text() == \
        "IDs Linux already treats specially, with no community report yet"
    items = section.locator("li")
    assert items.count() == len(site.export["lists"]["kernel_only"])
    entry = items.filter(has=page.locator('a[href="/usb/2109/0715/"]'))
    assert "IGNORE_UAS (falls back to usb-storage)" in entry.inner_text()
    assert section.locator('a[href^="/adapters/"]').count() == 0  # no product verdicts in this section
    assert page.problems == []


def test_chipset_page_explains_the_asmedia_probe_check_and_smart(watched_page):
    page = watched_page
    page.goto("/chipsets/asm1153e/")
    section = kernel_section(page)
    check = section.locator(".probe-check")
    assert check.is_visible()  # in full on the chipset page, not behind a disclosure
    text = " ".join(check.inner_text().split())
    assert "maximum power of 0" in text and "slower than SuperSpeed" in text
    assert "32 suggests an ASM1051" in text and "capped at 240 sectors (MAX_SECTORS_240)" in text
    assert section.get_by_role("link", name="uas-detect.h:98").count() == 1
    assert "SMART: smartctl -d sat (ASMedia" in section.inner_text()
    # On an adapter page the same explanation waits behind "How it decides".
    page.goto("/adapters/fixture-nice-sata/")
    assert page.locator(".probe-check").is_hidden()
    page.get_by_text("How it decides").click()
    assert page.locator(".probe-check").is_visible()
    assert page.problems == []


def test_usb_index_names_what_linux_sets(watched_page, site):
    page = watched_page
    page.goto("/usb/")
    row = page.locator("tr", has=page.locator('a[href="/usb/2109/0715/"]'))
    assert "IGNORE_UAS" in row.locator("td.kernel-flags").inner_text()
    asmedia = page.locator("tr", has=page.locator('a[href="/usb/174c/55aa/"]'))
    assert "decided while probing" in asmedia.locator("td.kernel-flags").inner_text()


def test_naughty_line_over_the_kernel_limit_is_flagged(real_site):
    """Linux refuses a usb-storage.quirks value over 127 characters; the naughty page must say so when its line is longer."""
    lists = real_site.export["lists"]
    html = (real_site.public / "naughty" / "index.html").read_text()
    shown = lists.get("naughty_quirk_line_preserving_builtin") or lists["naughty_quirk_line"]
    assert lists["quirks_param_max_chars"] == 127
    assert lists["naughty_quirk_line_length"] == len(shown.split("=", 1)[1])
    assert ("data-quirk-too-long" in html) == (lists["naughty_quirk_line_length"] > 127)
