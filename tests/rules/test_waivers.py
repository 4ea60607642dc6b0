"""data/waivers.yaml: a waiver hides the warning it names and is counted; one that matches nothing, or that tries
to waive an error, is an error itself."""
import pytest
import yaml

from helpers import TODAY, adapter, write_tree
from uasdb.records.database import check

SHARED = [adapter(), adapter(id="other-box")]  # 152d:0578 in both: one shared-usb-id warning on each
WAIVE_ACME = {"record": "adapters/acme-box.yaml", "rule": "shared-usb-id", "field": "usb_ids[0]",
              "reason": "both products use the bridge maker's ID"}


def run(tmp_path, waivers, adapters=SHARED, paths=None):
    data = write_tree(tmp_path, adapters)
    (data / "waivers.yaml").write_text(yaml.safe_dump({"waivers": waivers}, sort_keys=False) if waivers is not None
                                       else "waivers: [", encoding="utf-8")
    return check(paths(data) if paths else [data], today=TODAY)


def test_a_waiver_hides_the_warning_it_names_and_counts_it(tmp_path):
    result = run(tmp_path, [WAIVE_ACME])
    assert [(p.rule, p.file.endswith("other-box.yaml")) for p in result.problems] == [("shared-usb-id", True)]
    assert [p.file.endswith("acme-box.yaml") for p in result.waived] == [True]


@pytest.mark.parametrize("waiver, rule, words", [
    (dict(WAIVE_ACME, field="usb_ids[1]"), "waiver-matches-nothing", "no such warning on that field"),
    (dict(WAIVE_ACME, record="adapters/gone.yaml"), "waiver-matches-nothing", "the record does not exist"),
    (dict(WAIVE_ACME, rule="quirk-needs-flags"), "waiver-valid", "reports errors, which cannot be waived"),
    (dict(WAIVE_ACME, rule="no-such-rule"), "waiver-valid", "no rule `no-such-rule`"),
    ({k: v for k, v in WAIVE_ACME.items() if k != "reason"}, "waiver-valid", "each as text"),
    (dict(WAIVE_ACME, reason=" "), "waiver-valid", "each as text"),
])
def test_a_bad_or_stale_waiver_is_an_error_with_its_position(tmp_path, waiver, rule, words):
    result = run(tmp_path, [WAIVE_ACME, waiver] if rule == "waiver-matches-nothing" and "gone" not in waiver["record"]
                 else [waiver])
    found = [p for p in result.errors if p.rule == rule]
    assert len(found) == 1 and words in found[0].message, [p.render() for p in result.problems]
    assert found[0].file.endswith("waivers.yaml") and found[0].line > 1


def test_a_waiver_cannot_hide_an_error_of_the_same_field(tmp_path):
    broken = adapter(report={"uas": "works-with-quirk"})  # quirk-needs-flags: an error
    result = run(tmp_path, [dict(WAIVE_ACME, rule="quirk-needs-flags", field="reports[0].uas")], adapters=[broken])
    assert {p.rule for p in result.errors} >= {"quirk-needs-flags", "waiver-valid"}


def test_waivers_for_records_outside_a_partial_run_are_not_called_unused(tmp_path):
    result = run(tmp_path, [WAIVE_ACME], paths=lambda data: [data / "adapters" / "other-box.yaml"])
    assert [p.rule for p in result.errors] == []


def test_unreadable_waivers_file_is_reported_not_a_traceback(tmp_path):
    result = run(tmp_path, None)
    assert [p.rule for p in result.errors if p.file.endswith("waivers.yaml")] == ["yaml-syntax"]
