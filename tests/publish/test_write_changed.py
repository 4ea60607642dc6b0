"""`uasdb export` into a folder that already holds an export writes only the files whose bytes changed (their
times tell Hugo, rsync and CI caches what really changed), removes what the export no longer has, and ends with
exactly the tree a fresh export writes."""
from __future__ import annotations

import pytest

from helpers import tree_files, tree_stamps
from uasdb.paths import REPO_ROOT
from uasdb.publish.export import export_tree

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "site-data"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert export_tree(tmp_path / "fresh", [FIXTURES]) is not None
    return tree_files(tmp_path / "fresh")


def test_an_export_over_an_export_rewrites_only_what_differs(tmp_path, fresh):
    out = tmp_path / "out"
    assert export_tree(out, [FIXTURES]) is not None
    stamps = tree_stamps(out)
    (out / "data" / "common.json").write_text("{}\n", encoding="utf-8")        # changed by hand
    (out / "api" / "v1" / "gone" / "deep").mkdir(parents=True)                   # left by an older export
    (out / "api" / "v1" / "gone" / "deep" / "old.json").write_text("{}", encoding="utf-8")
    assert export_tree(out, [FIXTURES]) is not None
    assert tree_files(out) == fresh
    assert not (out / "api" / "v1" / "gone").exists()
    now = tree_stamps(out)
    touched = [path for path, stamp in stamps.items() if now[path][:2] != stamp[:2]]
    assert touched == ["data/common.json"]


def test_an_out_folder_holding_a_link_is_emptied_and_nothing_is_written_through_it(tmp_path, fresh):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "api").mkdir(parents=True)
    (out / "api" / "v1").symlink_to(elsewhere, target_is_directory=True)
    assert export_tree(out, [FIXTURES]) is not None
    assert tree_files(out) == fresh
    assert list(elsewhere.iterdir()) == []


@pytest.mark.slow  # three fixture exports; the fast lane keeps the export over an export above
def test_adapters_json_that_differs_part_way_is_written_again_whole(tmp_path, fresh):
    """adapters.json (hundreds of MB at 10,000 products) is compared with the file on disk piece by piece and then
    written from its first piece again: a file that differs only near its end ends as the fresh export's."""
    out = tmp_path / "out"
    assert export_tree(out, [FIXTURES]) is not None
    whole = out / "static" / "api" / "v1" / "adapters.json"
    text = whole.read_bytes()
    whole.write_bytes(text[:-40] + b" " * 40)
    assert export_tree(out, [FIXTURES]) is not None
    assert tree_files(out) == fresh
