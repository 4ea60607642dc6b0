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
    # CommonMark link reference definitions in every form it accepts.
    ("definition", "[l]: javascript:alert(1)", ["reports[0].notes"]),
    ("definition, target on the next line", "[l]:\n  javascript:alert(1)", ["reports[0].notes"]),
    ("definition, escaped bracket in the label", "[a\\]b]: javascript:alert(1)", ["reports[0].notes"]),
    ("definition, label over two lines", "[a\nb]: javascript:alert(1)", ["reports[0].notes"]),
    ("definition, target in angle brackets", "[l]: <javascript:alert(1)>", ["reports[0].notes"]),
    ("definition in a block quote", "> [l]: javascript:alert(1)", ["reports[0].notes"]),
    ("definition in a list item", "- [l]: javascript:alert(1)", ["reports[0].notes"]),
    ("https definition", "[l]:\n  https://example.org/t/1", []),
    ("brackets in prose", "Flags [u] and [k]: both tried.", []),
    ("prose that Markdown would swallow as a definition", "[k]: tried too", ["reports[0].notes"]),
    ("site path", "See [the rules](/verdicts/#boot).", []),
    ("protocol-relative link", "[x](//evil.example/)", ["reports[0].notes"]),
    ("backslash host", "[x](/\\evil.example/)", ["reports[0].notes"]),
    ("user name before the host", "[x](https://github.com@evil.example/)", ["reports[0].notes"]),
]


@pytest.mark.parametrize("name,notes,expected", CASES, ids=[c[0] for c in CASES])
def test_notes_are_safe_markdown(check_records, name, notes, expected):
    assert rule_hits(check_records([adapter(report={"notes": notes})]), "markdown-safe") == expected


def test_record_notes_checked_too(check_records):
    assert rule_hits(check_records([adapter(notes="<b>bold</b>")]), "markdown-safe") == ["notes"]
