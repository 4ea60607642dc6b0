"""url-safe: one check for every link, shared by records and the issue bot."""
import pytest

from helpers import BASE_CHIPSET, adapter, rule_hits
from uasdb.records.rules.links import url_problem

URLS = [
    ("https://github.com/raspberrypi/linux/issues/3070", None),
    ("https://www.example.org:8443/a?b=c#d", None),
    ("https://xn--bcher-kva.example/", None),
    ("https://github.com@evil.example/raspberrypi/linux", "leads to `evil.example`"),
    ("https://user:pass@example.org/", "is a user name"),
    ("https://github.com\\@evil.example/", "holds a backslash"),
    ("https://bücher.example/", "has no plain host name"),
    ("https://exa%6Dple.org/", "has no plain host name"),
    ("https://localhost/", "has no plain host name"),
    ("https://example.org:http/", "has no plain host name"),
    ("https://-bad-.example/", "has no plain host name"),
    ("http://example.org/", "is not an https link"),
    ("javascript:alert(1)", "is not an https link"),
]


@pytest.mark.parametrize("url, message", URLS, ids=[u[0] for u in URLS])
def test_one_check_for_every_link(url, message):
    found = url_problem(url)
    assert (found is None) if message is None else (found is not None and message in found[0]), found


def test_a_host_list_keeps_an_address_on_its_site():
    assert url_problem("https://uasdb.github.io/adapters/x/", ["uasdb.github.io"]) is None
    assert "is on `evil.example`, not on `uasdb.github.io`" in url_problem("https://evil.example/adapters/x/",
                                                                          ["uasdb.github.io"])[0]


@pytest.mark.parametrize("record, field", [
    (adapter(report={"source": {"url": "https://github.com@evil.example/x"}}), "reports[0].source.url"),
    (adapter(manufacturer_url="https://www.acme.example\\@evil.example/"), "manufacturer_url"),
])
def test_records_get_the_same_check_in_every_link_field(check_records, record, field):
    assert rule_hits(check_records([record]), "url-safe") == [field]


def test_chipset_sources_are_links_too(check_records):
    chipset = dict(BASE_CHIPSET, sources=["https://example.org@evil.example/"])
    assert rule_hits(check_records([adapter()], [chipset]), "url-safe") == ["sources[0]"]


def test_a_link_the_schema_refuses_is_reported_once_by_the_schema(check_records):
    problems = check_records([adapter(report={"source": {"url": "http://example.org/"}})])
    assert rule_hits(problems, "url-safe") == [] and rule_hits(problems, "schema-pattern") == ["reports[0].source.url"]
