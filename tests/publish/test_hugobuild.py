"""The warm site build (publish/hugobuild.py): after one record's edit Hugo renders only the pages whose inputs
changed, into the last build's public/, and the tree is byte for byte what a cold build of the edited records makes."""
from __future__ import annotations

import filecmp
import json
import shutil
from pathlib import Path

import pytest

from uasdb.paths import REPO_ROOT
from uasdb.publish import hugobuild
from uasdb.publish.export import export_tree
from uasdb.publish.sitebuild import hugo_binary, stage_site

SITE_DATA = REPO_ROOT / "tests" / "fixtures" / "site-data"
HUGO_ARGS = ["--quiet", "--gc", "--minify", "--baseURL", "http://127.0.0.1:1/"]


class Workdir:
    """A staged site over a copy of the fixture records; `warm` builds into public/ with its manifest, `cold` into
    a fresh folder with none (as `make site` on a clean checkout)."""

    def __init__(self, root: Path):
        self.root = root
        self.site = stage_site(root)
        shutil.copytree(SITE_DATA, root / "data", ignore=shutil.ignore_patterns("*.md"))
        self.public = root / "public"
        self.manifest = root / ".cache" / "uasdb" / "hugo" / "build.json"
        self.colds = 0

    def export(self) -> None:
        assert export_tree(self.site / "data" / "generated", [self.root / "data"]) is not None

    def warm(self) -> hugobuild.Plan:
        self.export()
        return hugobuild.build(self.site, self.public, hugo_binary(), HUGO_ARGS, self.manifest)

    def cold(self, chunk_pages: int = 0) -> Path:
        self.colds += 1
        public = self.root / f"public-cold-{self.colds}"
        plan = hugobuild.build(self.site, public, hugo_binary(), HUGO_ARGS, self.root / f"cold-{self.colds}.json",
                               chunk_pages=chunk_pages)
        assert plan.full
        return public

    def edit(self, record: str, old: str, new: str) -> None:
        path = self.root / "data" / "adapters" / f"{record}.yaml"
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def pages_written(self) -> dict[str, int]:
        """Every page (its folder under public/) with its index.html's time."""
        return {p.parent.relative_to(self.public).as_posix(): p.stat().st_mtime_ns
                for p in self.public.rglob("index.html")}

    def note_times(self) -> None:
        self.times = self.pages_written()

    def rewritten(self) -> set[str]:
        """The pages written since note_times."""
        return {page for page, time in self.pages_written().items() if self.times.get(page) != time}


def same_tree(a: Path, b: Path) -> list[str]:
    """Every path that differs between two trees (missing on one side, or other bytes)."""
    differ: list[str] = []

    def walk(cmp: filecmp.dircmp, prefix: str) -> None:
        differ.extend(prefix + n for n in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
        differ.extend(prefix + n for n in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b), "")
    return differ


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    work = Workdir(tmp_path)
    first = work.warm()
    assert first.full and first.reason == "no manifest of an earlier build"
    return work


@pytest.mark.slow
def test_warm_builds_render_the_edited_pages_and_match_a_cold_build(workdir):
    # Nothing changed: no entity page is rendered, and the tree is what it was.
    workdir.note_times()
    again = workdir.warm()
    assert not again.full and again.render == []
    assert not any(page.startswith(("adapters/", "usb/", "chipsets/", "buy/")) for page in workdir.rewritten())

    # A note: only that adapter's page (and the pages that list everything) is rendered again.
    workdir.edit("fixture-naughty-jms", "TEST FIXTURE firmware note.", "TEST FIXTURE firmware note, edited.")
    workdir.note_times()
    noted = workdir.warm()
    assert not noted.full and noted.render == ["/adapters/fixture-naughty-jms"], noted.reason
    # The note is in no list's model (the rows, the naughty and nice lists, home): those pages stay as they were.
    assert not noted.lists and workdir.rewritten() == {"adapters/fixture-naughty-jms"}
    assert "firmware note, edited." in (workdir.public / "adapters/fixture-naughty-jms/index.html").read_text()
    assert same_tree(workdir.public, workdir.cold()) == []

    # A comment in a record: no page reads the record; its published copy follows.
    workdir.edit("fixture-naughty-jms", "TEST FIXTURE firmware note, edited.", "TEST FIXTURE firmware note, edited.\n# A comment.")
    commented = workdir.warm()
    assert not commented.full and commented.render == [] and not commented.lists, commented.reason
    assert "# A comment." in (workdir.public / "records/adapters/fixture-naughty-jms.yaml").read_text()
    assert same_tree(workdir.public, workdir.cold()) == []

    # A verdict: the product's page and every page whose model the verdict reaches (its USB ID, its chip, the
    # buy pages) are rendered again.
    workdir.edit("fixture-nice-sata", "host: macos\n    uas: works", "host: macos\n    uas: broken\n    notes: Synthetic failure for the warm build test.")
    workdir.note_times()
    judged = workdir.warm()
    assert not judged.full, judged.reason
    assert "/adapters/fixture-nice-sata" in judged.render and "/usb/174c/55aa" in judged.render
    assert "/adapters/fixture-naughty-jms" not in judged.render
    rewritten = workdir.rewritten()
    assert judged.lists and {".", "adapters", "nice", "naughty"} <= rewritten  # the lists count the verdict
    assert "adapters/fixture-naughty-jms" not in rewritten and len(rewritten) < judged.pages // 4
    assert same_tree(workdir.public, workdir.cold()) == []


@pytest.mark.slow
def test_a_rename_renders_the_pages_that_show_the_name(workdir):
    """Not a full build: a product renamed (names.json, held once) renders its page and the pages that name it by
    id; a record whose id changes leaves a redirect at its old address and its old files go. Each time public/ is
    what a cold build makes."""
    # The naughty adapter's expectation links the renamed product by id: its model stays as it was, its page
    # shows the new name.
    citing = workdir.site / "data" / "generated" / "api" / "v1" / "adapters" / "fixture-naughty-jms.json"
    model = citing.read_bytes()
    workdir.edit("fixture-second-jms", "name: Otherfixture Noboot dock", "name: Otherfixture Renamed dock")
    workdir.note_times()
    renamed = workdir.warm()
    assert not renamed.full, renamed.reason
    assert citing.read_bytes() == model
    assert {"/adapters/fixture-second-jms", "/adapters/fixture-naughty-jms"} <= set(renamed.render)
    assert "/adapters/fixture-nice-sata" not in renamed.render  # it shows no such name
    assert "adapters/fixture-nice-sata" not in workdir.rewritten()
    assert ">Otherfixture Renamed dock</a>" in (workdir.public / "adapters/fixture-naughty-jms/index.html").read_text()
    assert same_tree(workdir.public, workdir.cold()) == []

    # A new id, the old one kept as an alias: the old page's files go, the redirect takes its address.
    old = workdir.root / "data" / "adapters" / "fixture-second-jms.yaml"
    text = old.read_text(encoding="utf-8")
    assert "\naliases:" not in text
    old.unlink()
    (old.parent / "fixture-second-jms-v2.yaml").write_text(
        text.replace("id: fixture-second-jms\n", "id: fixture-second-jms-v2\naliases: [fixture-second-jms]\n", 1),
        encoding="utf-8")
    moved = workdir.warm()
    assert not moved.full, moved.reason
    assert "/adapters/fixture-second-jms-v2" in moved.render
    assert "api/v1/adapters/fixture-second-jms.json" in moved.stale
    assert "fixture-second-jms-v2" in (workdir.public / "adapters/fixture-second-jms/index.html").read_text()
    assert same_tree(workdir.public, workdir.cold()) == []


@pytest.mark.slow
def test_a_removal_deletes_the_pages_files_and_its_sitemap_entry(workdir):
    """A record removed: its page, its model, its record and its sitemap entry leave public/, the pages that list
    it are rendered again; not a full build. (One whose chip, vendor and verdict words others share: the search
    box's filters, on every page, stay as they are.)"""
    (workdir.root / "data" / "adapters" / "fixture-naughty-jms.yaml").unlink()
    removed = workdir.warm()
    assert not removed.full, removed.reason
    assert {"adapters/fixture-naughty-jms/index.html", "api/v1/adapters/fixture-naughty-jms.json",
            "records/adapters/fixture-naughty-jms.yaml"} <= set(removed.stale)
    assert not (workdir.public / "adapters" / "fixture-naughty-jms").exists()
    assert not (workdir.public / "api" / "v1" / "adapters" / "fixture-naughty-jms.json").exists()
    assert "fixture-naughty-jms" not in (workdir.public / "sitemap.xml").read_text(encoding="utf-8")
    assert same_tree(workdir.public, workdir.cold()) == []


@pytest.mark.slow
def test_a_layout_edit_makes_the_build_full(workdir):
    layout = workdir.site / "layouts" / "_partials" / "footer.html"
    layout.write_text(layout.read_text(encoding="utf-8").replace("API docs", "API documentation"), encoding="utf-8")
    relaid = workdir.warm()
    assert relaid.full and "global input" in relaid.reason
    assert "API documentation" in (workdir.public / "adapters" / "fixture-nice-sata" / "index.html").read_text()


@pytest.mark.slow
def test_a_damaged_manifest_or_public_folder_costs_only_time(workdir):
    workdir.manifest.write_text("{not json", encoding="utf-8")
    assert workdir.warm().full
    workdir.manifest.write_text('{"version": 1, "pages": [], "global": 3}', encoding="utf-8")
    assert workdir.warm().reason == "the manifest is damaged or of another version"
    (workdir.public / "check" / "index.html").unlink()
    (workdir.public / "adapters" / "fixture-nice-sata" / "index.html").write_text("stale", encoding="utf-8")
    rebuilt = workdir.warm()
    assert rebuilt.full and rebuilt.reason == "public/ is not what the last build left"
    assert same_tree(workdir.public, workdir.cold()) == []
    # A full build in runs of 150 entity pages (less memory at scale) makes the same tree.
    assert same_tree(workdir.public, workdir.cold(chunk_pages=150)) == []


# The plan alone, on a small tree shaped like the export (no Hugo): what makes a page render, what makes a build full.

def small_site(root: Path, adapters: dict[str, str], rows: str = "[]") -> tuple[Path, Path]:
    site = root / "site"
    (site / "layouts").mkdir(parents=True, exist_ok=True)
    (site / "layouts" / "baseof.html").write_text("layout", encoding="utf-8")
    (site / "hugo.yaml").write_text((REPO_ROOT / "site" / "hugo.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    export = site / "data" / "generated"
    shutil.rmtree(export, ignore_errors=True)
    for folder in ("data", "api/v1/adapters", "static"):
        (export / folder).mkdir(parents=True, exist_ok=True)
    (export / "data" / "common.json").write_text("{}", encoding="utf-8")
    (export / "static" / "adapters.csv").write_text("id\n", encoding="utf-8")
    (export / "api" / "v1" / "adapter-rows.json").write_text(rows, encoding="utf-8")
    entries = []
    for adapter_id, model in adapters.items():
        (export / "api" / "v1" / "adapters" / f"{adapter_id}.json").write_text(model, encoding="utf-8")
        entries.append({"id": adapter_id, "aliases": [], "model": f"api/v1/adapters/{adapter_id}.json"})
    (export / "data" / "pages.json").write_text(json.dumps({"adapters": entries, "filters": {}}), encoding="utf-8")
    return site, root / "public"


def planned(site: Path, public: Path, previous: dict | None) -> hugobuild.Plan:
    chosen = hugobuild.plan(site, public, previous, "hugo v0", ["--minify"])
    chosen.manifest["public"] = hugobuild.public_fingerprint(public)  # what build() adds once Hugo is done
    return chosen


def test_plan_renders_the_pages_whose_model_changed_and_is_full_otherwise(tmp_path):
    site, public = small_site(tmp_path, {"a": "{1}", "b": "{2}"})
    first = planned(site, public, None)
    assert first.full and first.reason == "no manifest of an earlier build"
    same = planned(site, public, first.manifest)
    assert not same.full and same.render == []
    site, public = small_site(tmp_path, {"a": "{1, edited}", "b": "{2}", "c": "{3}"})
    edited = planned(site, public, same.manifest)
    assert not edited.full and edited.render == ["/adapters/a", "/adapters/c"] and not edited.lists
    assert hugobuild.segment_config(edited.render, edited.lists)["segments"] == {
        "uasdb-lists": {"includes": [{"kind": ["sitemap"]}]},
        "uasdb-changed": {"includes": [{"path": ["/adapters/a", "/adapters/c"]}]}}
    site, public = small_site(tmp_path, {"a": "{1, edited}", "b": "{2}", "c": "{3}"}, rows="[3]")
    listed = planned(site, public, edited.manifest)
    assert not listed.full and listed.render == [] and listed.lists
    assert hugobuild.segment_config([], True)["segments"]["uasdb-lists"]["includes"][0]["kind"] == [
        "home", "section", "sitemap", "robotstxt", "404"]
    site, public = small_site(tmp_path, {"a": "{1, edited}", "c": "{3}"}, rows="[3]")
    gone = planned(site, public, listed.manifest)
    assert not gone.full and gone.render == [] and "1 gone" in gone.reason
    assert gone.stale == ["api/v1/adapters/b.json", "adapters/b/index.html"]
    assert "global input" in hugobuild.plan(site, public, listed.manifest, "hugo v1", ["--minify"]).reason
    assert "global input" in hugobuild.plan(site, public, listed.manifest, "hugo v0", ["--baseURL", "x"]).reason
    (site / "layouts" / "baseof.html").write_text("another layout", encoding="utf-8")
    assert "global input" in planned(site, public, edited.manifest).reason
    for damaged in ({}, {**edited.manifest, "pages": {"/adapters/a": "x"}}, {**edited.manifest, "files": {"f": [1]}},
                    {**edited.manifest, "version": 0}):
        assert planned(site, public, damaged).reason == "the manifest is damaged or of another version"


def test_a_records_bytes_alone_render_no_page_the_record_is_copied_as_a_static_file(tmp_path):
    """The records are published as they are (hugo.yaml mounts data/adapters/ as static files) and no page reads
    them: a record whose bytes change and whose export does not (a comment) renders nothing again. Its name is
    kept with the static files, so a record that goes away is known."""
    site, public = small_site(tmp_path, {"a": "{1}"})
    record = tmp_path / "data" / "adapters" / "a.yaml"
    record.parent.mkdir(parents=True)
    record.write_text("id: a\n", encoding="utf-8")
    (record.parent / "notes.txt").write_text("not a record", encoding="utf-8")
    first = planned(site, public, None)
    assert "static/records/adapters/a.yaml" in first.manifest["static"]
    assert "static/records/adapters/notes.txt" not in first.manifest["static"]  # hugo.yaml's `files` leave it out
    record.write_text("id: a\n# a comment\n", encoding="utf-8")
    again = planned(site, public, first.manifest)
    assert not again.full and again.render == [] and not again.lists
