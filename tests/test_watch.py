"""`make serve`'s watcher: an edit to data/ is exported again; an edit with errors keeps the last good data,
is printed, and is put in the export for the page overlay."""
from __future__ import annotations

import json
import shutil

import pytest

from helpers import tree_files, tree_stamps
from uasdb.paths import REPO_ROOT
from uasdb.publish.files import COMMON_JSON
from uasdb.publish.watch import State, refresh, snapshot

FIXTURES = REPO_ROOT / "tests" / "fixtures" / "site-data"


@pytest.fixture
def tree(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FIXTURES, data)
    out = tmp_path / "generated"
    (out / "static" / "pagefind").mkdir(parents=True)
    (out / "static" / "pagefind" / "pagefind.js").write_text("// index", encoding="utf-8")
    return data, out


ROWS = "api/v1/adapter-rows.json"


def names(out):
    return {a["id"]: a["name"] for a in json.loads((out / ROWS).read_text(encoding="utf-8"))["result"]}


def every_file(out):
    """The export's text, file by file (the search index `make serve` built once left out)."""
    return {path: content.decode("utf-8") for path, content in tree_files(out, skip=["static/pagefind"]).items()}


def test_an_edit_is_exported_and_the_search_index_kept(tree):
    data, out = tree
    assert refresh(out, [data]) == []
    record = data / "adapters" / "fixture-nice-sata.yaml"
    before = snapshot([data])
    record.write_text(record.read_text(encoding="utf-8").replace("Goodcase", "Greatcase", 1), encoding="utf-8")
    assert snapshot([data]) != before  # the poll sees the edit
    assert refresh(out, [data]) == []
    assert "Greatcase" in names(out)["fixture-nice-sata"]
    assert (out / "static" / "pagefind" / "pagefind.js").is_file()
    assert (out / "api" / "v1" / "adapters" / "fixture-nice-sata.json").is_file()
    assert "serve_errors" not in json.loads((out / COMMON_JSON).read_text(encoding="utf-8"))


def test_an_edit_with_errors_keeps_the_last_good_data_and_reports_them(tree):
    data, out = tree
    assert refresh(out, [data]) == []
    good = names(out)
    record = data / "adapters" / "fixture-nice-sata.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("kind:", "kind_typo:", 1), encoding="utf-8")
    problems = refresh(out, [data])
    assert any("fixture-nice-sata.yaml" in p and "[" in p for p in problems), problems
    payload = json.loads((out / COMMON_JSON).read_text(encoding="utf-8"))
    assert payload["serve_errors"] == problems
    assert names(out) == good
    record.write_text(record.read_text(encoding="utf-8").replace("kind_typo:", "kind:", 1), encoding="utf-8")
    assert refresh(out, [data]) == []  # fixed: the overlay goes away
    assert "serve_errors" not in json.loads((out / COMMON_JSON).read_text(encoding="utf-8"))


def test_an_edit_rewrites_only_the_files_it_changes(tree, monkeypatch):
    """Hugo's server rebuilds on every file event: after one record's edit the watcher leaves the API files that
    did not change untouched (same inode, same mtime), replaces a changed file whole (a new file renamed over the
    old one, so Hugo's server never reads it half-written), and drops files the export no longer has."""
    # Outside git (as this copy of the records is) the export's time is "now", a new one on every export; the
    # watcher keeps its first, or every file would change with it.
    import uasdb.publish.export
    moments = iter(f"2026-01-01T00:00:{n:02d}Z" for n in range(60))
    monkeypatch.setattr(uasdb.publish.export, "_generated_at", lambda pathspecs=(): next(moments))
    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    api = out / "api" / "v1"
    files = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in api.rglob("*.json")}
    rows_inode = (out / ROWS).stat().st_ino
    stale = api / "adapters" / "gone.json"
    stale.write_text("{}", encoding="utf-8")
    record = data / "adapters" / "fixture-naughty-jms.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("\nname: ", "\nname: Edited ", 1), encoding="utf-8")
    assert refresh(out, [data], state) == []
    changed = {p for p, seen in files.items() if (p.stat().st_ino, p.stat().st_mtime_ns) != seen}
    assert api / "adapters" / "fixture-naughty-jms.json" in changed
    assert api / "kernel.json" not in changed and len(changed) < len(files) / 2
    assert "Edited " in (api / "adapters" / "fixture-naughty-jms.json").read_text(encoding="utf-8")
    assert (out / ROWS).stat().st_ino != rows_inode
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no staging file left behind
    assert not stale.exists()
    assert (out / "static" / "pagefind" / "pagefind.js").is_file()


@pytest.mark.slow  # five exports of the fixtures, about 2 s of CPU: over the fast lane's budget
def test_the_watcher_parses_again_only_the_records_that_changed(tree, monkeypatch):
    """With one State across refreshes (as `make serve` runs it), an edit costs the edited record's parse, not the
    whole tree's, and the export is the same as a cold one."""
    import uasdb.records.database as database
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    parsed = []
    real = database._load_one

    def load_one(path, kept_only=False):  # each file loaded, from the content cache or parsed, counted once
        result = real(path, kept_only)
        if result is not None:
            parsed.append(path.name)
        return result
    monkeypatch.setattr(database, "_load_one", load_one)
    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    assert len(parsed) == len(list(data.rglob("*.yaml")))
    first = every_file(out)
    parsed.clear()
    assert refresh(out, [data], state) == []  # nothing changed: nothing parsed, and the cached records came
    assert parsed == []                       # back untouched by the previous export
    assert every_file(out) == first
    record = data / "adapters" / "fixture-nice-sata.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("Goodcase", "Greatcase", 1), encoding="utf-8")
    assert refresh(out, [data], state) == []
    assert parsed == ["fixture-nice-sata.yaml"]
    assert "Greatcase" in names(out)["fixture-nice-sata"]
    cold = out.parent / "cold"
    assert refresh(cold, [data]) == []
    assert every_file(cold) == every_file(out)
    record.unlink()  # a removed record leaves the export and its API file goes
    assert refresh(out, [data], state) == []
    assert "fixture-nice-sata" not in names(out)
    assert not (out / "api" / "v1" / "adapters" / "fixture-nice-sata.json").exists()


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer holds {old!r}: update the test's edit"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow  # thirteen exports of the fixtures, about 5 s of CPU: over the fast lane's budget
def test_after_each_kind_of_edit_the_live_export_is_the_published_one(tree, monkeypatch):
    """The watcher keeps rule findings, verdicts, kernel facts and JSON text of unchanged records between
    exports. Whatever the edit (a name; an outcome that moves a product between lists; 360 written as 360.0,
    which Python finds equal but JSON does not; a chipset renamed under unchanged adapters; a record removed
    and put back), every file it leaves must be the file a cold `uasdb export` of the same tree writes: a
    contributor previews exactly what will be published."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = tree
    nice = data / "adapters" / "fixture-nice-sata.yaml"
    second = data / "adapters" / "fixture-second-jms.yaml"
    second_text = second.read_text(encoding="utf-8")
    edits = [
        lambda: _edit(nice, "Goodcase", "Greatcase"),
        lambda: _edit(nice, "    uas: works", "    uas: broken"),
        lambda: _edit(nice, "value: 360\n", "value: 360.0\n"),
        lambda: _edit(data / "chipsets" / "jms567.yaml", "name: JMS567", "name: JMS567 renamed"),
        second.unlink,
        lambda: second.write_text(second_text, encoding="utf-8"),
    ]
    state = State()
    assert refresh(out, [data], state) == []
    for number, edit in enumerate(edits):
        before = every_file(out)
        edit()
        assert refresh(out, [data], state) == []
        cold = out.parent / f"cold-{number}"
        assert refresh(cold, [data]) == []
        live = every_file(out)
        assert live != before, f"edit {number} changed nothing in the export"
        assert live == every_file(cold), f"after edit {number} the live export differs from a cold one"


def test_an_edit_recomputes_rules_and_verdicts_of_that_record_only(tree, monkeypatch):
    """At 10,000 records the per-record rules and the verdicts are most of an export: after an edit the watcher
    runs them again for the edited record and nothing else."""
    import uasdb.publish.adapter as adapter_module
    import uasdb.records.database as database
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    # What the watcher's own memory saves is counted here: the content cache (which an earlier test may have given
    # the edited record's findings) is off.
    monkeypatch.setenv("UASDB_CACHE", "off")
    checked, judged = [], []
    real_safe, real_verdict = database._safe, adapter_module.adapter_verdict
    monkeypatch.setattr(database, "_safe", lambda rule, record, ctx: checked.append(record.data["id"]) or real_safe(rule, record, ctx))
    monkeypatch.setattr(adapter_module, "adapter_verdict", lambda data: judged.append(data["id"]) or real_verdict(data))
    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    assert len(set(judged)) == len(list((data / "adapters").glob("*.yaml")))
    checked.clear()
    judged.clear()
    _edit(data / "adapters" / "fixture-nvme.yaml", "\nname: ", "\nname: Edited ")
    assert refresh(out, [data], state) == []
    assert set(checked) == {"fixture-nvme"} and judged == ["fixture-nvme"]


def test_the_watcher_starts_warm_so_its_first_edit_costs_one_record(tree, monkeypatch):
    """`make serve` exports before the watcher starts; the watcher then exports once itself (writing nothing that
    is already right), so the first edit a contributor makes is as quick as every later one."""
    import threading

    import uasdb.publish.adapter as adapter_module
    import uasdb.publish.watch as watch_module
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = tree
    assert refresh(out, [data]) == []          # what `make site` left before `make serve` starts the watcher
    written = tree_stamps(out)
    judged = []
    # Each record's parts (verdicts and the rest), made or read from the content cache, for the watcher's own cache.
    real_parts, real_snapshot = adapter_module._adapter_parts, watch_module.snapshot
    monkeypatch.setattr(adapter_module, "_adapter_parts", lambda r: judged.append(r.data["id"]) or real_parts(r))
    polls, warm, edited = [], threading.Event(), threading.Event()

    def snapshot(trees):
        polls.append(1)
        if len(polls) == 2:                    # the loop's first poll: the start-up export is over
            warm.set()
            edited.wait(30)
        return real_snapshot(trees)

    monkeypatch.setattr(watch_module, "snapshot", snapshot)
    watcher = threading.Thread(target=watch_module.watch, args=(out, [data], 0.01, True), daemon=True)
    watcher.start()
    try:
        assert warm.wait(60)
        assert tree_stamps(out) == written  # nothing rewritten
        assert len(set(judged)) == len(list((data / "adapters").glob("*.yaml")))
        judged.clear()
    finally:  # whatever failed above, the watcher sees an edit and stops
        _edit(data / "adapters" / "fixture-nvme.yaml", "\nname: ", "\nname: Edited ")
        edited.set()
        watcher.join(60)
    assert not watcher.is_alive()
    assert judged == ["fixture-nvme"]
    assert "Edited " in names(out)["fixture-nvme"]


PRODUCT = "api/v1/adapters/fixture-nice-sata.json"


def _at_second_phase(monkeypatch, out):
    """What OUT held, file by file, when the watcher's second phase (the full export) began on each refresh."""
    import uasdb.publish.watch as watch_module
    seen, real_prepare = [], watch_module.prepare

    def prepare(*args, **kwargs):
        seen.append(every_file(out))
        return real_prepare(*args, **kwargs)

    monkeypatch.setattr(watch_module, "prepare", prepare)
    return seen


def test_a_save_shows_the_edited_product_first_and_ends_as_a_fresh_export(tree, monkeypatch):
    """A save writes the edited product's own file (its page's model and API file) before the whole export runs
    again; once the refresh is over, every file is what a cold `uasdb export` of the same tree writes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    seen, firsts = _at_second_phase(monkeypatch, out), []
    for number, (old, new) in enumerate([("Goodcase", "Greatcase"), ("    uas: works", "    uas: broken")]):
        before = every_file(out)
        _edit(data / "adapters" / "fixture-nice-sata.yaml", old, new)
        assert refresh(out, [data], state) == []
        early = seen[-1]
        firsts.append(early[PRODUCT])
        assert early[PRODUCT] != before[PRODUCT], f"edit {number}: the product's file waited for the full export"
        assert early[PRODUCT] == every_file(out)[PRODUCT] or number == 1  # a verdict may move its expectations
        assert early[ROWS] == before[ROWS], f"edit {number}: the first phase wrote more than the product's file"
        assert {k: v for k, v in early.items() if k != PRODUCT} == {k: v for k, v in before.items() if k != PRODUCT}
    cold = out.parent / "cold"  # one cold export, after both edits (the slow lane compares after every kind of edit)
    assert refresh(cold, [data]) == []
    assert every_file(out) == every_file(cold), "the live export differs from a cold one"
    assert "Greatcase" in json.loads(firsts[0])["result"]["name"]
    reports = json.loads(firsts[1])["result"]["reports"]
    assert [r["uas"] for r in reports if r["source"]["url"].endswith("/goodcase-pi4")] == ["broken"]


@pytest.mark.slow  # two exports of the fixtures per case, about 1 s each: 6 s of the fast lane's 30
@pytest.mark.parametrize("edit", ["chipset", "new file", "deleted file", "id", "error", "two records"])
def test_an_edit_the_first_phase_cannot_take_goes_straight_to_the_full_export(tree, monkeypatch, edit):
    """A chipset edit, a record added or removed, an id changed, a record with errors or two records saved at
    once: nothing is written before the full export, which (or whose report of the errors) ends the refresh
    as it always did."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    seen = _at_second_phase(monkeypatch, out)
    before = every_file(out)
    nice = data / "adapters" / "fixture-nice-sata.yaml"
    if edit == "chipset":
        _edit(data / "chipsets" / "jms567.yaml", "name: JMS567", "name: JMS567 renamed")
    elif edit == "new file":
        shutil.copy(data / "adapters" / "fixture-nvme.yaml", data / "adapters" / "fixture-copy.yaml")
        _edit(data / "adapters" / "fixture-copy.yaml", "id: fixture-nvme", "id: fixture-copy")
        _edit(nice, "Goodcase", "Greatcase")
    elif edit == "deleted file":
        (data / "adapters" / "fixture-second-jms.yaml").unlink()
    elif edit == "id":
        _edit(nice, "id: fixture-nice-sata", "id: fixture-renamed")
    elif edit == "error":
        _edit(nice, "kind:", "kind_typo:")
    else:
        _edit(nice, "Goodcase", "Greatcase")
        _edit(data / "adapters" / "fixture-nvme.yaml", "\nname: ", "\nname: Edited ")
    problems = refresh(out, [data], state)
    assert seen[-1] == before  # nothing written ahead of the full export
    if edit in ("error", "id"):  # an id that is not the file's name is an error too
        assert problems and names(out) == names_before(before)
        return
    assert problems == []
    cold = out.parent / "cold"
    assert refresh(cold, [data]) == []
    assert every_file(out) == every_file(cold)


def names_before(files):
    return {a["id"]: a["name"] for a in json.loads(files[ROWS])["result"]}


def test_the_primer_waits_for_hugos_server_then_rewrites_common_json_as_it_is(tree, capsys):
    """`make serve`'s watcher sets Hugo's server up once it answers: OUT/data/common.json is written again with the
    same bytes (a new file, which Hugo takes for a data change), once, and not before the server answers."""
    import functools
    import http.server
    import socket
    import threading

    from uasdb.publish.watch import ServerPrimer

    data, out = tree
    assert refresh(out, [data]) == []
    common = out / COMMON_JSON
    text, inode = common.read_bytes(), common.stat().st_ino
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    primer = ServerPrimer(f"http://127.0.0.1:{closed}/", out, every=0)
    assert not primer.poll() and common.stat().st_ino == inode
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        primer.url = f"http://127.0.0.1:{server.server_address[1]}/missing/"  # a 404 is an answer too
        assert primer.poll()
        assert common.read_bytes() == text and common.stat().st_ino != inode
        inode = common.stat().st_ino
        assert primer.poll() and common.stat().st_ino == inode  # once
    finally:
        server.shutdown()
        server.server_close()
    assert "Hugo's server is up" in capsys.readouterr().out


def test_under_make_serve_the_full_export_waits_after_the_edited_products_page(tree, monkeypatch):
    """With `settle` (watch() sets SETTLE_SECONDS), the edited product's page is written, then the watcher waits
    while Hugo's server rebuilds it, then the rest of the export follows: at the pause the page's model holds the
    edit and the list of every adapter does not yet."""
    import uasdb.publish.watch as watch_module

    data, out = tree
    state = State()
    assert refresh(out, [data], state) == []
    state.settle = 0.25
    record = data / "adapters" / "fixture-nice-sata.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("Goodcase", "Greatcase", 1), encoding="utf-8")
    seen = []
    model = out / "api" / "v1" / "adapters" / "fixture-nice-sata.json"
    monkeypatch.setattr(watch_module.time, "sleep", lambda seconds: seen.append(
        (seconds, "Greatcase" in model.read_text(encoding="utf-8"), "Greatcase" in names(out)["fixture-nice-sata"])))
    assert refresh(out, [data], state) == []
    assert seen == [(0.25, True, False)]
    assert "Greatcase" in names(out)["fixture-nice-sata"]


def test_the_files_saved_lately_are_looked_at_on_every_poll(tree):
    """At 10,000 records a whole snapshot waits half a second between polls; the record being edited is looked at
    on every poll (watch.HotFiles): another save of it, in place or by a rename over it, or its removal is seen."""
    import os

    from uasdb.publish.watch import HotFiles

    data, _ = tree
    record = data / "adapters" / "fixture-nice-sata.yaml"
    other = data / "adapters" / "fixture-nvme.yaml"
    hot = HotFiles()
    last = snapshot([data])
    os.utime(record, ns=(1, 1))
    now = snapshot([data])
    hot.add(now, last)
    assert list(hot.paths) == [str(record)] and not hot.changed(now)
    os.utime(other, ns=(1, 1))
    assert not hot.changed(now)  # not a file saved lately: the whole snapshot sees it
    os.utime(record, ns=(2, 2))
    assert hot.changed(now)
    staged = record.with_suffix(".tmp")
    staged.write_text(record.read_text(encoding="utf-8"), encoding="utf-8")
    os.utime(staged, ns=(1, 1))
    os.replace(staged, record)  # an editor's save by rename, same time and size: seen as it was
    assert not hot.changed(now)
    record.unlink()
    assert hot.changed(now)
    for n in range(HotFiles.KEEP + 5):
        hot.add({f"/f{n}": (n, n)}, {})
    assert len(hot.paths) == HotFiles.KEEP and "/f0" not in hot.paths
