"""Pages do not move under the reader (issue 37): what the scripts wire up (the long lists' filters, the sort
select, the search filters, the check form, the quirk builder and its pick list) is laid out by the page itself,
so the layout shift a reader sees while the page loads stays under Lighthouse's 'good' line (0.05, the issue's
target; it was 0.30 on /quirks/ and 0.16 on /nice/). Measured on the real data, as a phone and as a desktop."""
from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.browser

# Every layout shift the page makes, summed as Lighthouse sums them (shifts right after an input do not count).
COLLECT_SHIFTS = """
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: 'layout-shift', buffered: true });
"""

VIEWPORTS = {"phone": {"width": 412, "height": 823}, "desktop": {"width": 1350, "height": 940}}
PAGES = ["/", "/quirks/", "/check/", "/nice/", "/naughty/", "/chipsets/", "/adapters/", "/buy/pi5/", "/usb/152d/0578/"]


@pytest.mark.parametrize("form", sorted(VIEWPORTS))
def test_pages_do_not_shift_while_they_load(browser, real_site, form):
    context = browser.new_context(base_url=real_site.url, viewport=VIEWPORTS[form])
    context.add_init_script(COLLECT_SHIFTS)
    page = context.new_page()
    # Scripts arrive after the first paint, as on a slow phone or network (Lighthouse's throttling): on a fast
    # machine they would run before it, and a panel they reveal would never be seen to move anything.
    page.route("**/*.js", lambda route: (time.sleep(0.4), route.continue_()))
    shifts = {}
    for path in PAGES:
        page.goto(path, wait_until="networkidle")
        page.wait_for_timeout(300)  # the last script's work and its paint
        shifts[path] = round(page.evaluate("window.__shift"), 3)
    context.close()
    assert {p: s for p, s in shifts.items() if s > 0.05} == {}, shifts


def test_the_scripted_parts_are_laid_out_before_the_script_runs(browser, real_site):
    """Without scripting nothing of them shows; with it, they are in the HTML as served, before any script ran."""
    context = browser.new_context(base_url=real_site.url)
    page = context.new_page()
    page.route("**/*.js", lambda route: route.abort())  # the page as first painted, before its scripts
    page.goto("/quirks/")
    assert page.locator("#quirk-builder").is_visible()
    picks = page.locator(".pick-list li")
    assert picks.count() == len([a for a in real_site.export["adapters"] if a["verdict"]["quirk_entries"]]) > 0
    assert page.locator("#builder-empty").is_visible()
    page.goto("/check/")
    assert page.locator("#check-form").is_visible()
    page.goto("/nice/")
    assert page.locator("[data-filter-panel]").is_visible()
    context.close()


def test_cells_with_two_usb_ids_give_each_link_a_24px_target(browser, real_site):
    page = browser.new_page(base_url=real_site.url, viewport={"width": 1350, "height": 940})
    page.goto("/adapters/")
    heights = page.locator("td.ids a").evaluate_all("links => links.map((a) => a.getBoundingClientRect().height)")
    assert heights, "no adapter in data/ has two USB IDs"
    assert min(heights) >= 24, min(heights)
    page.close()
