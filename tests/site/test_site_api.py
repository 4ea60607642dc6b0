"""The static API and CSV carry every record, report and measurement of the data, wrapped and versioned as
API.md says. No browser: these read the export's files."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from uasdb.database import REPO_ROOT, check
from uasdb.export import API_SCHEMA_VERSION, export_tree

FIXTURES = REPO_ROOT / "tests" / "fixtures"


def _records(data_dirs):
    paths = [d / kind for d in data_dirs for kind in ("adapters", "chipsets") if (d / kind).is_dir()]
    return [r.data for r in check(paths).records] if paths else []


def _load(path: Path):
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert set(payload) == {"schema_version", "generated_at", "result"}, path
    assert payload["schema_version"] == API_SCHEMA_VERSION
    return payload["result"]


@pytest.mark.parametrize("data_dirs", [None, [FIXTURES / "site-data"]], ids=["data", "fixtures"])
def test_api_contains_every_record_report_and_measurement(tmp_path, data_dirs):
    site = export_tree(tmp_path, data_dirs)
    assert site is not None
    api = tmp_path / "static" / "api" / "v1"
    records = _records(data_dirs or [REPO_ROOT / "data"])
    adapters = [r for r in records if "reports" in r]
    chipsets = [r for r in records if "maker" in r]

    listed = {a["id"]: a for a in _load(api / "adapters.json")}
    assert set(listed) == {a["id"] for a in adapters}
    for record in adapters:
        one = _load(api / "adapters" / f"{record['id']}.json")
        assert one == listed[record["id"]]
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
    done = subprocess.run([sys.executable, "-m", "uasdb", "export", "--data", str(unsafe), "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, cwd=REPO_ROOT)
    assert done.returncode == 1
    assert "[markdown-safe]" in done.stderr and "export refused" in done.stderr
    assert not (tmp_path / "x").exists()
    assert export_tree(tmp_path / "y", [unsafe], ignore_rules={"markdown-safe"}) is not None


def test_export_names_a_missing_data_folder(tmp_path):
    done = subprocess.run([sys.executable, "-m", "uasdb", "export", "--data", str(tmp_path / "nope"), "--out", str(tmp_path / "x")],
                          capture_output=True, text=True, cwd=REPO_ROOT)
    assert done.returncode == 1
    assert "no such data folder" in done.stderr and "Traceback" not in done.stderr


def test_site_fixtures_are_schema_valid():
    result = check([FIXTURES / "site-data" / "adapters", FIXTURES / "site-data" / "chipsets"])
    assert [p.render() for p in result.errors] == []


def test_throughput_chart_converts_units_and_scales_bars():
    from uasdb.export import throughput_chart
    record = {"reports": [{"driver": "uas", "throughput": [
        {"test": "seq-read", "value": 100, "unit": "MiB/s"},
        {"test": "seq-read", "value": 52.4288, "unit": "MB/s", "driver": "usb-storage"},
        {"test": "rand4k-write", "value": 5000, "unit": "IOPS"}]}]}
    panels = throughput_chart(record)
    assert [p["title"] for p in panels] == ["Sequential (MB/s)", "4K random (IOPS)"]
    bars = panels[0]["bars"]
    assert [(b["driver"], b["value"], b["fraction"]) for b in bars] == [("uas", 104.9, 1.0), ("usb-storage", 52.4, 0.4995)]
    assert bars[0]["as_reported"] == "100 MiB/s"
