"""Every internal link resolves over plain HTTP, on the fixture site and on the site built from the real data/;
one page of each layout loads in the browser without console errors or requests to other origins."""
from __future__ import annotations

import pytest
from crawl import crawl, one_page_per_layout

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def fixture_crawl(site):
    """The fixture site crawled once over HTTP (crawl.crawl): (status per URL, broken links, pages)."""
    return crawl(site.url)


def test_fixture_site_has_no_broken_links(site, fixture_crawl):
    status, broken, pages = fixture_crawl
    assert broken == []
    for adapter in site.export["adapters"]:
        assert f"{site.url}/adapters/{adapter['id']}/" in pages
    assert f"{site.url}/api/v1/adapters.json" in status  # the footer links the API


def test_real_data_site_has_no_broken_links(real_site):
    status, broken, pages = crawl(real_site.url)
    assert broken == []
    for adapter in real_site.export["adapters"]:
        assert f"{real_site.url}/adapters/{adapter['id']}/" in pages
    for chipset in real_site.export["chipsets"]:
        assert f"{real_site.url}/chipsets/{chipset['id']}/" in pages


def test_one_page_per_layout_covers_every_section():
    pages = {f"http://x{path}" for path in ("/", "/adapters/", "/adapters/a/", "/adapters/b/", "/usb/152d/0578/",
                                          "/usb/152d/0579/", "/usb/2109/", "/check/", "/404.html")}
    assert sorted(one_page_per_layout(pages)) == ["http://x/", "http://x/404.html", "http://x/adapters/",
                                                  "http://x/adapters/a/", "http://x/check/", "http://x/usb/152d/0578/",
                                                  "http://x/usb/2109/"]


def test_no_layout_logs_errors_or_leaves_the_origin(site, fixture_crawl, watched_page, watch_page):
    _, _, pages = fixture_crawl
    chosen = one_page_per_layout(pages)
    assert len(pages) > 10 and len(chosen) > 5
    assert f"{site.url}/adapters/fixture-hostile/" in pages
    # Four watched tabs take the pages in turn: each page loads, then is watched until the network has been idle for
    # half a second (what its scripts fetch after the load counts too), while the other tabs load theirs; the tab
    # takes its next page only then. The half-seconds of idle overlap instead of adding up.
    tabs = [watched_page.context.new_page() for _ in range(4)]
    for tab in tabs:
        watch_page(tab)
    problems, loaded = {}, {}
    for n, url in enumerate(chosen + [f"{site.url}/adapters/fixture-hostile/"]):  # the hostile record renders too
        tab = tabs[n % len(tabs)]
        if tab in loaded:
            tab.wait_for_load_state("networkidle")
            problems[loaded[tab]], tab.problems = tab.problems, []
        tab.goto(url)
        loaded[tab] = url
    for tab, url in loaded.items():
        tab.wait_for_load_state("networkidle")
        problems[url] = tab.problems
    assert len(problems) == len(chosen) + 1
    assert {url: found for url, found in problems.items() if found} == {}
