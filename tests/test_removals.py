"""Deleting a record: its address must live on, as an alias of the record that replaces it or through a removal note
in data/removed.yaml, whose redirect the export writes (docs/maintaining.md, "Deleting a record")."""
from __future__ import annotations

import subprocess

import pytest

from helpers import adapter, write_tree
from uasdb.publish.export import export_tree
from uasdb.records.database import check

GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false",
       "-c", "maintenance.auto=false"]  # no `git maintenance` process after each commit


def git(repo, *args):
    return subprocess.run([*GIT, "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo_with_a_deletion(tmp_path):
    """A repository whose history deleted data/adapters/acme-box-2.yaml."""
    data = write_tree(tmp_path, [adapter(), adapter(id="acme-box-2", usb_ids=[{"vid": "152d", "pid": "0579"}])])
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "two records")
    git(tmp_path, "rm", "-q", "data/adapters/acme-box-2.yaml")
    git(tmp_path, "commit", "-qm", "delete one")
    return data


def removal_findings(data):
    return [p for p in check([data]).problems if p.rule in ("record-removed", "removal-note")]


def test_a_record_deleted_without_a_trace_is_an_error(repo_with_a_deletion):
    (problem,) = removal_findings(repo_with_a_deletion)
    commit = git(repo_with_a_deletion.parent, "rev-parse", "--short", "HEAD").strip()
    assert problem.rule == "record-removed" and problem.file.endswith("data/adapters/acme-box-2.yaml")
    assert f"`acme-box-2` was deleted (commit {commit})" in problem.message and "/adapters/acme-box-2/" in problem.message
    assert "aliases" in problem.fix and "removed.yaml" in problem.fix


def test_an_alias_on_the_record_that_replaces_it_keeps_the_address(repo_with_a_deletion):
    write_tree(repo_with_a_deletion.parent, [adapter(aliases=["acme-box-2"])])
    assert removal_findings(repo_with_a_deletion) == []


NOTE = """removed:
  - id: acme-box-2
    kind: adapter
    date: "2026-11-21"
    reason: a duplicate of the Acme Box, entered twice
    redirect: {redirect}
"""


def test_a_removal_note_keeps_the_address_and_the_export_redirects_it(repo_with_a_deletion, tmp_path):
    (repo_with_a_deletion / "removed.yaml").write_text(NOTE.format(redirect="acme-box"), encoding="utf-8")
    assert removal_findings(repo_with_a_deletion) == []
    assert export_tree(tmp_path / "out", [repo_with_a_deletion]) is not None
    page = (tmp_path / "out" / "static" / "adapters" / "acme-box-2" / "index.html").read_text(encoding="utf-8")
    assert '<meta http-equiv="refresh" content="0; url=../acme-box/">' in page
    assert "a duplicate of the Acme Box, entered twice" in page and "script-src 'none'" in page


@pytest.mark.parametrize("note, message", [
    (NOTE.format(redirect="acme-box-3"), "no adapter `acme-box-3` to redirect to"),
    (NOTE.format(redirect="acme-box").replace("id: acme-box-2", "id: acme-box"), "`acme-box` is still an id or alias in data/adapters/"),
    (NOTE.format(redirect="acme-box").replace("    redirect: acme-box\n", ""), "has exactly `id`, `kind`, `date`"),
    (NOTE.format(redirect="acme-box").replace('"2026-11-21"', '"last week"'), "is not a date"),
])
def test_a_removal_note_must_say_where_the_address_goes(repo_with_a_deletion, note, message):
    (repo_with_a_deletion / "removed.yaml").write_text(note, encoding="utf-8")
    found = removal_findings(repo_with_a_deletion)
    assert any(p.rule == "removal-note" and message in p.message for p in found), [p.render() for p in found]


def test_a_tree_outside_git_has_no_history_to_check(tmp_path):
    data = write_tree(tmp_path, [adapter()])
    assert removal_findings(data) == []


@pytest.mark.realdata
def test_the_repositorys_own_deletions_all_left_an_alias(real_catalog):
    """Every record this repository ever deleted kept its address (the real history, read by `uasdb validate`)."""
    from uasdb.paths import DATA_DIR
    from uasdb.records.rules.removals import _deleted_records
    deleted = _deleted_records(DATA_DIR)
    result = real_catalog.check
    assert not [p for p in result.problems if p.rule in ("record-removed", "removal-note")]
    assert deleted, "the history has deletions (renames kept as aliases); the check must see them"
