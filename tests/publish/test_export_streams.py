"""The export holds no product's page longer than it takes to write that product's file (issue 37, item 6): at
10,000 products the pages were 60 MB held at once, on top of the catalog."""
import json
from pathlib import Path

import uasdb.publish.adapter as adapter_page
import uasdb.publish.export as export
from uasdb.records.database import check

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "site-data"


def test_each_product_page_is_made_when_its_file_is_written_and_not_kept(monkeypatch):
    made = []
    real = adapter_page.page

    def counted(adapter, catalog, chipsets):
        made.append(adapter["id"])
        return real(adapter, catalog, chipsets)
    monkeypatch.setattr(adapter_page, "page", counted)
    result = check(export.record_folders([FIXTURES]))
    site = export.build(result.records)
    assert made == [] and not any("page" in a for a in site["adapters"])
    written = []
    for relative, _ in export.export_files(site, "2026-01-01T00:00:00Z"):
        if relative.startswith("api/v1/adapters/"):
            written.append(relative.removeprefix("api/v1/adapters/").removesuffix(".json"))
            assert made == written  # this product's page, made just now, and no other ahead of its file
    assert written == [a["id"] for a in site["adapters"]]
    assert not any("page" in a for a in site["adapters"])


def test_a_file_encoded_a_part_at_a_time_is_the_file_encoded_at_once():
    """The files that list the whole catalog are encoded a part at a time (files.json_pieces), never as one
    string of millions of pieces: joined, the parts are the text `_dumps` makes, for every file of the export."""
    from uasdb.publish.files import _dumps, json_pieces
    site = export.build(check(export.record_folders([FIXTURES])).records)
    payloads = 0
    for relative, parts in export.export_files(site, "2026-01-01T00:00:00Z"):
        text = "".join(parts)
        if relative.endswith(".json"):
            payload = json.loads(text)
            assert "".join(json_pieces(payload)) + "\n" == text == _dumps(payload) + "\n", relative
            payloads += 1
    # Shapes json_pieces must get right besides: empty containers, keys JSON writes as text, numbers, nesting.
    for value in ({}, [], {"a": []}, {1: "x", "b": 2.5}, [[1, 2.0, None, True]] * 70, {"k": list(range(100))}):
        assert "".join(json_pieces(value)) == _dumps(value)
    assert payloads > 100
