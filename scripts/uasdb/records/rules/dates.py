"""Dates are real calendar days and not in the future."""
import datetime

from ..problems import Finding
from . import rule


def _date_fields(record):
    for index, report in enumerate(record.data.get("reports", [])):
        yield ("reports", index, "date"), report.get("date")
    for index, firmware in enumerate(record.data.get("firmware", [])):
        yield ("firmware", index, "date"), firmware.get("date")


@rule("date-valid", "dates are real ISO days (or months, or years), not in the future",
      example='2031-01-01 is in the future — use the day of the observation or of its publication')
def date_valid(record, ctx):
    for field, value in _date_fields(record):
        if not isinstance(value, str):
            continue
        parts = value.split("-")
        try:
            # A partial date (YYYY or YYYY-MM) is checked at its first day.
            day = datetime.date(int(parts[0]), int(parts[1]) if len(parts) > 1 else 1, int(parts[2]) if len(parts) > 2 else 1)
        except ValueError:
            yield Finding(field, f"`{value}` is not a calendar date", "write YYYY-MM-DD with a real month and day")
            continue
        if day > ctx.today:
            yield Finding(field, f"{value} is in the future", "use the day of the observation or of its publication")
