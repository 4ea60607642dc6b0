import pytest

from helpers import adapter, rule_hits

CASES = [
    # (id, record, rule, expected field paths)
    ("url source is enough", adapter(), "report-has-source", []),
    ("tested without evidence", adapter(report={"source": {"tested_by": "octocat"}}), "report-has-source", ["reports[0].evidence"]),
    ("tested with evidence", adapter(report={"source": {"tested_by": "octocat"}, "evidence": {"lsusb_t": "Driver=uas, 5000M"}}), "report-has-source", []),
    ("title alone is no source", adapter(report={"source": {"title": "a forum post"}}), "report-has-source", ["reports[0].source"]),
    ("broken without notes", adapter(report={"uas": "broken"}), "failure-needs-explanation", ["reports[0].uas"]),
    ("broken with notes", adapter(report={"uas": "broken", "notes": "Resets every minute."}), "failure-needs-explanation", []),
    ("boot fails with evidence", adapter(report={"boot": "fails", "evidence": {"dmesg": "timeout"}}), "failure-needs-explanation", []),
    ("disconnects unexplained", adapter(report={"stability": "disconnects"}), "failure-needs-explanation", ["reports[0].stability"]),
    ("pi3 claims uas works", adapter(report={"host": "pi3b-plus", "uas": "works", "driver": "usb-storage"}), "old-pi-no-uas", ["reports[0].uas"]),
    ("pi3 claims uas driver", adapter(report={"host": "pi3", "uas": "host-no-uas", "driver": "uas"}), "old-pi-no-uas", ["reports[0].driver"]),
    ("pi3 host-no-uas is fine", adapter(report={"host": "pi-zero-2", "uas": "host-no-uas", "driver": "usb-storage"}), "old-pi-no-uas", []),
    ("workaround missing", adapter(report={"boot": "works-with-workaround"}), "workaround-needs-boot", ["reports[0].boot"]),
    ("workaround without boot", adapter(report={"boot_workaround": "USB_MSD_PWR_OFF_TIME=0"}), "workaround-needs-boot", ["reports[0].boot_workaround"]),
    ("boot on windows", adapter(report={"host": "windows", "boot": "works"}), "boot-needs-pi", ["reports[0].boot"]),
    # issue 35: a Pi of unknown model was filed as an arm64 Linux computer, and counted as a Linux PC.
    ("a Raspberry Pi filed as linux-arm64", adapter(report={"host": "linux-arm64", "host_detail": "A Raspberry Pi, model not given"}),
     "pi-filed-as-other-host", ["reports[0].host"]),
    ("an Orange Pi is another Linux computer", adapter(report={"host": "linux-arm64", "host_detail": "Orange Pi 5 Plus (RK3588)"}),
     "pi-filed-as-other-host", []),
    ("pi-unknown is the Pi's host", adapter(report={"host": "pi-unknown", "host_detail": "A Raspberry Pi, model not given"}),
     "pi-filed-as-other-host", []),
]


@pytest.mark.parametrize("name,record,rule,expected", CASES, ids=[c[0] for c in CASES])
def test_report_rules(check_records, name, record, rule, expected):
    assert rule_hits(check_records([record]), rule) == expected


def test_notes_that_tell_of_a_failure_need_an_outcome(check_records):
    quiet = adapter(report={"uas": None, "driver": None, "notes": "The root disk hung under load and the Pi froze."})
    problems = check_records([quiet])
    assert rule_hits(problems, "failure-needs-outcome") == ["reports[0].notes"]


@pytest.mark.parametrize("fields", [
    {"stability": "disconnects"},                      # the outcome is carried
    {"blamed_on": "power"},                            # ... or the cause, which keeps it off the adapter
    {"notes": "The Pi froze, which the owner puts down to the kernel, so no outcome is recorded."},  # or why not
])
def test_a_failure_with_an_outcome_or_a_reason_passes(check_records, fields):
    report = {"uas": None, "driver": None, "notes": "The root disk hung under load and the Pi froze."}
    report.update(fields)
    assert rule_hits(check_records([adapter(report=report)]), "failure-needs-outcome") == []


def test_notes_without_a_failure_need_no_outcome(check_records):
    calm = adapter(report={"uas": None, "driver": None, "notes": "Used as a backup disk; nothing else is said."})
    assert rule_hits(check_records([calm]), "failure-needs-outcome") == []
