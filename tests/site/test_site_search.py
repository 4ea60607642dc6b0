"""Search: one query by name, vendor, chipset or any spelling of a USB ID finds the right pages, and the
filters narrow the results. Pagefind splits 152d:0578 into parts and joins them (152d0578), but not
0x152d 0x0578 or VID_152D&PID_0578; the pages index those spellings as text."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser


def search(page, query):
    page.goto("/")
    page.get_by_role("searchbox").fill(query)
    page.locator(".search-status").filter(has_text="result").wait_for()
    links = page.locator(".results li a.result-title")
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


JMS_PAGES = {"/usb/152d/0578/", "/adapters/fixture-naughty-jms/", "/adapters/fixture-second-jms/"}


@pytest.mark.parametrize("query", ["152d:0578", "152d0578", "0x152d 0x0578", "0x152d:0x0578", "152D:0578",
                                   "VID_152D&PID_0578", "ID 152d:0578",
                                   "Bus 002 Device 003: ID 152d:0578 JMicron Technology Corp. JMS578 SATA 6Gb/s"])
def test_every_usb_id_spelling_finds_the_id_and_its_products(watched_page, query):
    found = search(watched_page, query)
    assert found[0] == "/usb/152d/0578/"
    assert JMS_PAGES <= set(found)
    assert "/adapters/fixture-nice-sata/" not in found
    assert watched_page.problems == []


def test_search_by_product_name(watched_page):
    assert search(watched_page, "Quirkcable")[0] == "/adapters/fixture-naughty-jms/"


def test_search_by_vendor(watched_page):
    found = search(watched_page, "Otherfixture")
    assert "/adapters/fixture-second-jms/" in found


def test_search_by_chipset_finds_the_chip_and_its_adapters(watched_page):
    found = search(watched_page, "JMS567")
    assert found[0] == "/chipsets/jms567/"
    assert {"/adapters/fixture-naughty-jms/", "/adapters/fixture-second-jms/"} <= set(found)


def test_results_show_the_verdict(watched_page, site):
    search(watched_page, "Quirkcable")
    first = watched_page.locator(".results li").first
    assert first.locator(".result-verdict").inner_text() == site.adapter("fixture-naughty-jms")["summary"]


@pytest.mark.parametrize("query, adapter", [("Quirkcable", "fixture-naughty-jms"), ("Goodcase", "fixture-nice-sata"),
                                            ("Otherfixture", "fixture-second-jms")])
def test_a_result_says_its_verdict_once(watched_page, site, query, adapter):
    """The verdict line is shown above the snippet; the snippet is cut from the rest of the page, not the verdict
    line again."""
    search(watched_page, query)
    result = watched_page.locator(".results li", has=watched_page.locator(f'a[href="/adapters/{adapter}/"]'))
    snippet = result.locator("p.small").inner_text()
    summary = site.adapter(adapter)["summary"]
    words = summary.split()
    # No run of six words of the verdict line appears in the snippet.
    assert not any(" ".join(words[i:i + 6]) in snippet for i in range(len(words) - 5)), (snippet, summary)


@pytest.mark.parametrize("label, value, expected", [
    ("Chipset", "JMS567", {"/adapters/fixture-naughty-jms/", "/adapters/fixture-second-jms/"}),
    ("Drive", "NVMe", {"/adapters/fixture-nvme/"}),
    ("Vendor", "Otherfixture", {"/adapters/fixture-second-jms/"}),
    ("Pi 4 UAS", "Needs quirk", {"/adapters/fixture-naughty-jms/", "/adapters/fixture-hostile/"}),
    ("Pi 4 boot", "Does not boot", {"/adapters/fixture-second-jms/"}),
])
def test_filters_alone_list_matching_adapters(watched_page, label, value, expected):
    page = watched_page
    page.goto("/")
    page.get_by_text("Filters", exact=True).click()  # folded away until asked for
    page.get_by_label(label, exact=True).select_option(value)
    page.locator(".search-status").filter(has_text="result").wait_for()
    links = page.locator(".results li a.result-title")
    assert {links.nth(i).get_attribute("href") for i in range(links.count())} == expected


def test_filter_narrows_a_query(watched_page):
    page = watched_page
    page.goto("/")
    page.get_by_text("Filters", exact=True).click()
    page.get_by_label("Pi 4 boot", exact=True).select_option("Does not boot")
    page.get_by_role("searchbox").fill("152d:0578")
    page.locator(".search-status").filter(has_text="1 result").wait_for()
    assert page.locator(".results li a.result-title").get_attribute("href") == "/adapters/fixture-second-jms/"


def test_query_in_the_address_runs_the_search(watched_page):
    page = watched_page
    page.goto("/?q=152d0578")
    page.locator(".search-status").filter(has_text="result").wait_for()
    assert page.locator(".results li a.result-title").first.get_attribute("href") == "/usb/152d/0578/"


def test_an_id_page_without_products_still_comes_first(watched_page):
    page = watched_page
    found = search(page, "03f0:070c")  # only Linux's own tables know this ID: it has a page, no product
    assert found[0] == "/usb/03f0/070c/"
    first_verdict = page.locator(".results li").first.locator(".result-verdict").inner_text()
    first = page.locator(".results li").first
    assert first.locator(".result-title").inner_text() == "USB ID 03f0:070c (HP, Inc, Personal Media Drive)"  # usb.ids
    assert page.locator(".search-id-note").is_hidden()
    page.goto("/usb/03f0/070c/")  # the result says what the ID's page says
    summary = page.locator("p.summary").inner_text()
    assert summary.startswith("No product in the database reports this ID yet. Linux")
    assert first_verdict == summary
    assert page.problems == []


def test_the_index_holds_every_page_that_asks_for_it_and_no_id_page(site):
    """The index holds one twin (publish/search_index.py) per page with an indexed part: a page type that marks
    one without a twin would silently drop out of search. USB ID pages repeat their products' text, so none of them
    has one."""
    opted = [p for p in site.public.rglob("*.html") if "data-pagefind-body" in p.read_text(encoding="utf-8")]
    assert opted and not [p for p in opted if "usb" in p.relative_to(site.public).parts]
    entry = json.loads((site.public / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert sum(lang["page_count"] for lang in entry["languages"].values()) == len(opted)
