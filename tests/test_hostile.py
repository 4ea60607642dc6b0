"""The hostile corpus (tests/fixtures/hostile/): each record attacks the tools one way; `uasdb validate` must
answer each with its own clear problem (file, line, field, rule), exit 1, and never a traceback or a hang."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from helpers import REPO, run_uasdb

HOSTILE = REPO / "tests" / "fixtures" / "hostile"
EXPECTED = [tuple(line.split("\t")) for line in (HOSTILE / "expected.txt").read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")]


# Attacks that are a file's name or place rather than its text: the file each one writes, under data/, holding a valid
# record (bidi-in-name's, cleaned), and which the expected message must name.
PLACED = {
    "upper-case-extension": "adapters/upper-case-extension.YAML",
    "record-in-a-subfolder": "adapters/sub/record-in-a-subfolder.yaml",
    "merge-leftover": "adapters/merge-leftover.yaml.orig",
    "record-at-the-top": "record-at-the-top.yaml",
    "windows-device-name": "adapters/con.yaml",
}


def attack_file(name: str) -> str:
    return "data/" + PLACED.get(name, f"adapters/{name}.yaml")


def make_tree(tmp_path: Path, name: str) -> Path:
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    (tmp_path / "data" / "chipsets").mkdir()
    target = tmp_path / attack_file(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    if name == "symbolic-link":
        target.symlink_to("/dev/zero")
    elif name == "fifo":
        os.mkfifo(target)
    elif name in PLACED:
        record_id = target.name.split(".")[0]
        text = (HOSTILE / "bidi-in-name.yaml").read_text(encoding="utf-8")
        target.write_text(text.replace("id: bidi-in-name", f"id: {record_id}").replace("\u202e", ""), encoding="utf-8")
    else:
        shutil.copy(HOSTILE / f"{name}.yaml", target)
    return tmp_path / "data"


def validate(data: Path):
    return run_uasdb("validate", data, cwd=data.parent, timeout=60)


def test_every_attack_file_has_an_expectation():
    named = {name for name, _, _ in EXPECTED}
    assert {p.stem for p in HOSTILE.glob("*.yaml")} <= named
    assert {"symbolic-link", "fifo"} | set(PLACED) <= named


@pytest.mark.parametrize("name, rule, message", EXPECTED, ids=[e[0] for e in EXPECTED])
def test_each_attack_gets_its_own_clear_refusal(tmp_path, name, rule, message):
    result = validate(make_tree(tmp_path, name))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stdout.splitlines() if line.endswith(f"[{rule}]")]
    assert lines, result.stdout
    assert any(line.startswith(f"{attack_file(name)}:") and message in line for line in lines), lines


def test_an_empty_data_tree_is_an_error_not_a_pass(tmp_path):
    (tmp_path / "data" / "adapters").mkdir(parents=True)
    result = validate(tmp_path / "data")
    assert result.returncode == 1 and "no record files" in result.stderr


@pytest.mark.parametrize("file_name, record_id, advice", [
    ("Acme Box", "acme-box", "rename the file to `acme-box.yaml`"),
    ("acme-box", "Acme_Box", "set `id: acme-box`"),
])
def test_advice_for_a_mismatched_name_only_suggests_valid_ids(tmp_path, file_name, record_id, advice):
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    text = (HOSTILE / "bidi-in-name.yaml").read_text(encoding="utf-8")
    text = text.replace("id: bidi-in-name", f"id: {record_id}").replace("\u202e", "")
    (adapters / f"{file_name}.yaml").write_text(text, encoding="utf-8")
    result = validate(tmp_path / "data")
    (line,) = [line for line in result.stdout.splitlines() if line.endswith("[id-matches-filename]")]
    assert advice in line
    assert "set `id: Acme" not in line and "rename the file to `Acme" not in line
