import copy

import pytest
import yaml

from helpers import TODAY, rule_hits
from uasdb.records.database import check

ENTRY = {"vid": "152d", "pid": "0578", "flags": "u", "added_in": "https://example.org/pull/1",
         "added_on": "2022-04-25", "reason": "Reported broken with UAS."}
BASE = {"id": "some-os", "name": "Some OS", "file": "https://example.org/cmdline.txt",
        "seen": {"date": "2026-02-12"}, "hosts": ["pi4"], "entries": [ENTRY]}


def distribution(*entries, **changes):
    record = copy.deepcopy(BASE)
    if entries:
        record["entries"] = [{**ENTRY, **e} for e in entries]
    record.update(changes)
    return record


CASES = [
    ("known letter", distribution(), "distribution-flags-known", []),
    ("unknown letter", distribution({"flags": "uQ"}), "distribution-flags-known", ["entries[0].flags"]),
    ("one ID twice", distribution({}, {"flags": "u"}), "distribution-entry-unique", ["entries[1]"]),
    ("two IDs", distribution({}, {"pid": "0579"}), "distribution-entry-unique", []),
    ("added after the version read", distribution({"added_on": "2026-03-01"}), "distribution-added-before-seen",
     ["entries[0].added_on"]),
    ("file name differs from id", distribution(id="other-os"), "id-matches-filename", ["id"]),
]


def problems_for(tmp_path, record):
    folder = tmp_path / "data" / "distributions"
    folder.mkdir(parents=True)
    text = "# yaml-language-server: $schema=../../schema/distribution.schema.json\n" + yaml.safe_dump(record, sort_keys=False)
    (folder / "some-os.yaml").write_text(text, encoding="utf-8")
    return check([tmp_path / "data"], today=TODAY).problems


@pytest.mark.parametrize("name,record,rule,expected", CASES, ids=[c[0] for c in CASES])
def test_distribution_rules(tmp_path, name, record, rule, expected):
    assert rule_hits(problems_for(tmp_path, record), rule) == expected


def test_schema_rejects_an_entry_without_its_source(tmp_path):
    record = distribution({"added_in": None})
    del record["entries"][0]["added_in"]
    rendered = [p.render() for p in problems_for(tmp_path, record) if p.rule == "schema-required"]
    assert len(rendered) == 1 and "entries[0]: required field `added_in` is missing" in rendered[0]
