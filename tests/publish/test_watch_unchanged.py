"""The watcher's refresh when no byte of the data changed (an editor that saves on focus loss, `touch`, a branch
switched and back): it hashes the files again and stops there, writing nothing; a change of one byte is exported."""
from __future__ import annotations

import os
import shutil

import pytest

import uasdb.publish.watch as watch
from helpers import tree_files, tree_stamps
from uasdb.paths import REPO_ROOT

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "site-data"


@pytest.fixture
def watched(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = tmp_path / "data", tmp_path / "generated"
    shutil.copytree(FIXTURES, data)
    exports = []
    real = watch.prepare
    monkeypatch.setattr(watch, "prepare", lambda *a, **k: exports.append(1) or real(*a, **k))
    state = watch.State()
    assert watch.refresh(out, [data], state) == []
    assert exports == [1]
    return data, out, state, exports


def _files(out):
    stamps = tree_stamps(out)
    return {path: (stamps[path][1], content) for path, content in tree_files(out).items()}


def test_a_save_that_changes_no_byte_costs_a_hash_and_writes_nothing(watched):
    data, out, state, exports = watched
    before = _files(out)
    record = data / "adapters" / "fixture-nvme.yaml"
    original = record.read_text(encoding="utf-8")
    stat = record.stat()
    os.utime(record, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    snapshot = watch.snapshot([data])
    assert watch.refresh(out, [data], state) == []
    assert exports == [1] and _files(out) == before    # not exported again, not one file touched
    record.write_text(original.replace("\nname: ", "\nname: Edited ", 1), encoding="utf-8")
    assert watch.snapshot([data]) != snapshot
    assert watch.refresh(out, [data], state) == []
    assert exports == [1, 1]
    assert b"Edited " in (out / "api" / "v1" / "adapters" / "fixture-nvme.json").read_bytes()
    record.write_text(original, encoding="utf-8")       # back to the first bytes: a change since the last export
    assert watch.refresh(out, [data], state) == []
    assert exports == [1, 1, 1]
    assert {k: v[1] for k, v in _files(out).items()} == {k: v[1] for k, v in before.items()}


def test_data_with_errors_and_no_change_says_the_same_problems_again(watched):
    """A refresh after an export with problems always looks again (a problem may come from a file that was there
    only while the export read the tree: it must not be said once the file is gone)."""
    data, out, state, exports = watched
    record = data / "adapters" / "fixture-nvme.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("kind:", "kind_typo:", 1), encoding="utf-8")
    problems = watch.refresh(out, [data], state)
    assert problems and any("fixture-nvme.yaml" in p for p in problems)
    assert watch.refresh(out, [data], state) == problems
    assert exports == [1, 1, 1]
    record.write_text(record.read_text(encoding="utf-8").replace("kind_typo:", "kind:", 1), encoding="utf-8")
    assert watch.refresh(out, [data], state) == []
    assert exports == [1, 1, 1, 1]
    assert watch.refresh(out, [data], state) == []     # clean and unchanged: the digest stops it
    assert exports == [1, 1, 1, 1]


def test_a_problem_from_a_file_gone_since_is_not_said_again(watched):
    """The race the watcher's loop test met in CI: the export read an editor's half-written file that the digest
    never saw; once the file is gone, the next refresh says nothing."""
    data, out, state, _ = watched
    flicker = data / "adapters" / "flicker.yaml"
    real_prepare = watch.prepare

    def prepare_while_the_file_is_there(*args, **kwargs):
        flicker.write_text("x", encoding="utf-8")
        try:
            return real_prepare(*args, **kwargs)
        finally:
            flicker.unlink()
    watch.prepare = prepare_while_the_file_is_there
    try:
        record = data / "adapters" / "fixture-nvme.yaml"
        record.write_text(record.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        assert any("flicker.yaml" in p for p in watch.refresh(out, [data], state))
    finally:
        watch.prepare = real_prepare
    assert watch.refresh(out, [data], state) == []


def test_what_the_digest_sees_a_linked_record_folder_and_a_link_included(tmp_path):
    """The issue bot's trees link their chipsets/ elsewhere: an edit there is a change; a touch anywhere is not."""
    from uasdb.publish.export import inputs_digest
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    shutil.copytree(FIXTURES / "adapters", data / "adapters")
    shutil.copytree(FIXTURES / "chipsets", elsewhere)
    (data / "chipsets").symlink_to(elsewhere, target_is_directory=True)
    first = inputs_digest([data])
    chip = elsewhere / "jms567.yaml"
    os.utime(chip, ns=(chip.stat().st_atime_ns, chip.stat().st_mtime_ns + 5_000_000_000))
    assert inputs_digest([data]) == first
    chip.write_text(chip.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert inputs_digest([data]) != first
    linked = inputs_digest([data])
    (data / "adapters" / "extra.yaml").symlink_to(chip)
    assert inputs_digest([data]) != linked
