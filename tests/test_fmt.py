"""`uasdb fmt`: canonical order, comments kept, data unchanged, idempotent."""
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import examples, run_uasdb
from uasdb.records.fmt import canonical_text
from uasdb.records.loader import load_text

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
    folder = tmp_path / "data" / "adapters"
    folder.mkdir(parents=True)
    target = folder / "acme.yaml"
    target.write_text(SCRAMBLED)
    result = run_uasdb("fmt", "--check", tmp_path / "data")
    assert result.returncode == 1 and "needs formatting" in result.stdout
    assert target.read_text() == SCRAMBLED
    result = run_uasdb("fmt", tmp_path / "data")
    assert result.returncode == 0 and target.read_text() != SCRAMBLED
    result = run_uasdb("fmt", "--check", tmp_path / "data")
    assert result.returncode == 0


# fmt must never change what a record says. Each case below used to: trailing blanks in a literal block were
# stripped, long plain values were re-wrapped (their runs of spaces collapsed), links were written through, a
# folder named *.yaml made a traceback, and an alias-heavy file kept ruamel busy for minutes.
BASE = "id: acme\nname: Acme\nkind: enclosure\ndrive_interface: sata\nreports:\n  - date: \"2021-01-01\"\n" \
       "    source:\n      url: https://example.org/a\n    host: pi4\n"


def same_data(raw: str) -> str:
    text = canonical_text(path(), raw.encode())
    assert load_text("a.yaml", text.encode()).data == load_text("a.yaml", raw.encode()).data
    return text


def test_trailing_blanks_inside_a_literal_block_are_kept():
    raw = BASE + "    evidence:\n      dmesg: |-\n        [ 1.0] usb 2-1: Product: X   \n        [ 1.1] scsi host0: uas\n"
    assert "Product: X   \n" in same_data(raw)


def test_a_long_plain_value_is_not_rewrapped():
    raw = BASE + "    notes: " + "word  with  double  spaces " * 300 + "end\n"
    assert len(same_data(raw).splitlines()) == len(raw.splitlines()) + 1  # only the schema comment is added


def run_fmt(*args, cwd):
    return run_uasdb("fmt", *args, cwd=cwd, timeout=60)


def test_fmt_never_writes_through_a_link_nor_trips_on_a_folder(tmp_path):
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    outside = tmp_path / "outside.yaml"
    outside.write_text(SCRAMBLED)
    (adapters / "acme.yaml").symlink_to(outside)
    (adapters / "folder.yaml").mkdir()
    result = run_fmt("data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "acme.yaml: not formatted: is a symbolic link" in result.stderr
    assert "folder.yaml: not formatted: is a folder" in result.stderr
    assert outside.read_text() == SCRAMBLED


def test_an_alias_heavy_file_is_refused_at_once():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"] * 10) + "]" for i in range(1, 9)]
    raw = ("\n".join(lines) + "\nid: acme\n").encode()
    import time
    started = time.perf_counter()
    assert canonical_text(path(), raw) is None
    assert time.perf_counter() - started < 2.0


def test_a_yaml_directive_is_removed_once_not_kept_under_a_second_schema_comment(tmp_path):
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    record = adapters / "acme.yaml"
    record.write_text("# yaml-language-server: $schema=../../schema/adapter.schema.json\n%YAML 1.1\n---\n"
                      + SCRAMBLED, encoding="utf-8")
    result = run_fmt("data", cwd=tmp_path)
    text = record.read_text(encoding="utf-8")
    assert result.returncode == 0, result.stderr
    assert "%YAML" not in text and "---" not in text and text.count("yaml-language-server") == 1
    assert load_text("x.yaml", text.encode()).data == load_text("x.yaml", SCRAMBLED.encode()).data


def test_a_merge_key_is_refused_for_what_it_is(tmp_path):
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    record = adapters / "acme.yaml"
    record.write_text(SCRAMBLED + "<<: {vendor: Acme}\n", encoding="utf-8")
    result = run_fmt("data", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "not formatted: line 13: `<<` is a YAML merge key" in result.stderr and "[yaml-merge-key]" in result.stderr
    assert "trailing blanks" not in result.stderr and record.read_text(encoding="utf-8").endswith("<<: {vendor: Acme}\n")


# Generated records: text with blanks, unicode, long lines, several lines and comments; fmt keeps the data.
PRINTABLE = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\ufeff\x85"),
                    min_size=1, max_size=120)
LINE = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\ufeff\x85"), max_size=200)


@settings(max_examples=examples(150), deadline=None)
@given(name=PRINTABLE, notes=st.lists(LINE, min_size=1, max_size=6), comment=st.booleans(), shuffle=st.randoms())
def test_formatting_never_changes_the_data(name, notes, comment, shuffle):
    import json
    block = "\n".join(("        " + line) if line.strip() else "" for line in notes).rstrip()
    fields = [f"name: {json.dumps(name, ensure_ascii=False)}", "kind: enclosure", "drive_interface: sata",
              "reports:\n  - date: \"2021-01-01\"\n    source:\n      url: https://example.org/a\n    host: pi4\n"
              + (f"    notes: |-\n{block}" if block.strip() else "    notes: x")]
    shuffle.shuffle(fields)
    raw = "id: acme\n" + ("# a comment\n" if comment else "") + "\n".join(fields) + "\n"
    before = load_text("a.yaml", raw.encode())
    if before.data is None:
        return
    text = canonical_text(path(), raw.encode())
    if text is not None:
        assert load_text("a.yaml", text.encode()).data == before.data


def test_the_cache_skips_only_files_it_saw_canonical_and_says_what_a_run_without_it_says(tmp_path, monkeypatch):
    """`fmt` (with the content cache, as make check runs it) parses a file again unless its exact bytes were found canonical before: an
    edit, a file made a link to a canonical one, or a stale or broken cache all give the full run's answer."""
    import uasdb.records.fmt as fmt
    adapters = tmp_path / "data" / "adapters"
    adapters.mkdir(parents=True)
    good, other = adapters / "acme.yaml", adapters / "other.yaml"
    good.write_text(canonical_text(path(), SCRAMBLED.encode()))
    other.write_text(canonical_text(path(), SCRAMBLED.replace("acme", "other").encode()))
    cache = tmp_path / "cache"
    monkeypatch.setenv("UASDB_CACHE_DIR", str(cache))
    monkeypatch.delenv("UASDB_CACHE", raising=False)
    formatted = []
    real = fmt.canonical_text
    monkeypatch.setattr(fmt, "canonical_text", lambda p, raw: formatted.append(p.name) or real(p, raw))
    first = run_fmt("--check", "data", cwd=tmp_path)
    assert (first.returncode, first.stdout, first.stderr) == (0, "", "") and formatted == ["acme.yaml", "other.yaml"]
    formatted.clear()
    again = run_fmt("--check", "data", cwd=tmp_path)
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "") and formatted == []
    # An edit out of the canonical layout is found, as without the cache.
    good.write_text(SCRAMBLED)
    edited = run_fmt("--check", "data", cwd=tmp_path)
    assert edited.returncode == 1 and "acme.yaml: needs formatting" in edited.stdout and formatted == ["acme.yaml"]
    plain = run_fmt("--check", "--no-cache", "data", cwd=tmp_path)
    assert (edited.returncode, edited.stdout, edited.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    # A link to a file the cache knows is canonical is still refused: records are plain files.
    good.unlink()
    good.symlink_to(other)
    linked = run_fmt("--check", "data", cwd=tmp_path)
    assert linked.returncode == 1 and "acme.yaml: not formatted: is a symbolic link" in linked.stderr
    good.unlink()
    good.write_text(canonical_text(path(), SCRAMBLED.encode()))
    # An entry of another shape, or damaged bytes, is not trusted: every file is formatted again.
    from uasdb.records.cache import store
    entry = fmt.CanonicalCache(store())
    for damage in ("shape", "bytes"):
        if damage == "shape":
            entry.store.put(entry.key, {"acme.yaml": True})
        else:
            for stored in cache.rglob("*"):
                if stored.is_file():
                    stored.write_bytes(b"not an entry")
        formatted.clear()
        result = run_fmt("--check", "data", cwd=tmp_path)
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
        assert formatted == ["acme.yaml", "other.yaml"]
    # --no-cache does not read it.
    formatted.clear()
    assert run_fmt("--check", "--no-cache", "data", cwd=tmp_path).returncode == 0
    assert formatted == ["acme.yaml", "other.yaml"]
