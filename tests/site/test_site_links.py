"""Every internal link resolves, on the fixture site and on the site built from the real data/; every page
loads without console errors or requests to other origins."""
from __future__ import annotations

import pytest

from crawl import crawl

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


def test_no_page_logs_errors_or_leaves_the_origin(site, watched_page):
    _, _, pages = crawl(site.url)
    assert len(pages) > 10
    for url in sorted(pages):
        watched_page.goto(url)
        watched_page.wait_for_load_state("networkidle")
    assert watched_page.problems == []
