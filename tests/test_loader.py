"""Hazardous YAML becomes a precise problem, never a silent change or a traceback."""
import pytest

from uasdb.records.loader import load_text

CASES = [
    # (name, raw bytes, expected (rule, line, column) list)
    ("clean", b"id: a\nname: b\n", []),
    ("duplicate key", b"id: a\nname: b\nid: c\n", [("yaml-duplicate-key", 3, 1)]),
    ("nested duplicate", b"a:\n  b: 1\n  b: 2\n", [("yaml-duplicate-key", 3, 3)]),
    ("anchor and alias", b"a: &x 1\nb: *x\n", [("yaml-anchor", 1, 4), ("yaml-anchor", 2, 4)]),
    ("tab", b"a: b\tc\n", [("file-tabs", 1, 5)]),
    ("bom", b"\xef\xbb\xbfa: 1\n", [("file-bom", 1, 1)]),
    ("crlf", b"a: 1\r\nb: 2\r\n", [("file-line-endings", 1, 5)]),
    ("not utf-8", b"a: 1\nb: caf\xe9\n", [("file-encoding", 2, 7)]),
    ("empty", b"", [("file-empty", 1, 1)]),
    ("only comments", b"# nothing\n\n", [("file-empty", 1, 1)]),
    ("top-level list", b"- a\n- b\n", [("yaml-top-level", 1, 1)]),
    ("top-level scalar", b"hello\n", [("yaml-top-level", 1, 1)]),
    ("syntax error", b"a: [1, 2\nb: 3\n", [("yaml-syntax", 2, 2)]),
    ("unquoted date", b"date: 2020-06-17\n", [("yaml-unquoted-date", 1, 7)]),
    ("yes is ambiguous", b"uas: yes\n", [("yaml-ambiguous", 1, 6)]),
    ("On is ambiguous", b"trim: On\n", [("yaml-ambiguous", 1, 7)]),
    ("true is a boolean", b"uas: true\n", []),
    ("explicit tag", b"a: !!python/object:os.system x\n", [("yaml-tag", 1, 4)]),
    ("two documents", b"a: 1\n---\nb: 2\n", [("yaml-multiple-documents", 1, 1)]),
    ("not finite", b"value: .nan\n", [("yaml-number", 1, 8)]),
    ("leading zero pid: 1.2 reads 578", b"pid: 0578\n", [("yaml-ambiguous", 1, 6)]),
    ("octal in 1.1, decimal in 1.2", b"pid: 0577\n", [("yaml-ambiguous", 1, 6)]),
    ("exponent without dot", b"pid: 26e8\n", [("yaml-ambiguous", 1, 6)]),
    ("1.2 octal", b"x: 0o17\n", [("yaml-ambiguous", 1, 4)]),
    ("sexagesimal", b"x: 1:20\n", [("yaml-ambiguous", 1, 4)]),
    ("plain hex id is text in both", b"vid: 152d\n", []),
    ("plain number same in both", b"value: 417.5\n", []),
    ("plain integer same in both", b"watts: 3\n", []),
]


@pytest.mark.parametrize("name,raw,expected", CASES, ids=[c[0] for c in CASES])
def test_loader_problems(name, raw, expected):
    loaded = load_text("x.yaml", raw)
    assert [(p.rule, p.line, p.column) for p in loaded.problems] == expected


def test_too_large_is_refused_before_parsing():
    loaded = load_text("x.yaml", b"a: " + b"x" * (256 * 1024) + b"\n")
    assert [p.rule for p in loaded.problems] == ["file-too-large"] and loaded.data is None


def test_duplicate_keeps_the_first_value_and_says_so():
    loaded = load_text("x.yaml", b"id: first\nid: second\n")
    assert loaded.data == {"id": "first"}
    assert "first at line 1" in loaded.problems[0].message


def test_plain_scalars_keep_their_text_for_messages():
    loaded = load_text("x.yaml", b"version: 1.10\nvid: 1234\n")
    assert loaded.data == {"version": 1.1, "vid": 1234}
    assert loaded.plain_text[("version",)] == "1.10" and loaded.plain_text[("vid",)] == "1234"


def test_positions_of_nested_values():
    loaded = load_text("x.yaml", b"reports:\n  - date: '2020-01-01'\n    host: pi4\n")
    assert loaded.position(("reports", 0, "host")) == (3, 11)
    assert loaded.position(("reports", 0, "missing")) == (2, 5)


@pytest.mark.parametrize("text, line, column", [
    ("id: x\n<<<<<<< HEAD\nname: A\n=======\nname: B\n>>>>>>> theirs\n", 2, 1),
    ("id: x\nnotes: |-\n  Works.\n  <<<<<<< HEAD\n  Boots.\n  =======\n  Fails.\n  >>>>>>> theirs\n", 4, 3),
    ("id: x\nnotes: |-\n  diff3 style\n  ||||||| base\n", 4, 3),
])
def test_merge_conflict_markers_are_named_where_they_stand(text, line, column):
    loaded = load_text("x.yaml", text.encode())
    first = loaded.problems[0]
    assert loaded.data is None and first.rule == "file-conflict-marker" and (first.line, first.column) == (line, column)
    assert "resolve the merge conflict" in first.fix
    assert {p.rule for p in loaded.problems} == {"file-conflict-marker"}


@pytest.mark.parametrize("text", ["notes: |-\n  ====== six, a heading rule\n  <<<<<<<< eight\n", "notes: a <<<<<<< b\n"])
def test_text_that_only_resembles_a_marker_is_fine(text):
    assert load_text("x.yaml", text.encode()).problems == []


@pytest.mark.parametrize("text, rule, line", [
    ("# comment\n%YAML 1.1\n---\nid: x\n", "yaml-directive", 2),
    ("%TAG !e! tag:example.com,2000:\n---\nid: x\n", "yaml-directive", 1),
    ("id: x\n<<: {name: y}\n", "yaml-merge-key", 2),
    ("id: x\nreports:\n  - <<: {host: pi4}\n", "yaml-merge-key", 3),
])
def test_yaml_features_tools_disagree_on_are_named(text, rule, line):
    problems = load_text("x.yaml", text.encode()).problems
    assert [(p.rule, p.line) for p in problems] == [(rule, line)]


def test_a_quoted_merge_key_is_plain_text():
    assert load_text("x.yaml", b'id: x\n"<<": y\n').problems == []
