"""The JSON API can be found from the site: /api/v1/ lists every endpoint with its line and its schema, and each
page built from an API file (its model) names it in a <link rel="alternate" type="application/json">."""
from __future__ import annotations

import json

import pytest

from uasdb.publish.api_index import API_SCHEMA

pytestmark = pytest.mark.browser

FILES = json.loads(API_SCHEMA.read_text(encoding="utf-8"))["x-uasdb-files"]


def test_the_api_folder_has_an_index_of_every_endpoint(watched_page):
    page = watched_page
    response = page.goto("/api/v1/")
    assert response.status == 200
    assert page.locator("h1").inner_text() == "JSON API, version 1"
    terms = page.locator("dl.api-files dt").all_inner_texts()
    assert sorted(terms) == sorted([f"/api/v1/{name}" for name in FILES] + ["/adapters.csv"])
    for name, pointer in FILES.items():
        entry = page.locator("dl.api-files dt", has_text=f"/api/v1/{name}").locator("xpath=following-sibling::dd[1]")
        assert entry.get_by_role("link", name="Schema").get_attribute("href") == f"/schema/api.schema.json{pointer}"
        links = page.locator("dl.api-files dt", has_text=f"/api/v1/{name}").get_by_role("link")
        example = entry.locator("a", has_text="/api/v1/")
        if "<" in name and example.count() == 0:
            assert name.startswith(("ids/", "usbids/")), f"{name} has no example file"  # shards: shards.json lists them
            continue
        target = links.get_attribute("href") if "<" not in name else example.get_attribute("href")
        payload = page.request.get(target)
        assert payload.ok and set(payload.json()) == {"schema_version", "generated_at", "result"}, target
    assert "record's id" in page.locator("dl.api-files dd").nth(1).inner_text()  # the line API.md gives it
    assert page.problems == []


def test_the_footer_leads_to_the_api_index(watched_page):
    watched_page.goto("/")
    assert watched_page.locator("footer").get_by_role("link", name="JSON API").get_attribute("href") == "/api/v1/"


@pytest.mark.parametrize("path, twin, check", [
    ("/adapters/fixture-naughty-jms/", "/api/v1/adapters/fixture-naughty-jms.json", lambda r: r["id"] == "fixture-naughty-jms"),
    ("/usb/152d/0578/", "/api/v1/usb/152d/0578.json", lambda r: (r["vid"], r["pid"]) == ("152d", "0578")),
    ("/chipsets/", "/api/v1/chipsets.json", lambda r: "jms567" in [c["id"] for c in r]),
    ("/chipsets/jms567/", "/api/v1/chipsets/jms567.json", lambda r: r["id"] == "jms567"),
    ("/naughty/", "/api/v1/lists.json", lambda r: "fixture-naughty-jms" in r["naughty"]),
    ("/nice/", "/api/v1/lists.json", lambda r: "naughty" in r and "nice" in r),
    ("/adapters/", "/api/v1/adapter-rows.json", lambda r: len(r) >= 5),
    ("/wanted/", "/api/v1/wanted.json", lambda r: "wanted" in r),
])

def test_pages_name_their_json_twin(watched_page, path, twin, check):
    page = watched_page
    page.goto(path)
    alternate = page.locator('head link[rel="alternate"][type="application/json"]')
    assert alternate.count() == 1
    assert alternate.get_attribute("href") == twin
    assert check(page.request.get(twin).json()["result"])


def test_pages_without_a_twin_name_none(watched_page):
    for path in ("/", "/check/", "/api/v1/"):
        watched_page.goto(path)
        assert watched_page.locator('head link[type="application/json"]').count() == 0, path
