"""Every internal link resolves over plain HTTP, on the fixture site and on the site built from the real data/;
one page of each layout loads in the browser without console errors or requests to other origins."""
from __future__ import annotations

import pytest
from crawl import crawl, one_page_per_layout

pytestmark = pytest.mark.browser


def test_fixture_site_has_no_broken_links(site):
    status, broken, pages = crawl(site.url)
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


def test_no_layout_logs_errors_or_leaves_the_origin(site, watched_page):
    _, _, pages = crawl(site.url)
    chosen = one_page_per_layout(pages)
    assert len(pages) > 10 and len(chosen) > 5
    assert f"{site.url}/adapters/fixture-hostile/" in pages
    for url in chosen + [f"{site.url}/adapters/fixture-hostile/"]:  # the hostile record renders too
        watched_page.goto(url)
        watched_page.wait_for_load_state("networkidle")
    assert watched_page.problems == []
