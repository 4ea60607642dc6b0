"""The /api/v1/ page lists exactly the files API.md describes and the schema defines, each with its one line and
its schema definition; a file one of them forgets is refused with a sentence naming it."""
import json
from pathlib import Path

import pytest

from uasdb.publish.api_index import API_DOC, API_SCHEMA, ApiDocError, endpoints, index_model
from uasdb.publish.export import run_export

SCHEMA = json.loads(API_SCHEMA.read_text(encoding="utf-8"))
DOC = API_DOC.read_text(encoding="utf-8")


def test_every_file_of_the_schema_is_listed_with_its_line_and_definition():
    listed = {e["url"]: e for e in endpoints()}
    for name, pointer in SCHEMA["x-uasdb-files"].items():
        entry = listed[f"/api/v1/{name}"]
        assert entry["schema"] == f"/schema/api.schema.json{pointer}"
        assert entry["what"].endswith(".") and len(entry["what"]) > 20
    assert listed["/adapters.csv"]["schema"] is None  # the CSV has columns, not a schema
    assert listed["/api/v1/adapters/<id>.json"]["templated"] and not listed["/api/v1/kernel.json"]["templated"]


def test_templated_files_get_an_example_of_this_export():
    site = {"adapters": [{"id": "a", "reports": [1]}, {"id": "b", "reports": [1, 2]}],
            "usb": {"152d:0578": {"vid": "152d", "pid": "0578", "adapters": ["a", "b"]},
                    "abcd:1234": {"vid": "abcd", "pid": "1234", "adapters": []}},
            "chipsets": [{"id": "jms578", "adapters": ["a", "b"]}, {"id": "asm1153e", "adapters": []}],
            "buy_order": ["pi5", "pi4"], "buy": {"pi5": {"slug": "pi5"}, "pi4": {"slug": "pi4"}}}
    listed = {e["url"]: e for e in index_model(site)["endpoints"]}
    assert listed["/api/v1/adapters/<id>.json"]["example"] == "/api/v1/adapters/b.json"
    assert listed["/api/v1/usb/<vid>/<pid>.json"]["example"] == "/api/v1/usb/152d/0578.json"
    assert listed["/api/v1/chipsets/<id>.json"]["example"] == "/api/v1/chipsets/jms578.json"
    assert listed["/api/v1/buy/<slug>.json"]["example"] == "/api/v1/buy/pi5.json"
    assert listed["/api/v1/kernel.json"]["example"] is None


def test_a_file_api_md_forgets_is_named():
    doc = "\n".join(line for line in DOC.splitlines() if not line.startswith("| `/api/v1/kernel.json`"))
    with pytest.raises(ApiDocError, match="names kernel.json, which API.md's table of URLs does not list"):
        endpoints(doc=doc)


def test_a_row_the_schema_does_not_define_is_named():
    doc = DOC.replace("| `/api/v1/kernel.json` |", "| `/api/v1/kernel.json` | x |\n| `/api/v1/extra.json` |", 1)
    with pytest.raises(ApiDocError, match="API.md lists /api/v1/extra.json"):
        endpoints(doc=doc)


def test_the_export_says_so_instead_of_a_traceback(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("uasdb.publish.api_index.API_DOC", tmp_path / "API.md")
    (tmp_path / "API.md").write_text("# no table\n", encoding="utf-8")
    # The small fixture tree: the page is written from the schema and API.md whatever the records are.
    assert run_export(tmp_path / "out", [Path(__file__).parent / "fixtures" / "site-data"]) == 1
    err = capsys.readouterr().err
    assert "error: cannot write the /api/v1/ page: schema/api.schema.json names " in err
    assert "adapters.json" in err and "which API.md's table of URLs does not list" in err and "Traceback" not in err
