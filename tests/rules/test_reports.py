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
