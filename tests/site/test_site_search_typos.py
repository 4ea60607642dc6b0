"""Search meets people's typing: a word one or two edits from a known product, vendor, model or chip word is
corrected, with a "did you mean"; a chip, vendor or USB ID among the words puts its pages first. The examples of
issue 29 run on the site built from the real data; the rules run on the fixtures, and on search-words.js itself in
Node (tests/js/search-words.test.mjs)."""
from __future__ import annotations

import pytest
from test_site_search import search  # type into the home page's box, return the result links

pytestmark = pytest.mark.browser

def test_a_typo_in_a_product_word_finds_the_product_and_says_so(watched_page):
    page = watched_page
    page.goto("/")
    assert search(page, "quirkcabel")[0] == "/adapters/fixture-naughty-jms/"
    suggestion = page.locator(".search-suggest")
    assert suggestion.inner_text().startswith("Did you mean Quirkcable? Showing results for it.")
    assert search(page, "Fixturbrand swiftbox")[0] == "/adapters/fixture-nvme/"
    assert "Did you mean Fixturebrand Swiftbox?" in suggestion.inner_text()
    assert search(page, "Quirkcable")[0] == "/adapters/fixture-naughty-jms/"
    assert suggestion.is_hidden()  # a right spelling gets no "did you mean"
    assert page.problems == []


def test_the_words_as_typed_are_one_press_away(watched_page):
    page = watched_page
    page.goto("/?q=swiftbx")
    page.locator(".search-suggest").wait_for()
    assert page.locator(".results li a.result-title").first.get_attribute("href") == "/adapters/fixture-nvme/"
    page.get_by_role("button", name="Search for “swiftbx” as typed").click()
    page.locator(".search-suggest").wait_for(state="hidden")
    page.locator(".search-status").filter(has_text="No matches").wait_for()
    assert page.get_by_role("searchbox").input_value() == "swiftbx"


def test_a_chip_among_the_words_leads_with_its_page_and_adapters(watched_page):
    page = watched_page
    page.goto("/")
    found = search(page, "otherfixture jms567")
    assert found[:3] == ["/chipsets/jms567/", "/adapters/fixture-second-jms/", "/adapters/fixture-naughty-jms/"]
    found = search(page, "fixturebrand rtl9210")
    assert found[:2] == ["/chipsets/rtl9210/", "/adapters/fixture-nvme/"]
    found = search(page, "fixturebrand 0bda:9210")  # an ID among the words: its page first, then the vendor's
    assert found[:2] == ["/usb/0bda/9210/", "/adapters/fixture-nvme/"]
    assert {"/adapters/fixture-naughty-jms/", "/adapters/fixture-nice-sata/"} <= set(found[2:])
    assert page.problems == []


# The examples of issue 29, on the real data: each gave one unrelated result (or the wrong chip) before.
@pytest.mark.parametrize("query, suggestion, first", [
    ("sabrant", "Sabrent", "/adapters/sabrent-"),
    ("sabrnt", "Sabrent", "/adapters/sabrent-"),
    ("samsng t7", "Samsung T7", "/adapters/samsung-t7/"),
    ("sabret ec-sshd", "Sabrent EC-SSHD", "/adapters/sabrent-ec-sshd/"),
])
def test_the_issues_typos_find_their_products(real_page, query, suggestion, first):
    page = real_page
    page.goto("/")
    found = search(page, query)
    assert found[0].startswith(first), found
    assert f"Did you mean {suggestion}?" in page.locator(".search-suggest").inner_text()


def test_orico_jms583_leads_with_the_jms583_page_and_its_adapters(real_page, real_site):
    jms583 = {f"/adapters/{a['id']}/" for a in real_site.export["adapters"] if a.get("chipset") == "jms583"}
    assert len(jms583) >= 5
    page = real_page
    page.goto("/")
    found = search(page, "orico jms583")
    assert found[0] == "/chipsets/jms583/"
    assert set(found[1:1 + len(jms583)]) == jms583
