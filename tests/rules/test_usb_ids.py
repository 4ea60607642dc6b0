from helpers import adapter, rule_hits


def test_shared_id_is_a_warning_on_both(check_records):
    problems = check_records([adapter(), adapter(id="other-box")])
    shared = [p for p in problems if p.rule == "shared-usb-id"]
    assert len(shared) == 2 and all(p.severity == "warning" for p in shared)
    assert "also listed by other-box" in shared[0].message or "also listed by acme-box" in shared[0].message


def test_shared_id_does_not_fail_validation(check_records):
    problems = check_records([adapter(), adapter(id="other-box")])
    assert [p for p in problems if p.severity == "error"] == []


def test_report_names_an_unlisted_id(check_records):
    problems = check_records([adapter(report={"usb_id": "174c:55aa"})])
    assert rule_hits(problems, "report-usb-id-listed") == ["reports[0].usb_id"]


def test_id_listed_twice(check_records):
    problems = check_records([adapter(usb_ids=[{"vid": "152d", "pid": "0578"}, {"vid": "152d", "pid": "0578"}])])
    assert rule_hits(problems, "usb-id-unique-in-record") == ["usb_ids[1]"]
