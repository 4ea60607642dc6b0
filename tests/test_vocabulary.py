"""The schema owns the host and platform vocabulary: vocabulary.py reads it, and every other place that names
hosts (verdicts, export, the report rule, the issue form, probe.py's stand-alone copy) agrees with it."""
import json

import pytest

from helpers import REPO
from uasdb import probe
from uasdb.ingest import issue
from uasdb.ingest.issueform import DROPDOWNS, FORM, run_issue_form, schema_node, with_options
from uasdb.publish import common
from uasdb.records import vocabulary
from uasdb.records.rules import reports
from uasdb.verdicts.engine import HOST_PLATFORM, PLATFORMS

SCHEMA = json.loads((REPO / "schema" / "adapter.schema.json").read_text(encoding="utf-8"))
HOST_ENUM = SCHEMA["properties"]["reports"]["items"]["properties"]["host"]["enum"]


def test_every_host_has_a_title_and_a_platform_in_schema_order():
    assert list(vocabulary.HOST_TITLES) == HOST_ENUM
    assert set(HOST_PLATFORM) | set(vocabulary.UNPLACED_HOSTS) == set(HOST_ENUM)
    assert set(PLATFORMS) == set(SCHEMA["x-uasdb-platforms"])


def test_a_pi_of_unknown_model_counts_on_no_platform_but_runs_linux():
    """issue 35: a Raspberry Pi whose model the source does not give is neither a Pi 4/5 nor a Linux PC."""
    assert vocabulary.UNPLACED_HOSTS == ("pi-unknown",) and "pi-unknown" not in HOST_PLATFORM
    assert not any("pi-unknown" in spec["hosts"] for spec in PLATFORMS.values())
    assert "pi-unknown" in vocabulary.LINUX_HOSTS and "macos" not in vocabulary.LINUX_HOSTS


def test_the_python_constants_come_from_the_vocabulary():
    assert common.HOST_LABELS == vocabulary.HOST_TITLES
    assert PLATFORMS is vocabulary.PLATFORMS
    assert reports.OLD_PI_HOSTS == vocabulary.NO_UAS_HOSTS == PLATFORMS["pi3"]["hosts"]


def test_probe_keeps_an_exact_copy_and_names_only_schema_hosts():
    assert probe.NO_UAS_HOSTS == vocabulary.NO_UAS_HOSTS
    assert {host for _, host in probe.PI_MODELS} <= set(HOST_ENUM)
    for model, arch, kind in [("Raspberry Pi 4 Model B Rev 1.4", "aarch64", "linux"), (None, "x86_64", "linux"),
                              (None, "aarch64", "linux"), ("Hardkernel Odroid XU4", "armv7l", "linux"),
                              (None, "arm64", "macos")]:
        assert probe.host_for(model, arch, kind) in HOST_ENUM


def test_issue_form_offers_each_host_with_its_title():
    form = issue.form_fields()["host"]
    assert form["options"] == HOST_ENUM
    assert run_issue_form(FORM, check_only=True) == 0, "run `uasdb issue-form` and commit the form"


def test_issue_form_check_fails_when_stale_and_the_fix_restores_it(tmp_path):
    stale = tmp_path / "adapter-report.yml"
    current = FORM.read_text(encoding="utf-8")
    stale.write_text(current.replace("pi3b-plus — Raspberry Pi 3 Model B+", "pi3b-plus — Raspberry Pi 3B+"), encoding="utf-8")
    assert run_issue_form(stale, check_only=True) == 1
    assert run_issue_form(stale, check_only=False) == 0 and stale.read_text(encoding="utf-8") == current
    with pytest.raises(ValueError):
        with_options("body: []\n")


@pytest.mark.parametrize("field_id", sorted(DROPDOWNS))
def test_each_dropdown_offers_the_schema_values_with_their_titles(field_id):
    node = schema_node(SCHEMA, DROPDOWNS[field_id])
    assert issue.form_fields()[field_id]["options"] == node["enum"]
    assert set(node.get("x-uasdb-titles", {})) <= set(node["enum"]), "a title for a value the schema does not allow"


def test_a_hand_edited_title_in_any_dropdown_is_stale(tmp_path):
    current = FORM.read_text(encoding="utf-8")
    title = schema_node(SCHEMA, DROPDOWNS["blamed_on"])["x-uasdb-titles"]["cable"]
    stale = tmp_path / "adapter-report.yml"
    stale.write_text(current.replace(f'"cable — {title}"', '"cable — a cable"'), encoding="utf-8")
    assert stale.read_text(encoding="utf-8") != current
    assert run_issue_form(stale, check_only=True) == 1


@pytest.mark.parametrize("change, words", [
    (lambda s: s["properties"]["reports"]["items"]["properties"]["host"]["enum"].append("pi6"), "exactly the host enum"),
    (lambda s: s["properties"]["reports"]["items"]["properties"]["host"]["x-uasdb-hosts"]["pi4"].update(platform="pi9"),
     "platforms that x-uasdb-platforms lacks"),
    (lambda s: s["properties"]["reports"]["items"]["properties"]["host"]["x-uasdb-hosts"]["pi4"].pop("platform"),
     "pi4 name no platform"),
])
def test_a_vocabulary_that_disagrees_with_the_enum_is_refused(tmp_path, monkeypatch, change, words):
    broken = json.loads(json.dumps(SCHEMA))
    change(broken)
    path = tmp_path / "adapter.schema.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    monkeypatch.setattr(vocabulary, "SCHEMA", path)
    with pytest.raises(ValueError, match=words):
        vocabulary._load()


def test_distribution_hosts_are_report_hosts():
    distribution = json.loads((REPO / "schema" / "distribution.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "hosts" in node.get("properties", {}):
                found.append(node["properties"]["hosts"]["items"]["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(distribution)
    assert found and all(set(hosts) <= set(HOST_ENUM) for hosts in found)
