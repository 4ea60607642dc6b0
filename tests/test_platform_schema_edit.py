"""A platform is one schema edit (issue 35): a copy of schema/ that makes the Compute Module 5 its own platform
(x-uasdb-platforms, the cm5 host's `platform`, the focus order), exported over the site fixtures plus one product
that fails only on a CM5, gives that platform its verdicts, its place on the lists (with the evidence), its CSV
columns, its list filter and its what-to-buy page, with no code edited. UASDB_SCHEMA_DIR points the package at the
copy; the export runs in a subprocess so the schema is read afresh."""
import csv
import json
import os
import shutil
import subprocess
import sys

import pytest

from helpers import REPO
from uasdb.publish.files import api_file

pytestmark = pytest.mark.slow  # a whole export in a subprocess

CM5_ONLY = """# yaml-language-server: $schema=../../schema/adapter.schema.json
id: fixture-cm5-only
name: Fixturebrand CM5-only enclosure
vendor: Fixturebrand
model: CM5-1
kind: enclosure
drive_interface: sata
usb_ids:
  - vid: "152d"
    pid: "1561"
reports:
  - date: "2026-01-10"
    source:
      url: https://example.org/cm5
      title: A CM5 report
    host: cm5
    driver: uas
    stability: errors
    notes: UAS resets under load on the CM5 IO board.
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("cm5")
    shutil.copytree(REPO / "schema", tmp / "schema")
    shutil.copytree(REPO / "tests" / "fixtures" / "site-data", tmp / "data")
    (tmp / "data" / "adapters" / "fixture-cm5-only.yaml").write_text(CM5_ONLY, encoding="utf-8")
    path = tmp / "schema" / "adapter.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    platforms = {}
    for name, spec in schema["x-uasdb-platforms"].items():  # the one edit: CM5 after the Pi 5
        platforms[name] = spec
        if name == "pi5":
            platforms["cm5"] = {"title": "Compute Module 5", "linux": True, "pi": True, "short": "CM5",
                                "related": ["pi5"], "lists": True, "buy": {"slug": "cm5", "title": "a Compute Module 5"}}
    schema["x-uasdb-platforms"] = platforms
    schema["x-uasdb-platform-focus"].insert(1, "cm5")
    schema["properties"]["reports"]["items"]["properties"]["host"]["x-uasdb-hosts"]["cm5"]["platform"] = "cm5"
    path.write_text(json.dumps(schema, indent=2), encoding="utf-8")
    out = tmp / "out"
    run = subprocess.run([sys.executable, "-m", "uasdb", "export", "--out", str(out), "--data", str(tmp / "data")],
                         capture_output=True, text=True, timeout=600, cwd=tmp,
                         env=dict(os.environ, UASDB_SCHEMA_DIR=str(tmp / "schema")))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


def api(out, name):
    return json.loads(api_file(out, name).read_text(encoding="utf-8"))["result"]


def test_the_new_platform_has_its_verdicts(exported):
    verdict = api(exported, "adapters/fixture-cm5-only.json")["verdict"]
    assert verdict["uas"]["cm5"]["verdict"] == "broken" and "cm5" in verdict["boot"]
    assert verdict["uas"]["pi5"]["verdict"] == "untested"  # a CM5 report no longer counts as a Pi 5's


def test_a_product_failing_only_there_is_on_the_naughty_list_with_its_evidence(exported):
    lists = api(exported, "lists.json")
    assert "fixture-cm5-only" in lists["naughty"]
    entry = next(e for e in lists["entries"]["naughty"] if e["id"] == "fixture-cm5-only")
    assert entry["reasons"] == ["UAS is broken on Compute Module 5"]
    assert entry["evidence"] == [{"report": 1, "url": "https://example.org/cm5"}]
    shown = {row["label"]: row["badge"]["short"] for row in entry["badge_rows"]}
    assert shown["CM5 UAS"] == "Broken" and entry["facets"]["cm5"] == ["broken"]


def test_the_csv_has_its_columns(exported):
    rows = list(csv.DictReader((exported / "static" / "adapters.csv").open(encoding="utf-8")))
    row = next(r for r in rows if r["id"] == "fixture-cm5-only")
    assert (row["cm5_uas"], row["cm5_boot"], row["list"]) == ("broken", "untested", "naughty")


def test_the_lists_filter_and_a_buy_page_offer_it(exported):
    pages = json.loads((exported / "data" / "pages.json").read_text(encoding="utf-8"))
    assert "cm5" in [f["key"] for f in api(exported, "lists.json")["filters"]["naughty"]]
    assert [p["slug"] for p in pages["buy"]][:2] == ["pi5", "cm5"]
    buy = api(exported, "buy/cm5.json")
    assert [(r["id"], r["group"]) for r in buy["avoid"]] == [("fixture-cm5-only", "avoid")]
