"""Pages do not move under the reader (issue 37): what the scripts wire up (the long lists' filters, the sort
select, the search filters, the check form, the quirk builder and its pick list) is laid out by the page itself,
so the layout shift a reader sees while the page loads stays under Lighthouse's 'good' line (0.05, the issue's
target; it was 0.30 on /quirks/ and 0.16 on /nice/). Measured on the real data, as a phone and as a desktop."""
from __future__ import annotations

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


# Resolves once the page has painted (its first paint, or at once if it already has).
PAINTED = """() => new Promise((done) => new PerformanceObserver((list, observer) => { observer.disconnect(); done(); })
  .observe({ type: 'paint', buffered: true }))"""
# Resolves after the next frame is painted.
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def after_the_first_paint(route) -> None:
    """Holds a script until its page has painted, then lets it through (always: a script held for good would hang
    the page, not fail the test)."""
    try:
        route.request.frame.page.evaluate(PAINTED)
    finally:
        route.continue_()


@pytest.mark.parametrize("form", sorted(VIEWPORTS))
def test_pages_do_not_shift_while_they_load(browser, real_site, form):
    context = browser.new_context(base_url=real_site.url, viewport=VIEWPORTS[form])
    context.add_init_script(COLLECT_SHIFTS)
    # Scripts arrive after the first paint, as on a slow phone or network (Lighthouse's throttling): on a fast
    # machine they would run before it, and a panel they reveal would never be seen to move anything. Each script
    # is held until its page has painted (not for a fixed time, which a busy machine can outlast).
    context.route("**/*.js", after_the_first_paint)
    # Three tabs take the pages in turn, each page in a document of its own (its own sum): a page is read once the
    # network has been idle for half a second (its scripts and what they fetch are in) and its last work is
    # painted; the other tabs load theirs meanwhile.
    tabs = [context.new_page() for _ in range(3)]
    shifts, loading = {}, {}

    def read(tab) -> None:
        tab.wait_for_load_state("networkidle")
        tab.evaluate(NEXT_FRAME)
        shifts[loading.pop(tab)] = round(tab.evaluate("window.__shift"), 3)

    for n, path in enumerate(PAGES):
        tab = tabs[n % len(tabs)]
        if tab in loading:
            read(tab)
        tab.goto(path, wait_until="commit")
        loading[tab] = path
    for tab in list(loading):
        read(tab)
    context.close()
    assert len(shifts) == len(PAGES)
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
