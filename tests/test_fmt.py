"""`uasdb fmt`: canonical order, comments kept, data unchanged, idempotent."""
from pathlib import Path

import yaml

from uasdb.fmt import canonical_text

SCRAMBLED = """# a comment before everything
reports:   # why these reports
  - source:
      url: https://example.org/a
    uas: works
    # the host line
    host: pi4
    date: "2021-01-01"
drive_interface: sata
kind: enclosure
name: Acme
id: acme
"""


def path(kind="adapters"):
    return Path(f"/x/data/{kind}/acme.yaml")


def test_keys_follow_schema_order_and_comments_stay():
    text = canonical_text(path(), SCRAMBLED.encode())
    lines = text.splitlines()
    assert lines[0] == "# yaml-language-server: $schema=../../schema/adapter.schema.json"
    assert lines[1] == "# a comment before everything"
    keys = [line.split(":")[0] for line in lines if line and not line.startswith((" ", "#"))]
    assert keys == ["id", "name", "kind", "drive_interface", "reports"]
    assert "reports:   # why these reports" in text
    report_keys = [line.strip().lstrip("- ").split(":")[0] for line in lines[lines.index("reports:   # why these reports") + 1:]
                   if line.startswith(("  - ", "    ")) and not line.strip().startswith("#") and not line.startswith("      ")]
    assert report_keys == ["date", "source", "host", "uas"]
    # Every comment survives; a full-line comment travels with the field above it (ruamel's model).
    assert "    # the host line" in text


def test_formatting_never_changes_data():
    formatted = canonical_text(path(), SCRAMBLED.encode())
    assert yaml.safe_load(formatted) == yaml.safe_load(SCRAMBLED)


def test_idempotent():
    once = canonical_text(path(), SCRAMBLED.encode())
    assert canonical_text(path(), once.encode()) == once


def test_fixes_bom_crlf_and_tab_indentation():
    raw = b"\xef\xbb\xbfid: acme\r\nname: Acme\r\nkind: enclosure\r\ndrive_interface: sata\r\nreports:\r\n\t- date: '2021-01-01'\r\n"
    text = canonical_text(path(), raw)
    assert "\r" not in text and "\t" not in text and not text.startswith("\ufeff")
    assert yaml.safe_load(text)["reports"] == [{"date": "2021-01-01"}]


def test_quotes_are_preserved():
    raw = b'id: acme\nname: Acme\nkind: enclosure\ndrive_interface: sata\nusb_ids:\n  - vid: "152d"\n    pid: \'0578\'\nreports: []\n'
    text = canonical_text(path(), raw)
    assert 'vid: "152d"' in text and "pid: '0578'" in text


def test_chipset_header():
    raw = b"name: JMS578\nid: jms578\n"
    text = canonical_text(path("chipsets"), raw)
    assert text.startswith("# yaml-language-server: $schema=../../schema/chipset.schema.json\nid: jms578\nname: JMS578\n")


def test_unparsable_is_left_alone():
    assert canonical_text(path(), b"id: [\n") is None
    assert canonical_text(path(), b"- a\n") is None


def test_check_mode_reports_and_changes_nothing(tmp_path):
    import subprocess, sys, os
    from helpers import REPO
    folder = tmp_path / "data" / "adapters"
    folder.mkdir(parents=True)
    target = folder / "acme.yaml"
    target.write_text(SCRAMBLED)
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts"))
    result = subprocess.run([sys.executable, "-m", "uasdb", "fmt", "--check", str(tmp_path / "data")], capture_output=True, text=True, env=env)
    assert result.returncode == 1 and "needs formatting" in result.stdout
    assert target.read_text() == SCRAMBLED
    result = subprocess.run([sys.executable, "-m", "uasdb", "fmt", str(tmp_path / "data")], capture_output=True, text=True, env=env)
    assert result.returncode == 0 and target.read_text() != SCRAMBLED
    result = subprocess.run([sys.executable, "-m", "uasdb", "fmt", "--check", str(tmp_path / "data")], capture_output=True, text=True, env=env)
    assert result.returncode == 0
