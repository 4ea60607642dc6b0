"""A query fetches only the index chunks its words need (issue 37): on the real data a chip or vendor query used to
run its "lead" searches by filter alone, which load every chunk of the search index. Counted at the server, as
the bench counts: Pagefind fetches its index from a Web Worker, whose requests the page never sees."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from uasdb.tools.bench_search import pages_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def counted(real_site):
    server = pages_server(real_site.public)
    server.start()
    yield server
    server.stop()


def _chunks_for(browser, server, query):
    """The index chunks (pagefind/index/*.pf_index) the home page's search fetched for `query`, and the results."""
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    page.goto("/")
    del server.requests[:]
    page.get_by_role("searchbox").fill(query)
    page.locator(".search-status").filter(has_text="result").wait_for()
    page.wait_for_load_state("networkidle")
    links = page.locator(".results li a.result-title")
    found = [links.nth(i).get_attribute("href") for i in range(links.count())]
    chunks = {urlsplit(path).path for path, _ in server.requests if path.endswith(".pf_index")}
    context.close()
    return chunks, found


@pytest.mark.parametrize("query, first", [("JMS583", "/chipsets/jms583/"), ("Sabrent", None)])
def test_a_chip_or_vendor_query_fetches_only_its_chunks_and_still_leads_with_them(browser, counted, real_site, query, first):
    every_chunk = list((real_site.public / "pagefind" / "index").glob("*.pf_index"))
    assert len(every_chunk) >= 4, "the real data's index has too few chunks to tell a query's from all"
    chunks, found = _chunks_for(browser, counted, query)
    assert 0 < len(chunks) <= len(every_chunk) // 2, (len(chunks), len(every_chunk))
    if first:
        assert found[0] == first
    named = {a["id"] for a in real_site.export["adapters"]
             if (a.get("chipset") == query.lower() if first else a.get("vendor_label") == query)}
    assert len(named) >= 3, f"too few adapters in data/ have {query} to tell leads from the rest"
    # The leads still lead: the first adapters found are the chip's or the vendor's.
    adapters = [url.strip("/").split("/")[-1] for url in found if url.startswith("/adapters/")]
    assert set(adapters[:3]) <= named, adapters

def test_buy_tables_are_out_of_the_search_index(browser, counted):
    """A product's name finds its own page, not the what-to-buy pages whose tables list it."""
    _, found = _chunks_for(browser, counted, "Samsung T7")
    assert found and not any(url.startswith("/buy/") for url in found), found
