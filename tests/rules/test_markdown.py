import pytest

from helpers import adapter, rule_hits

CASES = [
    ("plain text", "Works after a firmware update.", []),
    ("code span", "Add `usb-storage.quirks=152d:0578:u` to cmdline.txt.", []),
    ("https link", "See [the thread](https://example.org/t/1).", []),
    ("autolink https", "See <https://example.org/t/1>.", []),
    ("script tag", "Hi <script>alert(1)</script>", ["reports[0].notes"]),
    ("img onerror", "\"><img src=x onerror=alert(1)>", ["reports[0].notes"]),
    ("javascript link", "[click](javascript:alert(1))", ["reports[0].notes"]),
    ("data link", "[x](data:text/html;base64,AAAA)", ["reports[0].notes"]),
    ("http link", "[x](http://example.org)", ["reports[0].notes"]),
    ("javascript autolink", "<javascript:alert(1)>", ["reports[0].notes"]),
]


@pytest.mark.parametrize("name,notes,expected", CASES, ids=[c[0] for c in CASES])
def test_notes_are_safe_markdown(check_records, name, notes, expected):
    assert rule_hits(check_records([adapter(report={"notes": notes})]), "markdown-safe") == expected


def test_record_notes_checked_too(check_records):
    assert rule_hits(check_records([adapter(notes="<b>bold</b>")]), "markdown-safe") == ["notes"]
