"""The static API and CSV carry every record, report and measurement of the data, wrapped and versioned as
API.md says. No browser: these read the export's files."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from helpers import run_uasdb
from uasdb.paths import REPO_ROOT
from uasdb.publish.export import export_tree
from uasdb.publish.files import API_SCHEMA_VERSION, api_file
from uasdb.records.database import check

FIXTURES = REPO_ROOT / "tests" / "fixtures"


def _records(data_dirs):
    paths = [d / kind for d in data_dirs for kind in ("adapters", "chipsets") if (d / kind).is_dir()]
    return [r.data for r in check(paths).records] if paths else []


def _load(path: Path):
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert set(payload) == {"schema_version", "generated_at", "result"}, path
    assert payload["schema_version"] == API_SCHEMA_VERSION
    return payload["result"]


# The real data's case reads every file of the real export (the realdata lane, as `make test` runs it); the
# fixtures' case checks the same in the fast lane.
@pytest.mark.parametrize("data_dirs", [pytest.param(None, marks=pytest.mark.realdata), [FIXTURES / "site-data"]],
                         ids=["data", "fixtures"])
def test_api_contains_every_record_report_and_measurement(tmp_path, data_dirs, real_catalog):
    if data_dirs is None:  # the real data/: the session's export (conftest.real_catalog), written as `uasdb export` does
        tmp_path = real_catalog.export_dir
        records = [r.data for r in real_catalog.check.records if r.kind in ("adapter", "chipset")]
    else:
        assert export_tree(tmp_path, data_dirs) is not None
        records = _records(data_dirs)
    api = tmp_path / "api" / "v1"
    adapters = [r for r in records if "reports" in r]
    chipsets = [r for r in records if "maker" in r]

    listed = {a["id"]: a for a in _load(api_file(tmp_path, "adapters.json"))}
    assert set(listed) == {a["id"] for a in adapters}
    for record in adapters:
        one = _load(api / "adapters" / f"{record['id']}.json")
        # The adapter's own file is its page's model: the same object as in adapters.json, plus `page`.
        assert {k: v for k, v in one.items() if k != "page"} == listed[record["id"]] and "page" in one
        # Every field of the record comes through unchanged, reports and throughput figures included.
        for key, value in record.items():
            assert one[key] == value, f"{record['id']}.{key}"
        figures = [m for r in record["reports"] for m in r.get("throughput", [])]
        assert [m for r in one["reports"] for m in r.get("throughput", [])] == figures
        for usb in record.get("usb_ids", []):
            by_id = _load(api / "usb" / usb["vid"] / f"{usb['pid']}.json")
            assert record["id"] in [a["id"] for a in by_id["adapters"]]
    assert {c["id"] for c in _load(api / "chipsets.json")} == {c["id"] for c in chipsets}
    for chipset in _load(api / "chipsets.json"):
        original = next(c for c in chipsets if c["id"] == chipset["id"])
        assert {k: chipset[k] for k in original} == original

    rows = list(csv.DictReader(io.StringIO((tmp_path / "static" / "adapters.csv").read_text(encoding="utf-8"))))
    assert [r["id"] for r in rows] == sorted(a["id"] for a in adapters)
    assert [int(r["reports"]) for r in rows] == [len(listed[r["id"]]["reports"]) for r in rows]


def test_export_refuses_unsafe_markdown_unless_a_test_waives_the_rule(tmp_path):
    unsafe = FIXTURES / "site-data-unsafe"
    done = run_uasdb("export", "--data", unsafe, "--out", tmp_path / "x", cwd=REPO_ROOT)
    assert done.returncode == 1
    assert "[markdown-safe]" in done.stderr and "export refused" in done.stderr
    assert not (tmp_path / "x").exists()
    assert export_tree(tmp_path / "y", [unsafe], ignore_rules={"markdown-safe"}) is not None


def test_export_names_a_missing_data_folder(tmp_path):
    done = run_uasdb("export", "--data", tmp_path / "nope", "--out", tmp_path / "x", cwd=REPO_ROOT)
    assert done.returncode == 1
    assert "no such data folder" in done.stderr and "Traceback" not in done.stderr


def test_site_fixtures_are_schema_valid():
    result = check([FIXTURES / "site-data" / "adapters", FIXTURES / "site-data" / "chipsets"])
    assert [p.render() for p in result.errors] == []


def test_throughput_chart_converts_units_and_scales_bars():
    from uasdb.publish.throughput import throughput_chart
    record = {"reports": [{"driver": "uas", "throughput": [
        {"test": "seq-read", "value": 100, "unit": "MiB/s"},
        {"test": "seq-read", "value": 52.4288, "unit": "MB/s", "driver": "usb-storage"},
        {"test": "rand4k-write", "value": 5000, "unit": "IOPS"}]}]}
    panels = throughput_chart(record)
    assert [p["title"] for p in panels] == ["Sequential (MB/s)", "4K random (IOPS)"]
    bars = panels[0]["bars"]
    assert [(b["driver"], b["value"], b["fraction"]) for b in bars] == [("uas", 104.9, 1.0), ("usb-storage", 52.4, 0.4995)]
    assert bars[0]["as_reported"] == "100 MiB/s"


def test_throughput_bars_are_measured_against_the_link_they_ran_over():
    from uasdb.publish.throughput import throughput_chart
    seq = lambda value, **report: dict(report, throughput=[{"test": "seq-read", "value": value, "unit": "MB/s"}])  # noqa: E731
    record = {"reports": [
        seq(420, host="linux-x86_64", link_speed="10000M"),  # stated link
        seq(300, host="pi4"),                                # above USB 2's limit: only the Pi 4's 5 Gbit/s ports
        seq(35, host="pi4"),                                 # could be a USB 2 port: no limit claimed
        seq(33, host="pi3b-plus"),                           # a Pi 3 B+ has USB 2 only
        seq(380, host="linux-x86_64"),                       # a PC's ports are unknown
    ]}
    bars = {b["report"]: b for b in throughput_chart(record)[0]["bars"]}
    assert bars[1]["ceiling"] == {"link": "10000M", "limit": 1212.1, "label": "10 Gbit/s", "stated": True,
                                  "share": 35, "fraction": 1.0}
    assert (bars[2]["ceiling"]["link"], bars[2]["ceiling"]["stated"], bars[2]["ceiling"]["share"]) == ("5000M", False, 60)
    assert "ceiling" not in bars[3] and "ceiling" not in bars[5]
    assert (bars[4]["ceiling"]["link"], bars[4]["ceiling"]["share"]) == ("480M", 55)
    # The scale takes in the largest limit, so 420 MB/s over a 10 Gbit/s link is drawn at about a third.
    assert bars[1]["fraction"] == round(420 / 1212.1, 4)
    # Like next to like: bars grouped by host in the schema's host order.
    order = [b["host"] for b in throughput_chart(record)[0]["bars"]]
    assert order == ["pi4", "pi4", "pi3b-plus", "linux-x86_64", "linux-x86_64"]


def test_csv_cells_that_start_like_formulas_open_as_text(tmp_path):
    """adapters.csv is opened in spreadsheets: a name, vendor or model that starts like a formula must stay text."""
    from helpers import adapter, write_tree
    hostile = {"name": "=HYPERLINK(\"https://evil.example\",\"click\")", "vendor": "+cmd|' /C calc'!A0",
               "model": "@SUM(1+1)"}
    data = write_tree(tmp_path, [adapter(**hostile), adapter(id="acme-dash", name="-10 dB model", vendor="Acme",
                                                              model="Plain")])
    assert export_tree(tmp_path / "out", [data]) is not None
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO((tmp_path / "out" / "static" / "adapters.csv")
                                                           .read_text(encoding="utf-8")))}
    assert {k: rows["acme-box"][k] for k in hostile} == {k: "'" + v for k, v in hostile.items()}
    assert (rows["acme-dash"]["name"], rows["acme-dash"]["vendor"], rows["acme-dash"]["model"]) == (
        "'-10 dB model", "Acme", "Plain")
    # The JSON API carries the record's own text.
    api = _load(tmp_path / "out" / "api" / "v1" / "adapters" / "acme-box.json")
    assert {k: api[k] for k in hostile} == hostile


@pytest.mark.parametrize("value, cell", [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@A1", "'@A1"),
                                         ("\t=1", "'\t=1"), ("\r=1", "'\r=1"), ("a=1", "a=1"), ("", ""), (3, 3)])
def test_one_cell_writer_neutralises_every_formula_lead(value, cell):
    from uasdb.publish.files import spreadsheet_cell
    assert spreadsheet_cell(value) == cell
