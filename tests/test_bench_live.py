"""`make bench` splits a live edit into the watcher's export and Hugo's rebuild, read from the two logs."""
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
