import pytest

from helpers import adapter, rule_hits

CASES = [
    ("full date", "2021-03-04", []),
    ("month only", "2021-03", []),
    ("year only", "2021", []),
    ("today is fine", "2026-11-21", []),
    ("tomorrow is future", "2026-11-22", ["reports[0].date"]),
    ("no such day", "2021-02-30", ["reports[0].date"]),
    ("no such month", "2021-13", ["reports[0].date"]),
]


@pytest.mark.parametrize("name,date,expected", CASES, ids=[c[0] for c in CASES])
def test_dates(check_records, name, date, expected):
    assert rule_hits(check_records([adapter(report={"date": date})]), "date-valid") == expected


def test_firmware_dates_are_checked(check_records):
    record = adapter(firmware=[{"version": "1.0", "date": "2030-01-01"}])
    assert rule_hits(check_records([record]), "date-valid") == ["firmware[0].date"]
