"""The content cache (records/cache.py) may only ever save time: an export made with it, warm or half-filled, after
an edit, under a new code version or from a damaged cache, is byte for byte the export made without it, and
`validate` says the same, in the same words, at the same places."""
from __future__ import annotations

import hashlib
import marshal
import os
import shutil
from pathlib import Path

import pytest

import uasdb.records.cache as content_cache
import uasdb.records.database as database
import uasdb.verdicts.expectations as expectations
from uasdb.paths import REPO_ROOT
from uasdb.publish.export import export_tree

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "site-data"
INVALID = REPO_ROOT / "tests" / "fixtures" / "invalid" / "data"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """Fixture records no test edits, their export made without the cache, and a cache filled by one export of
    them: worked out once for the module (an export names its records' paths, so the tests that compare with it
    read these records); each test damages or replaces its own copy of the cache."""
    tmp = tmp_path_factory.mktemp("baseline")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1700000000")
        patch.setenv("UASDB_CACHE_DIR", str(tmp / "cache"))
        data = tmp / "data"
        shutil.copytree(FIXTURES, data)
        cold = _export(tmp / "cold", data, cache=False)
        assert _entries(tmp) == []                                 # off means off: nothing written
        assert _export(tmp / "filling", data, cache=True) == cold  # the first run fills the cache
    return data, cold, tmp / "cache"


@pytest.fixture
def setup(tmp_path, monkeypatch):
    """A copy of the fixture records, an empty cache of the test's own, and a counter of what is worked out: each
    file parsed, and the expectations step."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("UASDB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("UASDB_CACHE", raising=False)
    data = tmp_path / "data"
    shutil.copytree(FIXTURES, data)
    parses = []
    real = database.load_text
    monkeypatch.setattr(database, "load_text", lambda path, raw: parses.append(raw) or real(path, raw))
    real_step = expectations.with_expectations
    monkeypatch.setattr(expectations, "with_expectations", lambda *a: parses.append("expectations") or real_step(*a))
    return data, tmp_path, parses


def _export(out: Path, data: Path, cache: bool) -> dict:
    os.environ["UASDB_CACHE"] = "on" if cache else "off"
    assert export_tree(out, [data]) is not None
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _entries(tmp_path: Path) -> list:
    return sorted(p for p in (tmp_path / "cache").rglob("*") if p.is_file())


def test_a_warm_export_is_the_cold_one_and_parses_nothing_again_also_after_an_edit(setup):
    data, tmp, parses = setup
    records = len(list(data.rglob("*.yaml")))
    cold = _export(tmp / "cold", data, cache=False)
    assert _entries(tmp) == []                                     # off means off: nothing written
    assert _export(tmp / "filling", data, cache=True) == cold      # the first run fills the cache...
    parses.clear()
    assert _export(tmp / "warm", data, cache=True) == cold         # ...the next reads it, with the same result
    assert parses == []                                            # no file parsed, no expectation worked out
    record = data / "adapters" / "fixture-nvme.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("\nname: ", "\nname: Edited ", 1), encoding="utf-8")
    edited_cold = _export(tmp / "edited-cold", data, cache=False)
    assert edited_cold != cold
    parses.clear()
    assert _export(tmp / "edited-warm", data, cache=True) == edited_cold
    assert len(parses) == 2 and b"Edited " in parses[0]            # the edited record alone is parsed again, and
    assert parses[1] == "expectations"                             # the step it is an input of runs again
    assert records > 1


def test_a_new_code_version_starts_from_nothing_and_gives_the_same_export(setup, baseline, monkeypatch):
    _, tmp, parses = setup
    data, cold, filled = baseline
    shutil.copytree(filled, tmp / "cache")
    monkeypatch.setattr(content_cache, "code_version", lambda: "f" * 64)  # as if a rule or the schema changed
    parses.clear()
    assert _export(tmp / "new-version", data, cache=True) == cold
    assert len(parses) == len(list(data.rglob("*.yaml"))) + 1       # nothing was taken from the old version
    assert {p.name for p in (tmp / "cache").iterdir()} >= {"f" * 24}


# The fast lane checks one kind of damage; the other four, the same mechanism, run with make test.
@pytest.mark.parametrize("damage", [pytest.param(d, marks=pytest.mark.slow) if d != "flipped" else d
                                    for d in ("truncated", "flipped", "empty", "well-formed-but-wrong", "folder")])
def test_a_damaged_cache_is_a_miss_never_an_error_nor_a_wrong_answer(setup, baseline, damage):
    _, tmp, parses = setup
    data, cold, filled = baseline
    shutil.copytree(filled, tmp / "cache")
    entries = _entries(tmp)
    assert entries
    for entry in entries:
        raw = entry.read_bytes()
        if damage == "truncated":
            entry.write_bytes(raw[: len(raw) // 2])
        elif damage == "flipped":
            entry.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))
        elif damage == "empty":
            entry.write_bytes(b"")
        elif damage == "well-formed-but-wrong":  # a valid checksum over a value of the wrong shape
            payload = marshal.dumps({"not": "an entry"})
            entry.write_bytes(hashlib.sha256(payload).digest() + payload)
        else:
            entry.unlink()
            entry.mkdir()  # an entry that cannot be read, nor replaced
    parses.clear()
    assert _export(tmp / "damaged", data, cache=True) == cold
    assert len(parses) == len(list(data.rglob("*.yaml"))) + 1


def test_validate_says_the_same_from_the_cache_in_any_copy_of_the_tree(tmp_path, monkeypatch):
    """Entries hold no file path (the issue bot checks a fresh copy of the tree each time): each problem still
    names its own file, line and column."""
    monkeypatch.setenv("UASDB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("UASDB_TODAY", "2026-11-21")
    monkeypatch.chdir(tmp_path)

    def said(tree: Path, cache: bool) -> list:
        monkeypatch.setenv("UASDB_CACHE", "on" if cache else "off")
        return [p.render().replace(tree.name, "TREE") for p in database.check([tree]).problems]

    first, second = tmp_path / "copy-one", tmp_path / "copy-two"
    shutil.copytree(INVALID, first)
    shutil.copytree(INVALID, second)
    cold = said(first, cache=False)
    assert any("copy-one" in p.file for p in database.check([first]).problems)
    assert said(first, cache=True) == cold
    assert said(second, cache=True) == cold  # warm, from entries the first copy left
    assert _entries(tmp_path)


def test_no_cache_neither_reads_nor_writes_it_and_says_the_same(tmp_path, monkeypatch):
    from helpers import run_uasdb
    monkeypatch.setenv("UASDB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("UASDB_CACHE", raising=False)
    tree = tmp_path / "data"
    shutil.copytree(INVALID, tree)
    off = run_uasdb("validate", "--no-cache", str(tree))
    assert off.returncode == 1 and "[yaml-duplicate-key]" in off.stdout
    assert _entries(tmp_path) == []
    on = run_uasdb("validate", str(tree))
    assert _entries(tmp_path)
    assert (on.returncode, on.stdout, on.stderr) == (off.returncode, off.stdout, off.stderr)
