"""`make bench` splits a live edit into the watcher's export and Hugo's rebuild, read from the two logs."""
import pytest

from uasdb.tools.bench_live import split_live_edit

# As the watcher and Hugo 0.168's server print them around one edit and its undo: the raw record is mounted as
# an asset, so each edit first triggers a quick rebuild that does not show it; the one that does follows
# "Data changed".
WATCH_LOG = """watching /tmp/x/data for changes (re-exports into /tmp/x/site/data/generated)
16:17:30 data changed: exported again in 7.90 s; the browser reloads
16:17:45 data changed: exported again in 6.10 s; the browser reloads
"""
HUGO_LOG = """Change detected, rebuilding site (#1).
2026-11-23 16:17:12.716 +0000
Asset changed /records/adapters/synthetic-adapter-00000.yaml
Total in 636 ms

Change detected, rebuilding site (#2).
2026-11-23 16:17:34.523 +0000
Data changed /generated/site.json
Static file changes detected
Total in 4210 ms

Change detected, rebuilding site (#3).
Asset changed /records/adapters/synthetic-adapter-00000.yaml
Total in 512 ms

Change detected, rebuilding site (#4).
Data changed /generated/site.json
Total in 3790 ms
"""


def test_the_split_takes_the_export_times_and_the_rebuilds_after_data_changed():
    assert split_live_edit(WATCH_LOG, HUGO_LOG) == {"live_edit_export_s": 7.0, "live_edit_hugo_s": 4.0}


def test_a_log_without_those_lines_gives_no_figure_rather_than_a_wrong_one():
    assert split_live_edit("watching /tmp/x/data for changes\n", "Change detected, rebuilding site (#1).\nTotal in 5 ms\n") == {}


@pytest.mark.slow  # a benchmark's timing loop against a served page (its waits are real)
def test_an_edit_is_timed_alone_the_undo_shown_first(tmp_path):
    """The next edit waits until the page is served without the last marker, so it is not timed behind the undo."""
    import functools
    import http.server
    import threading

    from uasdb.tools.bench_live import _wait_for, _wait_for_line

    page = tmp_path / "index.html"
    page.write_text("name live-edit-0", encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # Polled every 50 ms, so shutdown() below returns at once (the default half-second poll was a third of the test).
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    try:
        assert _wait_for(url, "live-edit-0", timeout=2) is not None
        assert _wait_for(url, "live-edit-0", timeout=0.3, present=False) is None  # still shown: not undone
        threading.Timer(0.2, lambda: page.write_text("name", encoding="utf-8")).start()
        assert _wait_for(url, "live-edit-0", timeout=5, present=False) is not None
    finally:
        server.shutdown()
    log = tmp_path / "watch.log"
    log.write_text("12:00:00 data checked at start\n", encoding="utf-8")
    assert not _wait_for_line(log, "watching", timeout=0.3)  # the first check is still running
    log.write_text(WATCH_LOG, encoding="utf-8")
    assert _wait_for_line(log, "watching", timeout=1)


@pytest.mark.slow  # a benchmark's timing loop against a served page (its waits are real)
def test_the_next_edit_waits_for_the_watchers_line_for_the_undo(tmp_path):
    """The watcher shows the product's page before its export is over: the next edit also waits for the undo's
    line in the watcher's log, or it would be timed behind the rest of the undo's export."""
    from uasdb.tools.bench_live import _wait_for_count

    log = tmp_path / "watch.log"
    log.write_text("watching\n12:00:01 data changed: exported again in 4.10 s; the browser reloads\n", encoding="utf-8")
    assert not _wait_for_count(log, "data changed", 2, timeout=0.3)  # the edit's export is over, the undo's is not
    log.write_text(log.read_text(encoding="utf-8") + "12:00:06 data changed: exported again in 4.20 s; the browser "
                   "reloads\n", encoding="utf-8")
    assert _wait_for_count(log, "data changed", 2, timeout=1)


def test_a_note_edit_appends_to_the_first_nested_note_plain_or_folded():
    """The bench's model-only edit: a report's note changes, the adapter's name and summary do not."""
    import pytest

    from uasdb.tools.bench_live import _noted

    folded = "id: a\nname: A\nreports:\n  - date: '2024'\n    notes: >-\n      Worked fine.\n    host: pi4\n"
    assert _noted(folded, "M") == folded.replace("      Worked fine.", "      Worked fine. M")
    plain = "id: a\nname: A\nreports:\n  - host: pi4\n    notes: Worked fine.\n"
    assert _noted(plain, "M") == plain.replace("Worked fine.", "Worked fine. M")
    with pytest.raises(ValueError):
        _noted("id: a\nname: A\nnotes: top-level only\n", "M")


def test_the_split_takes_the_first_phase_the_watcher_reports():
    log = ("12:00:01 data changed: exported again in 4.10 s (the edited product's page first, in 0.06 s); the browser reloads\n"
           "12:00:06 data changed: exported again in 4.20 s (the edited product's page first, in 0.04 s); the browser reloads\n")
    assert split_live_edit(log, "") == {"live_edit_export_s": 4.15, "live_edit_first_phase_s": 0.05}


def test_the_split_takes_the_models_rebuilds_not_the_priming_nor_a_records_copy():
    """Under `make serve` the record is a static file (copied, no rebuild) and the edit's rebuild follows its model;
    the watcher's priming (common.json rewritten once) is no edit."""
    watch_log = ("watching /tmp/x/data\n12:00:00 Hugo's server is up: it renders a page when it is first asked for\n"
                 "12:00:05 data changed: exported again in 30.00 s (the edited product's page first, in 0.02 s); the browser reloads\n")
    hugo_log = """Change detected, rebuilding site (#1).
Data changed /generated/common.json
Total in 4500 ms

Change of Static files detected, rebuilding site (#2).
Syncing records/adapters/synthetic-adapter-00000.yaml to /

Change detected, rebuilding site (#3).
Asset changed /api/v1/adapters/synthetic-adapter-00000.json
Total in 650 ms

Change detected, rebuilding site (#4).
Asset changed /api/v1/adapters/synthetic-adapter-00000.json
Total in 550 ms
"""
    assert split_live_edit(watch_log, hugo_log) == {"live_edit_export_s": 30.0, "live_edit_first_phase_s": 0.02,
                                                    "live_edit_hugo_s": 0.6}
