"""The long pages' filters (issue 29): what to buy narrows by kind, drive and booting, the USB ID, chipset and list
pages by text and their own filters; the choice lives in the address (a link shows the same rows, back and forward
step through it), the count says how many rows are shown, an empty result says so and clears, the keyboard does it
all, and without JS every row shows. The choices and their counts are the export's (the page's model); the text
filter reads "two-bay" as "2-bay". On a phone, names break between words and the tables fit."""
from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def model(site, path: str) -> dict:
    return json.loads((site.public / "api" / "v1" / path).read_text(encoding="utf-8"))["result"]


def buy_rows(site, slug: str) -> list:
    buy = model(site, f"buy/{slug}.json")
    return [row for section in ("products", "avoid", "expected") for row in buy[section]]


# The rows a filter leaves visible, as Playwright's is_visible() sees them (a box, and not visibility:hidden), read in
# one call: each one's text, its data-facets and the text of its row header.
VISIBLE_ROWS = """(rows) => rows.filter((r) => r.getClientRects().length > 0 && getComputedStyle(r).visibility !== 'hidden')
  .map((r) => ({ text: r.innerText, facets: r.getAttribute('data-facets'), th: r.querySelector('th')?.innerText }))"""


def shown(page) -> list:
    """The product links of the rows a buyer sees, in page order."""
    return page.locator("main tbody[data-filter-rows] > tr:visible th a").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))")


def expected(rows, **chosen) -> list:
    return [f"/adapters/{r['id']}/" for r in rows if all(v in r["facets"].get(k, []) for k, v in chosen.items())]


def status(page) -> str:
    return page.locator(".filter-status [role=status]").inner_text()


def query(page) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}


def test_buy_filters_offer_the_models_choices_and_counts(watched_page, site):
    page = watched_page
    page.goto("/buy/pi5/")
    facets = model(site, "buy/pi5.json")["facets"]
    assert [f["key"] for f in facets] == ["kind", "drive", "boots"]
    for facet in facets:
        select = page.get_by_label(facet["label"], exact=True)
        options = select.locator("option").all_inner_texts()
        assert options == ["Any"] + [f"{o['label']} ({o['count']})" for o in facet["options"]]
    total = len(buy_rows(site, "pi5"))
    assert status(page) == f"{total} of {total} shown"
    assert page.problems == []


def test_choosing_narrows_the_rows_and_the_address_holds_it(watched_page, site):
    # /buy/pi4/: the fixture's Pi 5 page holds two rows only since issue 36 withholds the expectations whose kind
    # of evidence has not beaten the baseline (the fixture's evaluation grades too few cells to earn any).
    page = watched_page
    rows = buy_rows(site, "pi4")
    page.goto("/buy/pi4/")
    page.get_by_label("Kind", exact=True).select_option("enclosure")
    expect(page).to_have_url(re.compile(r"/buy/pi4/\?kind=enclosure$"))
    assert shown(page) == expected(rows, kind="enclosure")
    page.get_by_label("Boots Pi 4", exact=True).select_option("untested")
    assert query(page) == {"kind": "enclosure", "boots": "untested"}
    want = expected(rows, kind="enclosure", boots="untested")
    assert 0 < len(want) < len(expected(rows, kind="enclosure")) and shown(page) == want
    assert status(page) == f"{len(want)} of {len(rows)} shown"
    # The link reproduces the view in a fresh page.
    link = page.url
    fresh = page.context.new_page()
    fresh.goto(link)
    assert shown(fresh) == want
    assert fresh.get_by_label("Kind", exact=True).input_value() == "enclosure"
    assert fresh.get_by_label("Boots Pi 4", exact=True).input_value() == "untested"
    assert status(fresh) == status(page)
    assert page.problems == []


def test_back_and_forward_step_through_the_choices(watched_page, site):
    page = watched_page
    rows = buy_rows(site, "pi4")
    page.goto("/buy/pi4/")
    page.get_by_label("Kind", exact=True).select_option("enclosure")
    page.get_by_label("Filter rows").fill("fixturebrand")
    expect(page).to_have_url(re.compile(r"\?q=fixturebrand&kind=enclosure$"))
    typed = shown(page)
    assert len(typed) < len(expected(rows, kind="enclosure"))
    page.go_back()  # the typing was one step
    expect(page).to_have_url(re.compile(r"\?kind=enclosure$"))
    assert page.get_by_label("Filter rows").input_value() == ""
    assert shown(page) == expected(rows, kind="enclosure")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/buy/pi4/$"))
    assert page.get_by_label("Kind", exact=True).input_value() == ""
    assert len(shown(page)) == len(rows)
    page.go_forward()
    page.go_forward()
    expect(page).to_have_url(re.compile(r"\?q=fixturebrand&kind=enclosure$"))
    assert page.get_by_label("Filter rows").input_value() == "fixturebrand"
    assert shown(page) == typed
    assert page.problems == []


def test_an_empty_result_says_so_and_clears(watched_page, site):
    page = watched_page
    rows = buy_rows(site, "pi5")
    assert not expected(rows, kind="cable-adapter", boots="yes")
    page.goto("/buy/pi5/?kind=cable-adapter&boots=yes")
    assert shown(page) == []
    assert status(page) == f"No product on this page matches these filters. 0 of {len(rows)} shown."
    assert page.locator(".filter-none:visible").count() == 0  # the count speaks for the page; no note per table
    page.get_by_role("button", name="Clear the filters").click()
    expect(page).to_have_url(re.compile(r"/buy/pi5/$"))
    assert len(shown(page)) == len(rows)
    assert page.get_by_role("button", name="Clear the filters").is_hidden()
    assert page.evaluate("document.activeElement.name") == "q"  # focus stays in the filter
    assert page.problems == []


def test_a_section_left_empty_says_so(watched_page, site):
    page = watched_page
    buy = model(site, "buy/pi4.json")
    docks = [r for r in buy["avoid"] if "dock" in r["facets"]["kind"]]
    assert docks and not [r for r in buy["products"] if "dock" in r["facets"]["kind"]]
    page.goto("/buy/pi4/?kind=dock")
    assert page.get_by_text("None of the products in this section match the filters.").first.is_visible()
    assert shown(page) == [f"/adapters/{r['id']}/" for r in docks]


def test_a_choice_the_page_does_not_offer_is_dropped_from_the_address(watched_page, site):
    page = watched_page
    page.goto("/buy/pi5/?kind=no-such-kind&drive=sata&utm=x")
    expect(page).to_have_url(re.compile(r"/buy/pi5/\?utm=x&drive=sata$"))
    assert page.get_by_label("Kind", exact=True).input_value() == ""


def test_filters_work_from_the_keyboard(watched_page, site):
    page = watched_page
    rows = buy_rows(site, "pi5")
    page.goto("/buy/pi5/")
    page.get_by_label("Filter rows").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "kind"
    page.keyboard.press("ArrowDown")  # the first choice after "Any"
    first = model(site, "buy/pi5.json")["facets"][0]["options"][0]["value"]
    expect(page).to_have_url(re.compile(rf"\?kind={first}$"))
    assert shown(page) == expected(rows, kind=first)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Clear the filters"
    page.keyboard.press("Enter")
    assert len(shown(page)) == len(rows)


def test_without_javascript_every_row_shows(browser, site):
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    page = context.new_page()
    for path, count in [("/buy/pi5/?kind=cable-adapter", len(buy_rows(site, "pi5"))),
                        ("/usb/?q=152d", len(model(site, "usb.json")))]:
        page.goto(path)
        rows = page.locator("main [data-filter-rows] > *")
        assert rows.count() == count
        assert all(r.is_visible() for r in rows.all()[:50])
        assert page.locator("[data-filter-panel]").is_hidden()
    context.close()


@pytest.mark.parametrize("path, label, text, facet", [
    ("/usb/", "Filter IDs", "152d", ("Products", "products", "yes")),
    ("/chipsets/", "Filter chipsets", "jms", ("Maker", "maker", "jmicron")),
    ("/naughty/", "Filter the list", "fixturebrand", ("Pi 4 UAS", "pi4", "needs-quirk")),
    ("/nice/", "Filter the list", "goodcase", ("Pi 4 UAS", "pi4", "works")),
    ("/adapters/", "Filter rows", "jms567", None),
])
def test_index_pages_filter_with_the_address_and_a_count(watched_page, path, label, text, facet):
    # The rows read in one call each time (VISIBLE_ROWS), not two calls per row: /usb/ has hundreds.
    page = watched_page
    page.goto(path)
    rows = page.locator("main [data-filter-rows] > *")
    total = rows.count()
    page.get_by_label(label).fill(text)
    expect(page).to_have_url(re.compile(rf"{path}\?q={text}$"))
    visible = rows.evaluate_all(VISIBLE_ROWS)
    assert 0 < len(visible) < total
    assert all(text in r["text"].lower() for r in visible)
    assert status(page) == f"{len(visible)} of {total} shown"
    if facet:
        name, key, value = facet
        page.get_by_label(name, exact=True).select_option(value)
        assert query(page) == {"q": text, key: value}
        narrowed = rows.evaluate_all(VISIBLE_ROWS)
        assert narrowed and all(f"{key}={value}" in r["facets"].split() for r in narrowed)
        assert status(page) == f"{len(narrowed)} of {total} shown"
    page.reload()  # the address restores it
    assert page.get_by_label(label).input_value() == text
    assert page.problems == []


def test_index_filters_are_the_exports(watched_page, site):
    page = watched_page
    generated = site.public.parent / "site" / "data" / "generated"
    pages = json.loads((generated / "data" / "pages.json").read_text())
    # The lists' filters are in their model (their counts move with a verdict), the ID and chipset lists' in pages.json.
    lists = json.loads((generated / "api" / "v1" / "lists.json").read_text())["result"]
    filters = dict(pages["filters"], **lists["filters"])
    for path, key in [("/usb/", "usb"), ("/chipsets/", "chipsets"), ("/naughty/", "naughty"), ("/nice/", "nice")]:
        page.goto(path)
        labels = page.locator("[data-filter-panel] select").evaluate_all(
            "(ss) => ss.map((s) => [s.name, [...s.options].slice(1).map((o) => o.textContent)])")
        assert labels == [[f["key"], [f"{o['label']} ({o['count']})" for o in f["options"]]] for f in filters[key]]


# On a phone, what to buy and the USB IDs fit the screen, and product names break only between words (or after a
# hyphen), never inside one ("StarTech.c om"). On the real data, whose names are long.
SPLIT_WORDS = """() => {
  const split = [];
  for (const a of document.querySelectorAll('main tbody th a')) {
    const node = a.firstChild;
    if (!node || node.nodeType !== Node.TEXT_NODE) continue;
    let at = 0;
    for (const part of node.nodeValue.split(/(?<=[ -])/)) {
      const word = part.replace(/[ -]$/, '');
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + word.length);
      if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) split.push(word);
      at += part.length;
    }
  }
  return split;
}"""
TOO_WIDE = """() => [...document.querySelectorAll('main table')].filter((t) => t.offsetParent)
  .filter((t) => t.scrollWidth > (t.closest('.scroll') || t.parentElement).clientWidth + 1)
  .map((t) => t.getAttribute('aria-label') || t.closest('[aria-label]')?.getAttribute('aria-label'))"""


@pytest.mark.parametrize("width", [360, 390])
def test_on_a_phone_names_keep_their_words_and_tables_fit(browser, real_site, width):
    context = browser.new_context(base_url=real_site.url, viewport={"width": width, "height": 800})
    page = context.new_page()
    for slug in [b["slug"] for b in real_site.export["buy"].values()]:
        page.goto(f"/buy/{slug}/")
        assert page.evaluate(SPLIT_WORDS) == [], f"/buy/{slug}/ at {width} px"
        assert page.evaluate(TOO_WIDE) == [], f"/buy/{slug}/ at {width} px"
    page.goto("/usb/?q=jms")
    assert page.evaluate(TOO_WIDE) == []
    context.close()


# The product names of the rows a filter leaves visible (Playwright's is_visible(): a box, and not visibility:hidden).
VISIBLE_ROW_NAMES = """(rows) => rows.filter((r) => r.getClientRects().length > 0 && getComputedStyle(r).visibility !== 'hidden')
  .map((r) => r.querySelector('th a').innerText)"""


def test_two_bay_finds_what_2_bay_finds_on_the_real_data(real_page):
    page = real_page
    page.goto("/adapters/")
    rows = page.locator("table.adapters tbody tr")
    found = {}
    for spelling in ["2-bay", "two-bay", "2 bay", "dual bay"]:
        page.get_by_label("Filter rows").fill(spelling)
        found[spelling] = set(rows.evaluate_all(VISIBLE_ROW_NAMES))  # one call, not two per row of the real data
    assert found["2-bay"] == found["two-bay"] == found["2 bay"] == found["dual bay"]
    names = " ".join(found["2-bay"]).lower()
    assert "two-bay" in names and "2-bay" in names and "dual-bay" in names  # all three spellings among them


def test_a_bay_count_finds_cases_with_that_many_bays_not_cases_whose_evidence_names_one(real_page):
    """On what to buy, an untested four-bay case whose expectation rests on a two-bay one is not a "2-bay" match:
    the filter reads the row, not the related products folded inside it."""
    page = real_page
    page.goto("/buy/pi4/?q=2-bay")
    rows = page.locator("table.buy-table tbody tr, table.buy-expected tbody tr")
    names = [r["th"] for r in rows.evaluate_all(VISIBLE_ROWS)]
    assert names, "the real data has two-bay cases on /buy/pi4/"
    for name in names:
        assert re.search(r"\b(2|two|dual)[- ]?bay", name, re.IGNORECASE), name


def test_the_usb_id_list_links_each_product_and_chip_by_name(watched_page, site):
    """A helper scanning /usb/ reaches a product or a chip in one click, by the name the row shows."""
    rows = [r for r in model(site, "usb.json") if r["adapters"] and r["chipsets"]]
    assert rows, "the fixtures have an ID with both products and a chip"
    page = watched_page
    page.goto("/usb/")
    for row in rows:
        tr = page.locator("tbody tr", has=page.locator(f'a[href="/usb/{row["vid"]}/{row["pid"]}/"]'))
        products = tr.locator("td[data-label=Products] a")
        assert products.evaluate_all("(links) => links.map((a) => [a.textContent, a.getAttribute('href')])") == [
            [name, f"/adapters/{i}/"] for name, i in zip(row["products"], row["adapters"], strict=True)]
        chips = tr.locator("td[data-label=Chipsets] a")
        assert chips.evaluate_all("(links) => links.map((a) => [a.textContent, a.getAttribute('href')])") == [
            [name, f"/chipsets/{i}/"] for name, i in zip(row["chipset_names"], row["chipsets"], strict=True)]
    assert page.problems == []


def test_counts_and_ranks_follow_the_filter(watched_page, site):
    """issue 35: a filtered what-to-buy page counts and ranks what it shows, not the unfiltered page."""
    page = watched_page
    buy = model(site, "buy/pi5.json")
    ranked = [r for r in buy["products"] + buy["avoid"]]
    page.goto("/buy/pi5/?kind=enclosure")
    want = [r for r in ranked if "enclosure" in r["facets"]["kind"]]
    assert 0 < len(want) < len(ranked)
    for group in {r["group"] for r in ranked}:
        in_group = [r for r in want if r["group"] == group]
        section = page.locator(f'section[data-buy-group="{group}"]')
        if in_group:
            assert section.locator("[data-section-count]").inner_text() == str(len(in_group))
            ranks = section.locator("tbody > tr:visible [data-rank]").all_inner_texts()
            assert ranks == [str(n) for n in range(1, len(in_group) + 1)]
        counter = page.locator(f'[data-count="{group}"]')
        if counter.count():
            assert counter.inner_text() == str(len(in_group))
    assert page.locator('[data-count="with_verdict"]').inner_text() == str(len(want))
    no_model = page.locator('[data-count="no_model"]')
    if no_model.count():
        assert no_model.inner_text() == str(sum(1 for r in want if r["no_model"]))
    page.get_by_role("button", name=re.compile("Clear", re.I)).click()
    assert page.locator('[data-count="with_verdict"]').inner_text() == str(len(ranked)) == str(buy["counts"]["with_verdict"])
    assert page.problems == []
