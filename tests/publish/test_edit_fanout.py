"""What one edit rewrites (issue 37, item 4): renaming a product rewrites its own files and a bounded set (its USB
IDs' and chip's pages, its vendor's ID shards and the files that list every product), never another product's model;
a note rewrites its own model and the full list only; and every page that names the product finds the new name."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from uasdb.paths import REPO_ROOT
from uasdb.publish.files import COMMON_JSON, NAMES_JSON, PAGES_JSON
from uasdb.publish.watch import State, refresh
from uasdb.tools.bench_edit import measure_edit

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "site-data"
RENAMED = "fixture-second-jms"  # another fixture product's expectation rests on it (same USB ID, 152d:0578)
OLD_NAME = "Otherfixture Noboot dock"
NEW_NAME = "Otherfixture Renamed dock"
# The files that list every product (their names or their verdicts): one each, however many products there are.
LISTS_EVERY_PRODUCT = {"static/api/v1/adapters.json", "api/v1/adapter-rows.json", "api/v1/usb.json",
                       "api/v1/lists.json", "api/v1/quirk-index.json", "api/v1/home.json", "static/adapters.csv",
                       "static/search/vocabulary.json", NAMES_JSON}


def export_fixtures(tmp_path: Path):
    data = tmp_path / "data"
    shutil.copytree(FIXTURES, data, ignore=shutil.ignore_patterns("*.md"))
    out = tmp_path / "generated"
    state = State()
    assert refresh(out, [data], state) == []
    return data, out, state


def model(out: Path, path: str):
    return json.loads((out / path).read_text(encoding="utf-8"))


@pytest.mark.slow  # two fixture exports; the fast lane keeps the note edit's bound below
def test_a_rename_rewrites_its_own_files_and_a_bounded_set_never_another_products_model(tmp_path):
    # Counted as the watcher writes them (tools/bench_edit.py: a file written again has a new inode).
    rewritten = measure_edit(FIXTURES, tmp_path, "name", RENAMED)["rewritten"]
    out = tmp_path / "generated"
    record = model(out, f"api/v1/adapters/{RENAMED}.json")["result"]
    # Another product's expectation rests on it (by id: the case a copied name used to fan out from).
    citing = [p.name for p in (out / "api" / "v1" / "adapters").glob("*.json") if p.stem != RENAMED
              and RENAMED in json.dumps(model(out, f"api/v1/adapters/{p.name}")["result"]["expected"])]
    assert citing
    own = {f"api/v1/adapters/{RENAMED}.json", f"api/v1/chipsets/{record['chipset']}.json"}
    own |= {f"api/v1/usb/{u['vid']}/{u['pid']}.json" for u in record["usb_ids"]}
    shards = {f"static/api/v1/ids/{u['vid']}/" for u in record["usb_ids"]}
    bounded = [p for p in rewritten if p in own or p in LISTS_EVERY_PRODUCT or p.startswith("api/v1/buy/")
               or any(p.startswith(s) for s in shards)]
    assert rewritten == sorted(bounded), "a rename rewrote a file outside its own and the full lists"
    assert [p for p in rewritten if p.startswith("api/v1/adapters/")] == [f"api/v1/adapters/{RENAMED}.json"]
    # Global files hold no record's text: which pages there are, and the site's constants, stay as they were.
    assert PAGES_JSON not in rewritten and COMMON_JSON not in rewritten
    assert NAMES_JSON in rewritten and f"api/v1/adapters/{RENAMED}.json" in rewritten


@pytest.mark.slow  # two fixture exports; the fast lane keeps the note edit's bound below
def test_after_a_rename_every_page_that_names_the_product_finds_the_new_name(tmp_path):
    data, out, state = export_fixtures(tmp_path)
    record = data / "adapters" / f"{RENAMED}.yaml"
    text = record.read_text(encoding="utf-8")
    assert f"name: {OLD_NAME}\n" in text
    record.write_text(text.replace(f"name: {OLD_NAME}", f"name: {NEW_NAME}", 1), encoding="utf-8")
    assert refresh(out, [data], state) == []
    # Nothing the site or the API serves still says the old name; the page title and every link by id read it
    # from names.json.
    stale = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()
             and OLD_NAME in p.read_text(encoding="utf-8")]
    assert stale == []
    names = model(out, NAMES_JSON)
    assert names[RENAMED] == NEW_NAME
    pages = model(out, PAGES_JSON)
    assert {a["id"] for a in pages["adapters"]} == set(names)  # every product page gets its title from names.json
    linked = []
    for path in (out / "api" / "v1" / "adapters").glob("*.json"):
        expected = model(out, f"api/v1/adapters/{path.name}")["result"].get("expected") or {}
        for question in expected.values():
            for expectation in question.values():
                for item in expectation.get("basis", []):
                    linked += item.get("adapters", [])
    assert RENAMED in linked and all(i in names for i in linked)


def test_a_note_rewrites_only_its_own_model_and_the_full_list(tmp_path):
    result = measure_edit(FIXTURES, tmp_path, "note", RENAMED)
    assert result["rewritten"] == sorted({f"api/v1/adapters/{RENAMED}.json", "static/api/v1/adapters.json"})
    assert result["files"] == 2 and 0 < result["bytes"] < result["of_bytes"]
