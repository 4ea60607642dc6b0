"""The real data/ tree: clean, formatted, and every report traceable to a source."""

import pytest

from uasdb.records.database import discover
from uasdb.records.fmt import canonical_text


# `make check` and `make test` run `uasdb validate` and `uasdb fmt --check` themselves (readable output, once),
# so they deselect these two repeats; a bare `pytest` still runs them.
@pytest.mark.realdata
def test_real_data_has_no_errors(real_catalog):
    result = real_catalog.check
    assert [p.render() for p in result.errors] == []
    assert any(r.kind == "adapter" for r in result.records)
    # An expected warning is acknowledged in data/waivers.yaml with its reason, so new warnings stand out.
    assert [p.render() for p in result.problems] == [], "fix the record, or waive the warning in data/waivers.yaml"
    assert result.waived


def test_every_report_has_a_source_or_evidence(real_catalog):
    for record in real_catalog.check.records:
        for index, report in enumerate(record.data.get("reports", [])):
            source = report.get("source", {})
            cited_publication = all(source.get(key) for key in ("title", "published_in")) and report.get("date")
            assert source.get("url", "").startswith("https://") or (source.get("tested_by") and report.get("evidence")) \
                or cited_publication, \
                f"{record.path} report {index + 1} has neither a source URL, tested evidence nor a publication's title, where it appeared and its date"


@pytest.mark.realdata
def test_real_data_is_formatted():
    unformatted = [str(p) for p in discover() if canonical_text(p, p.read_bytes()) != p.read_text(encoding="utf-8")]
    assert unformatted == [], "run `uasdb fmt`"
