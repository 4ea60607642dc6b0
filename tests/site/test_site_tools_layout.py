"""The check page and the quirk builder with results on screen: axe finds no violations in light and dark,
nothing scrolls sideways at 360 px, and with UASDB_SCREENSHOTS=1 screenshots go to test-artifacts/ for people to look at."""
from __future__ import annotations

import re

import pytest
from test_site_check import captured

pytestmark = pytest.mark.browser


def show_check_results(page) -> None:
    page.goto("/check/")
    page.locator("#check-paste").fill(captured("seed-comment-lsusb-two-bridges.txt") + captured("rpi-linux-3070-dmesg-blacklisted.txt")
                                      + captured("seed-geerling-lsusb-t.txt") + captured("system-profiler-android.txt"))
    page.get_by_role("button", name="Check").click()
    page.locator(".check-status").filter(has_text=re.compile("^Found")).wait_for()


def show_builder_results(page) -> None:
    page.goto("/quirks/?adapters=fixture-naughty-jms,fixture-hostile&entries=152d:0567:t,2537:1068:u")
    page.locator("#builder-line").filter(has_text="152d:0567").wait_for()
    typed = page.get_by_label("USB IDs and flag letters")
    typed.fill(typed.input_value() + " " + " ".join(f"ffff:{n:04x}:u" for n in range(1, 11)) + " nonsense")
    # The builder has shown the line for the last edit (aria-busy is true from an edit until then).
    page.locator('#builder-result[aria-busy="false"]').wait_for(state="attached")
    page.locator('#typed-problems').filter(has_text="nonsense").wait_for()
    page.locator('[data-warning="too-long"]').wait_for()


TOOLS = {"check": show_check_results, "quirks": show_builder_results}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(TOOLS))
def test_axe_finds_no_violations_with_results_shown(axe_results, name, scheme):
    results = axe_results(name, TOOLS[name], scheme)  # one load per tool, light then dark (conftest.axe_results)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(TOOLS))
def test_tool_pages_fit_the_screen_and_are_captured(browser, site, capture, name, width, scheme):
    context = browser.new_context(base_url=site.url, viewport={"width": width, "height": 800}, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    TOOLS[name](page)
    capture(page, f"site-{name}-{width}-{scheme}")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert overflow <= 0, f"/{name}/ scrolls sideways by {overflow}px at {width}px"
    assert errors == []
