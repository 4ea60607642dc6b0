import pytest

from helpers import adapter, rule_hits


def measured(link, value, unit="MB/s"):
    return adapter(report={"link_speed": link, "throughput": [{"tool": "hdparm", "test": "seq-read", "value": value, "unit": unit}]})


CASES = [
    ("usb3 realistic", measured("5000M", 417), []),
    ("usb3 impossible", measured("5000M", 520), ["reports[0].throughput[0].value"]),
    ("usb2 realistic", measured("480M", 38), []),
    ("usb2 impossible", measured("480M", 120), ["reports[0].throughput[0].value"]),
    ("MiB/s converted", measured("480M", 43, "MiB/s"), ["reports[0].throughput[0].value"]),
    ("gen2 fine", measured("10000M", 980), []),
    ("IOPS not compared", measured("480M", 5000, "IOPS"), []),
    ("no link speed, no check", adapter(report={"throughput": [{"test": "seq-read", "value": 900, "unit": "MB/s"}]}), []),
]


@pytest.mark.parametrize("name,record,expected", CASES, ids=[c[0] for c in CASES])
def test_throughput_plausible(check_records, name, record, expected):
    assert rule_hits(check_records([record]), "throughput-plausible") == expected
