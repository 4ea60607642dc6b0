"""/check/'s "Report this adapter": after a paste of the probe's output, a button opens the adapter-report form
with that adapter's report filled in, only when pressed, and the page says what goes to GitHub. The page itself,
its address and its "Copy link" never carry the paste (tests/site/test_site_check_link.py covers the rest)."""
from __future__ import annotations

import contextlib
import io

import pytest
from test_site_check import PROBE_FIXTURES, probe_output, run_check

from test_report_roundtrip import DATA, DATE, FIELD_IDS, answers, filled_form, github_body
from uasdb import probe
from uasdb.ingest import issue as issue_mod
from uasdb.probe.formlink import LINK_LIMIT

pytestmark = pytest.mark.browser


def report_block(output: str, usb_id: str = "152d:0578") -> str:
    """The report as the bot reads it: from its start marker to its end marker."""
    start = output.index(probe.REPORT_START.format(usb_id=usb_id))
    return output[start:output.index(probe.REPORT_END, start) + len(probe.REPORT_END)]


def long_probe_output() -> str:
    args = ["--date", DATE.isoformat(), "--handle", "octocat", "--root", str(PROBE_FIXTURES / "trees" / "pi4-uas"),
            "--captured", str(PROBE_FIXTURES / "commands" / "pi4-uas-long-dmesg")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert probe.main(args) == 0
    return out.getvalue()


def page_links(page) -> list:
    return page.locator("a[href]").evaluate_all("links => links.map(a => a.href)")


@pytest.mark.parametrize("tree", ["pi4-uas", "pi4-kernel-ignores-uas", "pi4-user-quirk"])
def test_report_this_adapter_opens_the_form_with_the_pasted_report_only_when_pressed(browser, site, tree):
    context = browser.new_context(base_url=site.url)
    requested = []
    context.route("https://github.com/**", lambda route: (requested.append(route.request.url),
                                                          route.fulfill(status=200, body="the form", content_type="text/plain")))
    page = context.new_page()
    page.goto("/check/")
    output = probe_output(tree)
    run_check(page, output)
    section = page.locator("section.found[data-usb-id='152d:0578']")
    # Before the press: no address on the page, and not the page's own, holds the paste.
    assert "probe" not in page.url and not any("probe=" in href for href in page_links(page))
    # What will be sent, said and shown: exactly the report block, nothing else of the paste.
    said = section.locator(".report-this").inner_text()
    assert "Nothing is sent until you submit the form on GitHub, and the issue is public." in said
    assert "Several records share this ID: name yours in the form." in said  # the fixture site has two for it
    assert section.locator("[data-report-text]").text_content() == report_block(output)
    with page.expect_popup() as opened:
        section.get_by_role("button", name="Report this adapter").click()
    popup = opened.value
    popup.wait_for_load_state()
    form = filled_form(popup.url)
    assert requested == [popup.url] and len(popup.url) <= LINK_LIMIT
    assert set(form) <= {"template", "labels", "title", *FIELD_IDS}
    assert (form["template"], form["labels"], form["title"], form["usb_id"]) == \
        ("adapter-report.yml", "report-submitted", "Report: 152d:0578", "152d:0578")
    assert "adapter" not in form and form["probe"] == report_block(output)
    # After it: the page's address (what "Copy link" copies) still holds no paste.
    assert "probe" not in page.url and "octocat" not in page.url
    # The bot reads the filled form as it reads the whole output pasted by hand (the person names the record).
    person = {**answers("pi4", new=False), "adapter": "orico-2139u3"}
    by_button = issue_mod.from_issue(github_body({**form, **person}), "issue", "octocat", DATE, DATA)
    by_hand = issue_mod.from_issue(github_body({"usb_id": "152d:0578", "probe": output, **person}), "issue", "octocat",
                                   DATE, DATA)
    assert by_button.text == by_hand.text
    context.close()


def test_without_a_probe_report_there_is_no_button(watched_page):
    page = watched_page
    page.goto("/check/")
    run_check(page, "Bus 002 Device 003: ID 152d:0578 JMicron Technology Corp.")
    assert page.locator("section.found[data-usb-id='152d:0578']").count() == 1
    assert page.locator("[data-report-this]").count() == 0
    assert page.problems == []


def test_a_report_too_long_for_a_link_says_so_and_offers_the_form_to_paste_into(watched_page):
    page = watched_page
    page.goto("/check/")
    output = long_probe_output()
    run_check(page, output)
    box = page.locator("[data-report-too-long='152d:0578']")
    assert "is too long for a link (GitHub refuses addresses over 8,000 characters)" in box.inner_text()
    assert page.locator("[data-report-this]").count() == 0
    form = filled_form(box.get_by_role("link", name="Open the report form").get_attribute("href"))
    assert form["usb_id"] == "152d:0578" and "probe" not in form
    assert box.locator("[data-report-text]").text_content() == report_block(output)
    assert page.problems == []
