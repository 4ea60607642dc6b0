"""Issue 35's examples in Chromium on the site built from the real data/: /check/, /usb/<id>/, /naughty/, /quirks/
and a product page print one answer per product and platform (verdicts/answer.py) and never offer another
platform's quirk line as the reader's."""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

T7_PASTE = """[    0.000000] Machine model: Raspberry Pi {pi} Model B Rev 1.4
Bus 002 Device 002: ID 04e8:4001 Samsung Electronics Co., Ltd PSSD T7
/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M
    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M
"""
JMICRON_ON_USB_STORAGE = """[    0.000000] Machine model: Raspberry Pi 4 Model B Rev 1.4
Bus 002 Device 002: ID 152d:0578 JMicron Technology Corp. / JMicron USA Technology Corp. JMS567 SATA 6Gb/s bridge
/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M
    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=usb-storage, 5000M
"""


def run_check(page, text: str) -> None:
    page.goto("/check/")
    page.locator("#check-paste").fill(text)
    page.get_by_role("button", name="Check").click()
    page.locator(".check-status").filter(has_text=re.compile(r"^(Found|No)")).wait_for()


@pytest.mark.parametrize("pi, platform", [("4", "pi4"), ("5", "pi5")])
def test_a_t7_on_uas_on_a_pi_gets_no_line_and_no_copy_for_the_pcs_quirk(real_page, pi, platform):
    """The T7's only quirk report is from a Linux PC; on a Pi 4 its UAS works. Before: "quirk: 04e8:4001:u" and a
    Quirk line box with a Copy button on both Pis."""
    page = real_page
    run_check(page, T7_PASTE.format(pi=pi))
    assert page.locator("#check-platform").input_value() == platform
    results = page.locator("#check-results")
    assert page.locator("#check-line").count() == 0
    assert results.get_by_role("button", name="Copy", exact=True).count() == 0
    assert "usb-storage.quirks=04e8:4001:u" not in results.inner_text()
    answer = results.locator('[data-adapter="samsung-t7"] [data-answer]').inner_text()
    assert "04e8:4001:u" in answer and "Linux PC" in answer
    if platform == "pi4":
        assert "Not needed on this Pi" in answer
    else:
        assert "No verdict on this Pi yet" in answer
    assert page.problems == []


def test_an_id_whose_products_disagree_gives_both_sides_on_check(real_page, real_site):
    """152d:0578 pasted on usb-storage on a Pi 4. Before: only "works with UAS on a Raspberry Pi 4: Kolink"."""
    page = real_page
    run_check(page, JMICRON_ON_USB_STORAGE)
    answer = page.locator('section.found[data-usb-id="152d:0578"] [data-id-answer]')
    assert answer.get_attribute("data-id-answer") == "depends"
    text = answer.inner_text()
    adapters = {a["id"]: a for a in real_site.export["adapters"]}
    assert f"{adapters['generic-jms578-sata-adapter']['name']}: Mixed (8 reports" in text
    assert f"{adapters['orico-2139u3']['name']}: Needs quirk" in text
    shipped = real_site.export["usb"]["152d:0578"]["answers"]["pi4"]["shipped"]
    assert len(shipped) == 5 and "5 distributions ship 152d:0578:u" in text
    # This platform's reports needed the line, so it is offered, with its Copy button.
    assert page.locator("#check-line").inner_text().replace("\n", "") == "usb-storage.quirks=152d:0578:u"
    assert page.problems == []


def test_the_t7_id_page_keeps_pending_and_offers_the_pc_line_only_under_the_pc(real_page):
    """Before: "Raspberry Pi 4 ✓ Works" and "No built-in quirk for this ID in Linux 6.12: add this line" + Copy."""
    page = real_page
    page.goto("/usb/04e8/4001/")
    pi4 = page.locator("table.id-verdicts tr", has=page.get_by_role("rowheader", name="Raspberry Pi 4"))
    assert "Works (pending)" in pi4.inner_text()
    assert "add this line" not in page.locator("main").inner_text()
    todo = page.locator("#id-what-to-do ~ ul.answers")
    assert "not needed here" in todo.locator('li[data-platform="pi4"]').inner_text()
    assert todo.locator('li[data-platform="pi4"] .quirk').count() == 0
    pc = todo.locator('li[data-platform="linux"]')
    assert pc.locator("code.quirk-line").inner_text().replace("\n", "") == "usb-storage.quirks=04e8:4001:u"
    assert "The line for a Linux PC" in pc.inner_text()
    assert page.problems == []


def test_startech_is_not_among_the_pi_products_that_needed_174c_55aa(real_page):
    page = real_page
    page.goto("/usb/174c/55aa/")
    pi4 = page.locator('#id-what-to-do ~ ul.answers li[data-platform="pi4"]')
    text = pi4.inner_text()
    assert re.search(r"StarTech\.com USB3S2SAT3CB[^;]*: Works \([^)]*not needed here", text), text
    label = pi4.locator(".quirk-label").inner_text()
    assert "USB3S2SAT3CB" not in label
    page.goto("/quirks/")
    item = page.locator("li", has=page.locator("#pick-startech-usb3s2sat3cb"))
    item.locator(".pick-answers").wait_for()
    assert "Pi 4: Works. Not needed on this Pi: UAS works here without a quirk" in item.inner_text()
    assert page.problems == []


def test_the_naughty_quirk_table_names_where_each_line_came_from(real_page):
    """Each row of /naughty/'s quirk table says where its line came from (platform and reports); the T7's
    04e8:4001:u, which only a Linux PC report needed, is in neither the table nor the Pi line now that the T7's
    reports merely disagree (it is under "Reports disagree", not naughty)."""
    page = real_page
    page.goto("/naughty/")
    rows = page.locator("[id^=quirk-]")
    assert rows.count() > 10
    for i in range(rows.count()):
        assert rows.nth(i).locator("[data-where]").inner_text().strip()
    assert "Raspberry Pi 4" in page.locator("#quirk-174c-55aa [data-where]").inner_text()
    assert page.locator("#quirk-04e8-4001").count() == 0
    combined = page.locator("#combined-quirk-line")  # absent when the line is over the kernel's limit
    assert combined.count() == 0 or "04e8:4001" not in combined.inner_text()
    assert page.problems == []


def test_a_product_page_opens_with_its_answer_per_pi_and_previews_it(real_page, real_site):
    page = real_page
    page.goto("/adapters/samsung-t7/")
    summary = page.locator(".summary").inner_text()
    assert "Pi 4: Works (pending), no quirk needed; Pi 5:" in summary
    description = page.locator('meta[name="description"]').get_attribute("content")
    assert description.startswith("Pi 4: Works (pending), no quirk needed; Pi 5:")
    assert page.locator('meta[property="og:description"]').get_attribute("content") == description
    assert page.locator('meta[name="twitter:description"]').get_attribute("content") == description
    assert page.locator('meta[property="og:title"]').get_attribute("content") == "Samsung Portable SSD T7"
    assert page.locator('meta[property="og:url"]').get_attribute("content").endswith("/adapters/samsung-t7/")
    todo = page.locator("#quirk ~ ul.answers")
    assert todo.locator('li[data-platform="pi4"] .quirk').count() == 0
    assert todo.locator('li[data-platform="linux"] #quirk-line').count() == 1
    page.goto("/adapters/argon-one-m2/")
    argon = page.locator('#quirk ~ ul.answers li[data-platform="pi4"]').inner_text()
    assert "tried on this Pi and did not help (2 reports" in argon and "Nothing to add" not in argon
    assert page.problems == []


def test_search_excerpts_hold_no_filter_or_badge_tokens(real_site):
    """Pagefind indexed the hidden filter and badge values as page text ("fair|Pi 4: Works (pending);warn|…"),
    and excerpts are cut from that text; the filters and badges themselves must still be there."""
    fragments = Path(real_site.public) / "pagefind" / "fragment"
    pages = [json.loads(gzip.decompress(p.read_bytes()).removeprefix(b"pagefind_dcd")) for p in fragments.glob("*.pf_fragment")]
    adapters = [p for p in pages if p["url"].startswith("/adapters/")]
    assert adapters
    assert not [p["url"] for p in pages if re.search(r"\b(good|fair|warn|bad|meh|none)\|", p["content"])]
    t7 = next(p for p in adapters if p["url"] == "/adapters/samsung-t7/")
    assert "Untested Untested" not in t7["content"]
    assert t7["meta"]["badges"].startswith("fair|Pi 4: Works (pending)")
    assert t7["filters"]["pi4_uas"] == ["Works (pending)"]
