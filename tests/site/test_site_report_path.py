"""One instruction wherever a page asks for a report: run the probe (python3 probe.py), then the report form, as
the issue form and CONTRIBUTING.md say; no page asks for `lsusb` and `lsusb -t` instead."""
from __future__ import annotations

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
