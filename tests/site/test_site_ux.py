"""What the buyer, the helper and the contributor rely on (issue 13): the report link, linkable search,
case-insensitive ID addresses, the 404 search, the check page's diagnosis, page order and what to buy."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
import yaml

from uasdb.database import REPO_ROOT

pytestmark = pytest.mark.browser

FORM = yaml.safe_load((REPO_ROOT / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml").read_text(encoding="utf-8"))
FORM_FIELDS = {item["id"] for item in FORM["body"] if "id" in item}


def form_link(href: str) -> dict:
    """The query of an "add your report" link, after checking it opens the adapter-report form."""
    url = urlparse(href)
    assert url.netloc == "github.com" and url.path.endswith("/issues/new"), href
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query["template"] == "adapter-report.yml"
    assert query["labels"].split(",") == FORM["labels"]
    assert set(query) - {"template", "labels", "title"} <= FORM_FIELDS  # every other parameter is a form field
    return query


def test_adapter_page_report_link_opens_the_form_prefilled(watched_page, site):
    adapter = site.adapter("fixture-naughty-jms")
    watched_page.goto("/adapters/fixture-naughty-jms/")
    query = form_link(watched_page.get_by_role("link", name="Add your report").get_attribute("href"))
    first = adapter["usb_ids"][0]
    assert query["usb_id"] == f"{first['vid']}:{first['pid']}"
    assert query["adapter"] == "fixture-naughty-jms"
    assert query["title"] == f"{FORM['title']}{adapter['name']}"


def test_usb_page_without_products_report_link_names_the_id(watched_page, site):
    key = next(k for k, slot in site.export["usb"].items() if not slot.get("adapters"))
    vid, pid = key.split(":")
    watched_page.goto(f"/usb/{vid}/{pid}/")
    query = form_link(watched_page.get_by_role("link", name="add your report").get_attribute("href"))
    assert query["usb_id"] == key and "adapter" not in query


def test_home_report_link_opens_the_blank_form(watched_page):
    watched_page.goto("/")
    query = form_link(watched_page.get_by_role("link", name="Report it").get_attribute("href"))
    assert "usb_id" not in query


def test_check_report_link_carries_the_pasted_id(watched_page):
    page = watched_page
    page.goto("/check/")
    page.locator("#check-paste").fill("0bda:9999")
    page.get_by_role("button", name="Check").click()
    page.locator(".found").wait_for()
    query = form_link(page.locator(".found").get_by_role("link", name="Add your report").get_attribute("href"))
    assert query["usb_id"] == "0bda:9999"
    assert query["title"] == f"{FORM['title']}0bda:9999"
