"""The watcher's first phase (a save's own product page, written before the full export) costs the edited record,
not the tree: at 10,000 products a whole-tree pass there kept the edit off the page for 14 s."""
from __future__ import annotations

import shutil

import pytest

import uasdb.publish.export as export
import uasdb.publish.watch as watch
import uasdb.records.database as database
from helpers import tree_files
from uasdb.tools.bench_live import EDITS
from uasdb.tools.synth import generate


@pytest.fixture
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("synthetic")
    generate(root, 40)
    return root / "data"


def _watched(synthetic, tmp_path, monkeypatch):
    """A watcher's state after its start-up export of a copy of the synthetic products, and a log of the
    whole-tree work each later refresh does."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data = tmp_path / "data"
    shutil.copytree(synthetic, data)
    out = tmp_path / "out"
    state = watch.State()
    assert watch.refresh(out, [data], state) == []
    log: list[str] = []
    real_load, real_discover, real_sources = database._load_one, database.discover, export.sources_catalog
    monkeypatch.setattr(database, "_load_one", lambda path: log.append(f"parse {path.name}") or real_load(path))
    monkeypatch.setattr(database, "discover", lambda *a, **k: log.append("discover") or real_discover(*a, **k))
    monkeypatch.setattr(export, "sources_catalog", lambda *a, **k: log.append("sources_catalog") or real_sources(*a, **k))
    return data, out, state, log


def _product(out, adapter_id):
    return (out / "api" / "v1" / "adapters" / f"{adapter_id}.json").read_text(encoding="utf-8")


def test_the_first_phase_reads_only_the_edited_record_and_no_whole_tree_step(synthetic, tmp_path, monkeypatch):
    """A note (the product's model only) and then a name (its page, lists, pages.json): before the full export
    runs, the edited file is the only one parsed (and it is not parsed again after), nothing lists the tree or
    builds the catalog of every record, and the product's file already shows the edit, as the full export then
    writes it (neither edit moves a verdict)."""
    data, out, state, log = _watched(synthetic, tmp_path, monkeypatch)
    seen = {}
    real_prepare = watch.prepare

    def at_second_phase(*args, **kwargs):
        log.append("prepare")
        seen["product"] = _product(out, seen["id"])
        return real_prepare(*args, **kwargs)

    monkeypatch.setattr(watch, "prepare", at_second_phase)
    for edit in ("note", "name"):
        record = next(p for p in sorted((data / "adapters").glob("*.yaml")) if _editable(p, edit))
        seen["id"], before = record.stem, _product(out, record.stem)
        log.clear()
        record.write_text(EDITS[edit](record.read_text(encoding="utf-8"), f"{edit}-mark"), encoding="utf-8")
        assert watch.refresh(out, [data], state) == []
        assert "prepare" in log
        assert log[:log.index("prepare")] == [f"parse {record.name}"], f"{edit}: {log[:log.index('prepare')]}"
        assert log.count(f"parse {record.name}") == 1
        assert f"{edit}-mark" in seen["product"] and seen["product"] != before
        assert seen["product"] == _product(out, record.stem), f"{edit}: the first phase's file is not the export's"


def _editable(path, edit):
    try:
        EDITS[edit](path.read_text(encoding="utf-8"), "x")
        return True
    except ValueError:
        return False


@pytest.fixture
def fixture_tree(tmp_path):
    from uasdb.paths import REPO_ROOT
    data = tmp_path / "data"
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "site-data", data)
    return data, tmp_path / "out"


@pytest.mark.slow  # three exports of the fixtures and two refreshes with errors, about 3 s of CPU
def test_an_edit_that_breaks_a_rule_between_records_writes_nothing_first(fixture_tree, monkeypatch):
    """The first phase runs the rules that compare records on the edited one and those sharing an ID, a name or a
    shop code with it, not on the tree: an edit that breaks one (a possible duplicate that does not name it back,
    a shop code another product has) must still write nothing before the full export, which reports it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = fixture_tree
    nvme, nice = data / "adapters" / "fixture-nvme.yaml", data / "adapters" / "fixture-nice-sata.yaml"
    state = watch.State()
    assert watch.refresh(out, [data], state) == []
    nvme.write_text(nvme.read_text(encoding="utf-8") + "product_codes:\n  asin:\n    - B00FCLG65U\n", encoding="utf-8")
    assert watch.refresh(out, [data], state) == []
    seen, real_prepare = [], watch.prepare
    monkeypatch.setattr(watch, "prepare", lambda *a, **k: seen.append(tree_files(out)) or real_prepare(*a, **k))
    original = nice.read_text(encoding="utf-8")
    for addition, rule in (("may_be_same_as:\n  - fixture-nvme\n", "may-be-same-as-mutual"),
                           ("product_codes:\n  asin:\n    - B00FCLG65U\n", "product-code-unique")):
        before = tree_files(out)
        nice.write_text(original + addition, encoding="utf-8")
        problems = watch.refresh(out, [data], state)
        assert any(rule in line for line in problems), problems
        assert seen[-1] == before, f"{rule}: a file was written before the full export"
        nice.write_text(original, encoding="utf-8")
        assert watch.refresh(out, [data], state) == []
