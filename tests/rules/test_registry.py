"""One registry: every problem id the code can report is a registered rule with a severity, and the fixers it
claims are what `uasdb fmt` really repairs."""
import json
import re

import pytest

from helpers import REPO, TODAY, adapter, write_tree
from uasdb.cli import build_parser
from uasdb.records.database import check
from uasdb.records.fmt import canonical_text
from uasdb.records.rules import ALL_KINDS, all_rules, declare, rule_by_id

REGISTERED = {r.id for r in all_rules()}
SOURCES = sorted((REPO / "scripts" / "uasdb").rglob("*.py"))


def test_every_literal_problem_id_in_the_code_is_registered():
    text = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    commands = set(build_parser()._subparsers._group_actions[0].choices)  # `issue-form` is a command, not a problem
    emitted = set(re.findall(r'"((?:file|yaml|schema|waiver|issue)-[a-z0-9-]+)"', text)) - commands
    assert emitted and sorted(emitted - REGISTERED) == []


def _keywords(node):
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            if key == "properties":
                yield from _keywords(list(value.values()))  # property names are not keywords
            elif key not in ("examples", "description") and not key.startswith("x-uasdb-"):
                yield from _keywords(value)
    elif isinstance(node, list):
        for item in node:
            yield from _keywords(item)


# Keys that describe rather than check; additionalProperties failures are worded as unknown fields.
ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "examples", "default", "items", "properties"}
ID_FOR = {"additionalProperties": "schema-unknown-field"}


def test_every_json_schema_keyword_the_schemas_use_has_its_id():
    # The record schemas (api.schema.json checks the export in a test, never a contributor's record).
    from uasdb.records.schema import KINDS
    used = {k for kind in KINDS for k in _keywords(json.loads((REPO / "schema" / f"{kind}.schema.json").read_text()))}
    # x-uasdb-* keys are our annotations (vocabulary.py reads them); validators ignore them.
    expected = {ID_FOR.get(k, f"schema-{k.lower()}") for k in used - ANNOTATIONS if not k.startswith("x-uasdb-")}
    assert {"schema-maxlength", "schema-anyof", "schema-enum"} <= expected
    assert sorted(expected - REGISTERED) == []


def test_every_id_in_the_golden_output_is_registered():
    text = (REPO / "tests" / "fixtures" / "invalid" / "expected-output.txt").read_text(encoding="utf-8")
    seen = set(re.findall(r"\[([a-z][a-z0-9-]+)\]", text))
    assert len(seen) > 20 and sorted(seen - REGISTERED) == []


def test_every_rule_has_words_a_severity_and_an_example():
    for entry in all_rules():
        assert entry.description and entry.example and entry.severity in ("error", "warning"), entry.id


def test_a_rule_id_registers_once():
    with pytest.raises(ValueError, match="registered twice"):
        declare("file-bom", "again", "file")


def test_the_severity_of_a_finding_defaults_to_its_rules(tmp_path):
    problems = check([write_tree(tmp_path, [adapter(), adapter(id="other-box")])], today=TODAY).problems
    assert {p.severity for p in problems if p.rule == "shared-usb-id"} == {rule_by_id("shared-usb-id").severity}


SCHEMA_LINE = "# yaml-language-server: $schema=../../schema/adapter.schema.json\n"
BODY = "id: acme-box\nname: Acme Box\n"
# What each fixable rule's problem looks like in a file, and that file.
BROKEN = {
    "file-bom": "\ufeff" + SCHEMA_LINE + BODY,
    "file-line-endings": (SCHEMA_LINE + BODY).replace("\n", "\r\n"),
    "file-tabs": SCHEMA_LINE + "id: acme-box\nname: Acme Box\naliases:\n\t- acme-old\n",
    "schema-comment": BODY,
    "yaml-directive": SCHEMA_LINE + "%YAML 1.1\n---\n" + BODY,
}


def test_each_fixer_is_tested_here():
    assert {r.id for r in all_rules() if r.fixable} == set(BROKEN)


@pytest.mark.parametrize("rule_id", sorted(BROKEN))
def test_fmt_repairs_what_the_registry_says_it_repairs(tmp_path, rule_id):
    folder = tmp_path / "data" / "adapters"
    folder.mkdir(parents=True)
    path = folder / "acme-box.yaml"
    path.write_bytes(BROKEN[rule_id].encode("utf-8"))
    assert rule_id in {p.rule for p in check([path], today=TODAY).problems}
    path.write_text(canonical_text(path, path.read_bytes()), encoding="utf-8")
    assert rule_id not in {p.rule for p in check([path], today=TODAY).problems}


def test_declared_ids_apply_to_every_kind():
    assert all(r.kinds == ALL_KINDS for r in all_rules() if r.check is None)
