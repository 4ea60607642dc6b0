"""The content cache (records/cache.py) may only ever save time: an export made with it, warm or half-filled, after
an edit, under a new code version or from a damaged cache, is byte for byte the export made without it, and
`validate` says the same, in the same words, at the same places."""
from __future__ import annotations

import hashlib
import marshal
import os
import random
import shutil
from pathlib import Path

import pytest

import helpers
import uasdb.publish.adapter as adapter_page
import uasdb.publish.export as export
import uasdb.records.cache as content_cache
import uasdb.records.database as database
import uasdb.verdicts.expectations as expectations
from uasdb.paths import REPO_ROOT
from uasdb.publish.export import export_tree
from uasdb.verdicts.expectations_memo import Memo

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
    """A copy of the fixture records, an empty cache of the test's own, and a log of what is worked out: each file
    parsed (its bytes), each adapter's verdicts ("verdict:<id>"), each product's part of the expectations step
    ("part:<id>", verdicts/expectations_memo.py) and the step run whole ("expectations", with the cache off)."""
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
    real_verdict = adapter_page._worked_out_parts
    monkeypatch.setattr(adapter_page, "_worked_out_parts",
                        lambda record: parses.append(f"verdict:{record.data['id']}") or real_verdict(record))
    real_part = Memo._part
    monkeypatch.setattr(Memo, "_part", lambda self, related, adapter, *a: parses.append(f"part:{adapter['id']}")
                        or real_part(self, related, adapter, *a))
    return data, tmp_path, parses


def _export(out: Path, data: Path, cache: bool) -> dict:
    os.environ["UASDB_CACHE"] = "on" if cache else "off"
    assert export_tree(out, [data]) is not None
    return helpers.tree_files(out)


def _entries(tmp_path: Path) -> list:
    return sorted(p for p in (tmp_path / "cache").rglob("*") if p.is_file())


def _everything(data: Path) -> list:
    """What an export with nothing to reuse works out: every file parsed, every adapter's verdicts, every product's
    part of the expectations step."""
    adapters = sorted(p.stem for p in (data / "adapters").glob("*.yaml"))
    return [len(list(data.rglob("*.yaml"))), [f"verdict:{a}" for a in adapters], [f"part:{a}" for a in adapters]]


def _worked_out(parses: list) -> list:
    return [len([p for p in parses if isinstance(p, bytes)]), sorted(p for p in parses if str(p).startswith("verdict:")),
            sorted(p for p in parses if str(p).startswith("part:"))]


def test_a_warm_export_is_the_cold_one_and_parses_nothing_again_also_after_an_edit(setup):
    data, tmp, parses = setup
    cold = _export(tmp / "cold", data, cache=False)
    assert _entries(tmp) == []                                     # off means off: nothing written
    assert "expectations" in parses                                # without the cache, the step runs whole
    assert _export(tmp / "filling", data, cache=True) == cold      # the first run fills the cache...
    parses.clear()
    assert _export(tmp / "warm", data, cache=True) == cold         # ...the next reads it, with the same result
    assert parses == []                                            # nothing parsed or worked out again
    record = data / "adapters" / "fixture-nvme.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("\nname: ", "\nname: Edited ", 1), encoding="utf-8")
    edited_cold = _export(tmp / "edited-cold", data, cache=False)
    assert edited_cold != cold
    parses.clear()
    assert _export(tmp / "warm", data, cache=True) == edited_cold  # over the warm export's folder, as `make site`
    assert len(parses) == 3 and b"Edited " in parses[0]            # the edited record alone is parsed again, its
    assert parses[1:] == ["verdict:fixture-nvme", "part:fixture-nvme"]  # verdicts and expectations worked out again


@pytest.mark.slow  # three exports; the fast lane keeps a warm export's own check
def test_a_new_code_version_starts_from_nothing_and_gives_the_same_export(setup, baseline, monkeypatch):
    _, tmp, parses = setup
    data, cold, filled = baseline
    shutil.copytree(filled, tmp / "cache")
    monkeypatch.setattr(content_cache, "code_version", lambda: "f" * 64)  # as if a rule or the schema changed
    parses.clear()
    assert _export(tmp / "new-version", data, cache=True) == cold
    assert _worked_out(parses) == _everything(data)                # nothing was taken from the old version
    assert {p.name for p in (tmp / "cache").iterdir()} >= {"f" * 24}


def test_a_reference_table_is_part_of_the_code_version(tmp_path, monkeypatch):
    """The kernel's tables, usb.ids and drivedb are read by verdicts, expectations and pages: a change to one is a
    new code version, under which nothing kept before is found (the test above)."""
    reference = tmp_path / "data"
    for pattern in content_cache.REFERENCE_GLOBS:
        for path in content_cache.DATA_DIR.glob(pattern):
            target = reference / path.relative_to(content_cache.DATA_DIR)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    monkeypatch.setattr(content_cache, "DATA_DIR", reference)
    monkeypatch.setattr(content_cache, "_versions", {})
    before = content_cache.code_version()
    for table in ("kernel/linux-*.yaml", "usb-ids/*.yaml", "smartmontools/*.yaml"):
        path = sorted(reference.glob(table))[0]
        original = path.read_bytes()
        path.write_bytes(original + b"\n# one more line\n")
        monkeypatch.setattr(content_cache, "_versions", {})
        assert content_cache.code_version() != before, table
        path.write_bytes(original)
    monkeypatch.setattr(content_cache, "_versions", {})
    assert content_cache.code_version() == before


# The fast lane checks one kind of damage; the other four, the same mechanism, run with make test.
@pytest.mark.parametrize("damage", [pytest.param(d, marks=pytest.mark.slow) if d != "flipped" else d
                                    for d in ("truncated", "flipped", "empty", "well-formed-but-wrong", "folder")])
def test_a_damaged_cache_is_a_miss_never_an_error_nor_a_wrong_answer(setup, baseline, damage):
    """Every entry damaged the same way: the parsed records, the verdicts, the expectations step and its memo, and
    the manifest of the folder written before (whose files are then compared, as without the cache)."""
    _, tmp, parses = setup
    data, cold, filled = baseline
    shutil.copytree(filled, tmp / "cache")
    assert _export(tmp / "damaged", data, cache=True) == cold  # a warm export: the manifest of this folder kept too
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
    assert _worked_out(parses) == _everything(data)


def _same_usb_id(data: Path) -> None:
    """fixture-nice-sata takes fixture-nvme's USB ID: each one's expectations read the other now."""
    shared = '    pid: "55aa"\n  - vid: "0bda"\n    pid: "9210"'
    if shared in (data / "adapters" / "fixture-nice-sata.yaml").read_text(encoding="utf-8"):
        _edit(data, "fixture-nice-sata", shared, '    pid: "55aa"')  # drawn again: shared no more
    else:
        _edit(data, "fixture-nice-sata", '    pid: "55aa"', shared)


def _outcome_on_shared_chip_and_id(data: Path) -> None:
    """fixture-second-jms's report turns from one outcome to another: fixture-naughty-jms shares its chip and ID."""
    text = (data / "adapters" / "fixture-second-jms.yaml").read_text(encoding="utf-8")
    old, new = ("uas: works", "uas: broken") if "uas: works" in text else ("uas: broken", "uas: works")
    _edit(data, "fixture-second-jms", old, new)


def _chip_moved(data: Path) -> None:
    """fixture-nvme moves onto fixture-nice-sata's chip."""
    if "chipset: rtl9210" in (data / "adapters" / "fixture-nvme.yaml").read_text(encoding="utf-8"):
        _edit(data, "fixture-nvme", "chipset: rtl9210", "chipset: asm1153e")
    else:
        _edit(data, "fixture-nvme", "chipset: asm1153e", "chipset: rtl9210")


def _deleted(data: Path) -> None:
    (data / "adapters" / "fixture-second-jms.yaml").unlink()


def _renamed(data: Path) -> None:
    old = data / "adapters" / "fixture-second-jms.yaml"
    (data / "adapters" / "fixture-second-jms-renamed.yaml").write_text(
        old.read_text(encoding="utf-8").replace("id: fixture-second-jms\n", "id: fixture-second-jms-renamed\n"),
        encoding="utf-8")
    old.unlink()


def _chip_record(data: Path) -> None:
    """A chip record's name changes: every page naming the chip, and the expectations' chip list."""
    path = data / "chipsets" / "jms567.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\nname: ", "\nname: Renamed ", 1), encoding="utf-8")


def _edit(data: Path, adapter: str, old: str, new: str) -> None:
    path = data / "adapters" / f"{adapter}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, (adapter, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


DEPENDENT_EDITS = {"same-usb-id": _same_usb_id, "outcome-on-shared-chip-and-id": _outcome_on_shared_chip_and_id,
                   "chip-moved": _chip_moved, "deleted": _deleted, "renamed": _renamed, "chip-record": _chip_record}


@pytest.mark.parametrize("edit", [pytest.param(e, marks=pytest.mark.slow) if e != "outcome-on-shared-chip-and-id"
                                  else e for e in DEPENDENT_EDITS])
def test_an_edit_that_moves_other_products_gives_the_cold_export_from_the_warm_cache(setup, baseline, edit):
    """The cache and the last export's folder filled from the unedited records, then an edit whose effect reaches
    other products (an ID or a chip they share, a record gone or renamed, a chip record): the warm export over that
    folder is byte for byte the cold export of the edited records."""
    data, tmp, parses = setup
    shutil.copytree(baseline[2], tmp / "cache")
    before = _export(tmp / "out", data, cache=True)  # warm: fills the manifest of this folder
    DEPENDENT_EDITS[edit](data)
    parses.clear()
    warm = _export(tmp / "out", data, cache=True)
    worked_out = _worked_out(parses)
    assert warm == _export(tmp / "cold", data, cache=False) != before
    assert worked_out[1] != _everything(data)[1]  # the unchanged records' verdicts came from the cache


@pytest.mark.slow  # four exports; the fast lane keeps the warm-is-cold check
def test_a_file_changed_or_removed_by_hand_in_the_folder_is_written_again(setup):
    """The manifest lets a warm export skip a file only while it is as the last export left it: one edited to the
    same size, one removed and one added by hand are put right; and with nothing changed, the export stops at once."""
    data, tmp, parses = setup
    cold = _export(tmp / "cold", data, cache=False)
    out = tmp / "out"
    assert _export(out, data, cache=True) == cold
    parses.clear()
    assert _export(out, data, cache=True) == cold and parses == []
    assert export.unchanged_export(out, [data]) is not None       # nothing to do: `uasdb export` stops there
    model = out / "api" / "v1" / "adapters" / "fixture-nvme.json"
    text = model.read_bytes()
    model.write_bytes(text.replace(b"Swiftbox", b"Swiftb0x"))     # same size, another time and change time
    (out / "data" / "common.json").unlink()
    (out / "api" / "v1" / "stray.json").write_text("{}")
    assert export.unchanged_export(out, [data]) is None
    assert _export(out, data, cache=True) == cold
    assert parses == []                                            # put right without working anything out again


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(helpers.examples(12)))
def test_random_edits_one_after_another_give_the_cold_export(setup, seed):
    """Edits drawn at random, each followed by a warm export over the same folder with the same cache: each is the
    cold export of the records as they are then."""
    data, tmp, _ = setup
    rng = random.Random(seed)
    os.environ["UASDB_CACHE"] = "on"
    assert export_tree(tmp / "out", [data]) is not None
    for step in range(3):
        edit = rng.choice(sorted(DEPENDENT_EDITS))
        if edit in ("deleted", "renamed", "outcome-on-shared-chip-and-id") and not (
                data / "adapters" / "fixture-second-jms.yaml").exists():
            edit = "chip-record"
        DEPENDENT_EDITS[edit](data)
        warm = _export(tmp / "out", data, cache=True)
        assert warm == _export(tmp / f"cold-{step}", data, cache=False), (seed, step, edit)


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


@pytest.mark.slow  # five exports; the fast lane keeps one damaged-cache kind
def test_a_manifest_that_does_not_fit_its_folder_is_not_believed(setup):
    """A manifest entry intact by its checksum but wrong about the folder (spans of adapters.json past its end, of
    the wrong shape, a file's fingerprint that matches but a state that does not): the export compares and writes
    as without one, and gives the cold export after an edit."""
    data, tmp, _ = setup
    out = tmp / "out"
    _export(out, data, cache=True)
    store = content_cache.store()
    key = export._manifest_key(store, out)
    files, spans, stamp, counts = store.get(key)
    assert spans and files
    store.put(key, (files, {k: (v[0], v[1] + 10**9, v[2] + 10**9) for k, v in spans.items()}, stamp, counts))
    _edit(data, "fixture-nvme", "\nname: ", "\nname: Edited ")
    assert _export(out, data, cache=True) == _export(tmp / "cold", data, cache=False)
    store.put(key, (files, dict.fromkeys(spans, "not a span"), "", counts))
    _edit(data, "fixture-nvme", "\nname: Edited ", "\nname: Again ")
    assert _export(out, data, cache=True) == _export(tmp / "cold", data, cache=False)


@pytest.mark.slow  # six exports
def test_the_expectations_memo_is_kept_again_only_when_an_export_worked_out_enough_of_it(setup, monkeypatch):
    """Writing the memo back costs seconds at 10,000 products: after an edit that works out a product or two it is
    left as it was (a head start still), and the next export, from that older memo, is still the cold one."""
    import uasdb.verdicts.expectations_cache as expectations_cache
    data, tmp, parses = setup
    assert _export(tmp / "out", data, cache=True) == _export(tmp / "cold", data, cache=False)
    os.environ["UASDB_CACHE"] = "on"
    store = content_cache.store()
    memo_entry = store._path(store.key("expectations-memo"))
    kept = memo_entry.read_bytes()
    _edit(data, "fixture-nvme", "\nname: ", "\nname: Edited ")
    parses.clear()
    assert _export(tmp / "out", data, cache=True) == _export(tmp / "cold-1", data, cache=False)
    assert "part:fixture-nvme" in parses and memo_entry.read_bytes() == kept     # worked out, not kept
    _edit(data, "fixture-nvme", "\nname: Edited ", "\nname: Edited again ")
    monkeypatch.setattr(expectations_cache, "KEEP_AFTER", 0)
    assert _export(tmp / "out", data, cache=True) == _export(tmp / "cold-2", data, cache=False)
    assert memo_entry.read_bytes() != kept                                         # enough worked out: kept anew


def test_a_fingerprint_takes_a_noted_values_token_and_tells_every_other_change():
    """files.known_fingerprint digests the token of a value noted as made from known inputs (an adapter's verdict,
    chart, expectations) in its place: another token, or a change in any other item, is another fingerprint."""
    from uasdb.publish.files import known_fingerprint
    content_cache.forget_made_from()
    verdict, other = {"uas": {"pi4": "works"}}, {"uas": {"pi4": "broken"}}
    content_cache.note_made_from(verdict, "adapter-parts:a:verdict")
    content_cache.note_made_from(other, "adapter-parts:b:verdict")
    base = known_fingerprint({"id": "x", "verdict": verdict, "name": "X"})
    assert base == known_fingerprint({"id": "x", "verdict": verdict, "name": "X"})
    assert base != known_fingerprint({"id": "x", "verdict": other, "name": "X"})
    assert base != known_fingerprint({"id": "x", "verdict": verdict, "name": "Y"})
    assert base != known_fingerprint({"id": "x", "verdict": dict(verdict), "name": "X"})  # not noted: its bytes
    assert base != known_fingerprint({"verdict": verdict, "id": "x", "name": "X"})         # keys' order
    content_cache.forget_made_from()
    assert content_cache.made_from(verdict) is None


def test_a_warm_check_places_each_finding_without_decoding_any_records_marks(tmp_path, monkeypatch):
    """The per-record rules' findings are kept with their line and column: a warm `check` places them as a cold one
    does and decodes no record's marks (three quarters of a parse's entry, at 10,000 records seconds of reading);
    a rule over the whole tree that finds something still places it by the record's marks."""
    monkeypatch.setenv("UASDB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("UASDB_TODAY", "2026-11-21")
    tree = tmp_path / "tree"
    shutil.copytree(INVALID, tree)
    monkeypatch.setenv("UASDB_CACHE", "off")
    cold = [p.render() for p in database.check([tree]).problems]
    monkeypatch.setenv("UASDB_CACHE", "on")
    assert [p.render() for p in database.check([tree]).problems] == cold      # fills the cache
    warm = database.check([tree])
    assert [p.render() for p in warm.problems] == cold
    kept = [r.loaded for r in warm.records if isinstance(r.loaded, database._KeptLoaded)]
    assert len(kept) == len(warm.records) > 0
    tree_rules = {rule.id for rule in database.checking_rules() if rule.scope == "tree"}
    placed_by_tree = {p.file for p in warm.problems if p.rule in tree_rules}
    assert any(loaded.__dict__["_packed"] is not None for loaded in kept)       # never decoded
    assert all(loaded.__dict__["_packed"] is not None for loaded in kept if loaded.path not in placed_by_tree)
    assert all(loaded.text for loaded in kept)                                   # decoded when asked for
