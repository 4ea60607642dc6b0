"""Accessibility and layout: axe-core finds no violations in light and dark, nothing overflows at 360 px,
and with UASDB_SCREENSHOTS=1 screenshots of the main pages are saved under test-artifacts/ for people to look at."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGES = {
    "home": "/", "adapter": "/adapters/fixture-naughty-jms/", "adapter-chart": "/adapters/fixture-nice-sata/",
    "adapters": "/adapters/", "naughty": "/naughty/", "nice": "/nice/", "chipset": "/chipsets/jms567/",
    "chipsets": "/chipsets/", "usb": "/usb/152d/0578/", "usb-ids": "/usb/", "hostile": "/adapters/fixture-hostile/",
    "not-found": "/no-such-page/", "usb-kernel-only": "/usb/2109/0715/", "chipset-asmedia": "/chipsets/asm1153e/",
    "adapter-nvme": "/adapters/fixture-nvme/", "wanted": "/wanted/", "usb-wanted": "/usb/058f/6387/", "api": "/api/v1/",
    # The filters of the long pages, with a choice made and with nothing left (issue 29).
    "buy-filtered": "/buy/pi5/?kind=enclosure&boots=untested", "buy-empty": "/buy/pi5/?kind=cable-adapter&boots=yes",
    "usb-ids-filtered": "/usb/?q=152d&products=yes",
    "verdicts": "/verdicts/",  # the rule, and the evaluation of expectations with its matrices (issue 36)
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_axe_finds_no_violations(axe_results, name, scheme):
    def show(page):
        page.goto(PAGES[name])
        if name == "home":  # include the search results and filters in the check
            page.get_by_role("searchbox").fill("152d:0578")
            page.locator(".search-status").filter(has_text="result").wait_for()
    results = axe_results(name, show, scheme)  # one load per page, light then dark (conftest.axe_results)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_fit_the_screen_and_are_captured(browser, site, capture, width, scheme):
    context = browser.new_context(base_url=site.url, viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    for name, path in PAGES.items():
        page.goto(path)
        capture(page, f"site-{name}-{width}-{scheme}")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
    context.close()


def test_print_layout_hides_controls_and_opens_evidence(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    page.emulate_media(media="print")
    assert page.locator("form.search, .site-header nav").first.is_hidden()
    assert page.locator("button.copy").is_hidden()
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator("details[open]").count() == page.locator("details").count()
