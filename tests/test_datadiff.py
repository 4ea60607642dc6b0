"""`uasdb diff BASE_REF` against two temporary git commits."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from uasdb.cli import main
from uasdb.tools.datadiff import diff


def record(adapter_id, reports, **extra):
    data = {"id": adapter_id, "name": f"{adapter_id} enclosure", "kind": "enclosure", "drive_interface": "sata"}
    data.update(extra)
    data["reports"] = reports
    return data


def report(host="pi4", uas="works", **extra):
    data = {"date": "2021-03-04", "source": {"url": "https://example.org/t/1"}, "host": host, "uas": uas}
    data.update(extra)
    return data


def write(repo: Path, adapters):
    folder = repo / "data" / "adapters"
    if folder.exists():
        for path in folder.glob("*.yaml"):
            path.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    for data in adapters:
        (folder / f"{data['id']}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def commit(repo: Path, message: str):
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false",
           "-c", "maintenance.auto=false"]
    subprocess.run(git + ["add", "-A"], cwd=repo, check=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", message], cwd=repo, check=True)


@pytest.fixture
def repo(tmp_path):
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=tmp_path, check=True)
    write(tmp_path, [
        record("stays-nice", [report(boot="works", driver="uas")]),
        record("gets-fixed", [report(uas="broken", driver="uas", notes="resets")]),
        record("goes-away", [report(uas="works-with-quirk", quirks="u")], usb_ids=[{"vid": "152d", "pid": "0578"}]),
        record("old-name", [report()]),
    ])
    (tmp_path / "data" / "chipsets").mkdir()
    commit(tmp_path, "base")
    write(tmp_path, [
        record("stays-nice", [report(boot="works", driver="uas")]),
        record("gets-fixed", [report(uas="works-with-quirk", quirks="u", notes="resets")],
               usb_ids=[{"vid": "174c", "pid": "55aa"}]),
        record("brand-new", [report(boot="fails", notes="no boot")]),
        record("new-name", [report()], aliases=["old-name"]),
    ])
    (tmp_path / "data" / "chipsets" / "jms578.yaml").write_text("id: jms578\n", encoding="utf-8")
    commit(tmp_path, "head")
    return tmp_path


def test_diff_between_two_commits(repo):
    text = diff("HEAD~1", "HEAD", repo)
    assert text.startswith("## Data changes: `HEAD~1` → `HEAD`\n\n2 adapter(s) added, 2 removed, 1 changed, 2 list move(s).\n")
    assert "| `brand-new` `brand-new enclosure` | naughty | works | fails | untested |" in text
    assert "| `new-name` `new-name enclosure` | — | works | untested | untested |" in text
    assert "- `goes-away` `goes-away enclosure`\n" in text
    assert "- `old-name` `old-name enclosure` (renamed to `new-name`)" in text
    assert "| `gets-fixed` | naughty | naughty |" not in text  # still naughty: not a move
    assert "| `goes-away` | naughty | — |" in text and "| `brand-new` | — | naughty |" in text
    assert "| `gets-fixed` | Raspberry Pi 4 UAS | broken | works-with-quirk |" in text
    assert "- `gets-fixed`: `none` → `usb-storage.quirks=174c:55aa:u`" in text
    assert "- `gets-fixed`: 1 report(s) edited; `usb_ids` added" in text
    assert "- added `jms578`" in text
    assert "stays-nice" not in text


def test_diff_of_the_working_tree_and_no_change(repo, capsys):
    assert diff("HEAD", None, repo).endswith("No change to the adapters or chipsets in `data/`.\n")
    write(repo, [record("stays-nice", [report(boot="works"), report(host="pi5")])])
    text = diff("HEAD", None, repo)
    assert "→ this change" in text and "| `stays-nice` | Raspberry Pi 5 UAS | untested | works |" in text
    assert main(["diff", "HEAD", "--repo", str(repo)]) == 0
    assert "stays-nice" in capsys.readouterr().out


def test_unreadable_file_is_listed(repo):
    (repo / "data" / "adapters" / "stays-nice.yaml").write_text("id: [unclosed\n", encoding="utf-8")
    assert "- `data/adapters/stays-nice.yaml`: run `uasdb validate` to see why" in diff("HEAD", None, repo)


def test_unknown_base_ref_is_a_clear_error(repo, capsys):
    assert main(["diff", "no-such-branch", "--repo", str(repo)]) == 2
    err = capsys.readouterr().err
    assert "unknown git ref `no-such-branch`" in err and "Traceback" not in err
