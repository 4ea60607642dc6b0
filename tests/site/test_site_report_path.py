"""One instruction wherever a page asks for a report: run the probe (python3 probe.py), then the report form, as
the issue form and CONTRIBUTING.md say; no page asks for `lsusb` and `lsusb -t` instead."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["/", "/wanted/"])
def test_pages_asking_for_a_report_say_run_the_probe(watched_page, site, path):
    page = watched_page
    page.goto(path)
    asking = page.locator("p", has=page.locator("a[data-report-link]"))
    assert asking.count() == 1
    text = asking.inner_text()
    assert "python3 probe.py" in text and "probe's output" in text
    assert "lsusb -t" not in text
    probe = asking.get_by_role("link", name="uasdb's probe").get_attribute("href")
    assert probe == "/probe.py"
    assert page.request.get(site.url + probe).text().startswith("#!")  # the probe people download
    assert page.problems == []


@pytest.mark.parametrize("path, has_products", [("/usb/152d/0578/", True), ("/usb/058f/6387/", False)])
def test_every_usb_id_page_asks_for_a_report_with_the_id_filled_in(watched_page, site, path, has_products):
    """/wanted/ promises that each ID's own page has a link that fills the ID in: pages of IDs that products
    already report have it too, not only the IDs nobody has reported."""
    page = watched_page
    page.goto(path)
    key = ":".join(path.strip("/").split("/")[1:])
    assert (page.locator("table.adapters").count() > 0) == has_products
    asking = page.locator("p", has=page.locator("a[data-report-link]"))
    assert asking.count() == 1
    assert "python3 probe.py" in asking.inner_text() and key in asking.inner_text()
    href = asking.locator("a[data-report-link]").get_attribute("href")
    assert "/issues/new?" in href and parse_qs(urlsplit(href).query)["usb_id"] == [key]
    assert page.problems == []
