"""The `uasdb` command as a contributor meets it: output, exit status, no tracebacks. The commands run in-process
(helpers.run_uasdb); the golden run goes through the installed console script and `python -m uasdb`, so both
entry points are proven to start."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import REPO, adapter, run_uasdb, write_tree

FIXTURES = Path(__file__).parent / "fixtures"
ENV = {"UASDB_TODAY": "2026-11-21"}


def uasdb(*args, cwd=REPO, env_extra=None):
    return run_uasdb(*args, cwd=cwd, env={**ENV, **(env_extra or {})}, timeout=120)


def console_script(*args, cwd=REPO, module=False):
    """The command as people start it: the `uasdb` script the venv installed, or `python -m uasdb`."""
    env = dict(os.environ, **ENV, PYTHONPATH=str(REPO / "scripts"))
    script = [sys.executable, "-m", "uasdb"] if module else [str(Path(sys.executable).parent / "uasdb")]
    return subprocess.run([*script, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", [False, True], ids=["console-script", "python-m"])
def test_golden_output_over_every_broken_fixture(module):
    """Every kind of bad input in one run: whole output compared with the reviewed expectation."""
    result = console_script("validate", "data", cwd=FIXTURES / "invalid", module=module)
    expected = (FIXTURES / "invalid" / "expected-output.txt").read_text(encoding="utf-8")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stdout == expected


def test_every_broken_fixture_is_reported():
    """No bad file passes silently: each fixture file appears in the output at least once."""
    result = uasdb("validate", "data", cwd=FIXTURES / "invalid")
    for path in sorted((FIXTURES / "invalid" / "data" / "adapters").glob("*.yaml")):
        assert f"data/adapters/{path.name}:" in result.stdout, path.name


def test_clean_tree_exits_zero(tmp_path):
    data = write_tree(tmp_path, [adapter()])
    result = uasdb("validate", str(data))
    assert result.returncode == 0, result.stdout
    assert "1 records checked: 0 error(s)" in result.stderr or "2 records checked: 0 error(s)" in result.stderr


def test_warnings_alone_do_not_fail(tmp_path):
    data = write_tree(tmp_path, [adapter(), adapter(id="acme-box-2")])
    result = uasdb("validate", str(data))
    assert result.returncode == 0 and "(warning)" in result.stdout


def test_missing_path_is_a_clear_error(tmp_path):
    result = uasdb("validate", str(tmp_path / "data" / "adapters" / "nope.yaml"))
    assert result.returncode == 1 and "cannot read file" in result.stdout and "Traceback" not in result.stderr


def test_verdicts_for_unknown_id_is_a_clear_error():
    result = uasdb("verdicts", "no-such-adapter")
    assert result.returncode == 1 and "no adapter record: no-such-adapter" in result.stderr


def test_new_rejects_a_bad_usb_id():
    result = uasdb("new", "--usb", "152d-05780")
    assert result.returncode == 2 and "is not a USB ID" in result.stderr


def test_rules_lists_every_rule_with_severity_and_fixable_marker():
    result = uasdb("rules")
    assert result.returncode == 0
    lines = {line.split()[0]: line.split()[1:3] for line in result.stdout.splitlines()}
    assert lines["quirk-needs-flags"] == ["error", "record"] and lines["shared-usb-id"] == ["warning", "tree"]
    assert lines["yaml-anchor"] == ["error", "file"] and lines["waiver-matches-nothing"] == ["error", "waivers"]
    assert "schema-comment" in result.stdout and "(fixed by `uasdb fmt`)" in result.stdout


def test_every_file_under_data_is_read_or_refused(tmp_path):
    """A record validate would skip is a record nobody checks and the site never shows: each is an error."""
    data = write_tree(tmp_path, [adapter()])
    record = (data / "adapters" / "acme-box.yaml").read_text(encoding="utf-8")
    for name in ("adapters/Acme-Box.YAML", "adapters/acme-box.yml", "adapters/acme-box.yaml~", "adapters/old/acme-box.yaml",
                 "adapters/README.md", "adapters/old/README.md", "chipsets/.DS_Store", "acme-box.yaml"):
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_text(record, encoding="utf-8")
    result = uasdb("validate", str(data))
    refused = sorted(line.split(":")[0] for line in result.stdout.splitlines() if line.endswith("[file-location]"))
    assert result.returncode == 1 and refused == sorted(f"{data}/{name}" for name in (
        "adapters/Acme-Box.YAML", "adapters/acme-box.yml", "adapters/acme-box.yaml~", "adapters/old/acme-box.yaml",
        "adapters/README.md", "adapters/old/README.md", "chipsets/.DS_Store", "acme-box.yaml")), result.stdout
    assert "rename it to `acme-box.yaml`" in result.stdout and "move it to data/adapters/acme-box.yaml" in result.stdout


def test_files_other_commands_read_and_open_editors_scratch_files_are_not_refused(tmp_path):
    data = write_tree(tmp_path, [adapter()])
    for name in ("README.md", "waivers.yaml", "removed.yaml", "kernel/linux-6.12.yaml", "linuxhw/README-snapshot.md",
                 "adapters/.acme-box.yaml.swp", "adapters/.#acme-box.yaml"):
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_text("[]\n" if name.endswith("removed.yaml") else "# x\n", encoding="utf-8")
    result = uasdb("validate", str(data))
    assert "[file-location]" not in result.stdout, result.stdout
