"""The quirk builder (/quirks/): the exact line for picked adapters and typed entries, the kernel's 127-character
limit, what an entry replaces of the kernel's own flags (the same answer as kernel_export.preserve_builtin), and
the copy button."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def settled(page) -> None:
    """The builder fetches each ID's file before it shows a line: wait until the last edit is shown."""
    page.locator('#builder-result[aria-busy="false"]').wait_for(state="attached")


def result_line(page) -> str:
    settled(page)
    return page.locator("#builder-line").inner_text().replace("\n", "")


def open_builder(page, query: str = "") -> None:
    """The page's own HTML already says "N shown"; the builder is ready only once its script has read the address
    and shown the first line (aria-busy is absent until then)."""
    page.goto("/quirks/" + query)
    settled(page)


def test_picked_adapters_give_the_exact_line(watched_page, site):
    page = watched_page
    open_builder(page)
    quirky = [a for a in site.export["adapters"] if a["verdict"]["quirk_entries"]]
    assert page.locator(".pick-list li").count() == len(quirky)
    settled(page)
    assert page.locator("#builder-empty").is_visible()
    page.get_by_label("Filter by name, vendor or USB ID").fill("quirkcable")
    assert [li for li in page.locator(".pick-list li").all() if li.is_visible()] != []
    page.get_by_role("checkbox", name=re.compile("Quirkcable")).check()
    assert result_line(page) == "usb-storage.quirks=152d:0578:u"
    page.get_by_label("Filter by name, vendor or USB ID").fill("")
    page.locator("#pick-fixture-hostile").check()  # its name is markup; it must stay text
    assert result_line(page) == "usb-storage.quirks=152d:0578:u,abcd:1234:u"
    notes = page.locator("#builder-notes").inner_text()
    assert "reports for " + site.adapter("fixture-naughty-jms")["name"] in notes
    assert "IGNORE_UAS: falls back to usb-storage" in notes
    assert page.evaluate("window.__xss") is None
    assert page.url.endswith("/quirks/?adapters=fixture-hostile,fixture-naughty-jms")  # a shareable address
    assert page.problems == []


def test_typed_entries_give_the_exact_line_sorted_and_merged(watched_page):
    page = watched_page
    open_builder(page)
    page.get_by_label("USB IDs and flag letters").fill("174c:55aa:u, 152d:0578:u 152d:0578:t")
    assert result_line(page) == "usb-storage.quirks=152d:0578:tu,174c:55aa:u"
    merged = page.locator('#builder-notes > li[data-usb-id="152d:0578"]').inner_text()
    assert "Named more than once" in merged and "NO_ATA_1X" in merged
    assert page.problems == []


def test_replacing_builtin_flags_warns_and_offers_the_preserving_entry(watched_page):
    page = watched_page
    open_builder(page)
    page.get_by_label("USB IDs and flag letters").fill("152d:0567:t")
    # Linux 6.12 sets NO_REPORT_OPCODES (f) for 152d:0567 itself; the default keeps it.
    assert result_line(page) == "usb-storage.quirks=152d:0567:ft"
    warning = page.locator('[data-warning="replaces-builtin"]')
    assert "152d:0567:t replaces flags Linux 6.12 sets by itself" in warning.inner_text()
    assert "NO_REPORT_OPCODES" in warning.inner_text() and "152d:0567:ft" in warning.inner_text()
    page.get_by_label(re.compile("Keep the flags Linux")).uncheck()
    assert result_line(page) == "usb-storage.quirks=152d:0567:t"
    assert "To keep them write 152d:0567:ft" in page.locator('[data-warning="replaces-builtin"]').inner_text()
    # With u the device leaves uas, where f has no effect: the entry stays as typed and says so.
    page.get_by_label("USB IDs and flag letters").fill("152d:0567:u")
    page.get_by_label(re.compile("Keep the flags Linux")).check()
    assert result_line(page) == "usb-storage.quirks=152d:0567:u"
    assert "nothing is lost" in page.locator('[data-warning="replaces-builtin-moot"]').inner_text()
    assert page.locator('[data-warning="replaces-builtin"]').count() == 0
    assert page.problems == []


def test_an_entry_linux_already_applies_is_called_unneeded(watched_page):
    page = watched_page
    open_builder(page)
    page.get_by_label("USB IDs and flag letters").fill("2537:1068:u")  # IGNORE_UAS in unusual_uas.h for every firmware
    assert "you do not need it" in page.locator('[data-warning="builtin-already"]').inner_text()


def test_line_longer_than_the_kernel_buffer_is_refused(watched_page):
    page = watched_page
    open_builder(page)
    typed = page.get_by_label("USB IDs and flag letters")
    # 9 entries of 11 characters + one of 19 + 9 commas = 127 characters: the most quirks[128] holds.
    entries = [f"ffff:{n:04x}:u" for n in range(1, 10)] + ["ffff:0010:abcdefghi"]
    typed.fill(" ".join(entries))
    assert len(result_line(page)) - len("usb-storage.quirks=") == 127
    assert page.locator("#builder-length").get_attribute("data-length") == "127"
    assert page.locator('[data-warning="too-long"]').count() == 0
    typed.fill(" ".join(entries + ["ffff:0011:u"]))
    assert page.locator("#builder-length").get_attribute("data-length") == "139"
    warning = page.locator('[data-warning="too-long"]')
    assert warning.is_visible() and "128-byte buffer" in warning.inner_text()
    assert page.problems == []


def test_bad_typing_is_explained_and_adds_nothing(watched_page):
    page = watched_page
    open_builder(page)
    page.get_by_label("USB IDs and flag letters").fill("lsusb 152d:0578")
    problems = page.locator("#typed-problems").inner_text()
    assert "“lsusb” is not an entry" in problems and "152d:0578 has no flag letters" in problems
    assert page.locator("#builder-result").is_hidden()


def test_copy_puts_the_line_on_the_clipboard(browser, site):
    context = browser.new_context(base_url=site.url, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    open_builder(page, "?entries=152d:0578:u,0bda:9210:u")
    assert page.get_by_label("USB IDs and flag letters").input_value() == "152d:0578:u 0bda:9210:u"
    page.locator("#builder-result").get_by_role("button", name="Copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == "usb-storage.quirks=0bda:9210:u,152d:0578:u"
    context.close()


def test_prefilled_adapters_from_the_address(watched_page):
    page = watched_page
    open_builder(page, "?adapters=fixture-naughty-jms")
    assert page.locator("#pick-fixture-naughty-jms").is_checked()
    assert result_line(page) == "usb-storage.quirks=152d:0578:u"


def test_letter_table_comes_from_the_kernel_data_and_reads_without_javascript(browser, site):
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/quirks/")
    rows = page.locator("table.letters tbody tr")
    letters = site.export["kernel"]["letters"]
    assert rows.count() == len(letters)
    u = page.locator("#letter-u").inner_text()
    assert "IGNORE_UAS" in u and "falls back to usb-storage" in u
    assert page.locator("#quirk-builder").is_hidden()
    assert "needs JavaScript" in page.locator("main").inner_text()
    context.close()


def test_an_entry_a_distribution_already_ships_is_named(watched_page):
    page = watched_page
    open_builder(page)
    page.get_by_label("USB IDs and flag letters").fill("174c:55aa:u,152d:0567:u")
    settled(page)
    warnings = page.locator('[data-warning="distribution-already"]')
    assert warnings.count() == 1
    assert "Fixture OS already sets 174c:55aa:u" in warnings.inner_text()
    assert page.problems == []


def test_an_entry_shared_with_a_product_that_works_says_so(watched_page, site):
    """As on /naughty/: an entry for an ID also changes the products with that ID that work on uas without one."""
    page = watched_page
    open_builder(page, "?adapters=fixture-naughty-jms")
    assert result_line(page) == "usb-storage.quirks=152d:0578:u"
    warning = page.locator('#builder-notes > li[data-usb-id="152d:0578"] [data-warning="shared-with-working"]')
    other = site.adapter("fixture-second-jms")
    assert warning.get_by_role("link", name=other["name"]).get_attribute("href") == "/adapters/fixture-second-jms/"
    assert site.adapter("fixture-naughty-jms")["name"] not in warning.inner_text()  # the picked one needs it
    page.get_by_label("USB IDs and flag letters").fill("174c:55aa:u")
    settled(page)
    typed = page.locator('#builder-notes > li[data-usb-id="174c:55aa"] [data-warning="shared-with-working"]')
    assert site.adapter("fixture-nice-sata")["name"] in typed.inner_text()
    page.get_by_label("USB IDs and flag letters").fill("abcd:1234:u")  # no product with it works without a quirk
    settled(page)
    assert page.locator('[data-warning="shared-with-working"]').count() == 1  # only the picked adapter's entry
    assert page.problems == []
