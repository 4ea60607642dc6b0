"""`uasdb from-issue` on recorded issue bodies (tests/fixtures/issues/), good and malformed."""
from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest

from uasdb.cli import main
from uasdb.ingest import issue as issue_mod
from uasdb.records import fmt as fmt_mod
from uasdb.records.database import check
from uasdb.records.loader import load_text

HERE = Path(__file__).resolve().parent
ISSUES = HERE / "fixtures" / "issues"
REPO = HERE.parent
SCHEMA = json.loads((REPO / "schema" / "adapter.schema.json").read_text(encoding="utf-8"))
DATE = datetime.date(2026, 11, 21)

ACME = """# yaml-language-server: $schema=../../schema/adapter.schema.json
id: acme-box
name: Acme Box USB 3.0 SATA enclosure
kind: enclosure
drive_interface: sata
usb_ids:
  - vid: "152d"
    pid: "0578"
# a comment the contributor wrote, which must survive
reports:
  - date: "2021-03-04"
    source:
      url: https://example.org/thread/1
    host: pi4
    driver: uas
    uas: works
"""


@pytest.fixture
def data_dir(tmp_path):
    (tmp_path / "adapters").mkdir()
    (tmp_path / "chipsets").mkdir()
    (tmp_path / "adapters" / "acme-box.yaml").write_text(ACME, encoding="utf-8")
    return tmp_path


def body(name: str) -> str:
    return (ISSUES / name).read_text(encoding="utf-8")


def outcome(name: str, data_dir: Path, author: str = "octocat"):
    return issue_mod.from_issue(body(name), f"tests/fixtures/issues/{name}", author, DATE, data_dir)


def errors_of(name: str, data_dir: Path, author: str = "octocat"):
    with pytest.raises(issue_mod.IssueError) as caught:
        outcome(name, data_dir, author)
    return [p.render() for p in caught.value.problems]


def test_new_adapter_from_probe_output_is_a_valid_record(data_dir, tmp_path):
    result = outcome("new-adapter-with-probe.md", data_dir)
    assert result.target.new and result.target.adapter_id == "acme-ab-100"
    assert result.target.notes == ["152d:0578 is also listed for acme-box."]
    loaded = load_text("acme-ab-100.yaml", result.text.encode())
    assert loaded.problems == []
    record = loaded.data
    assert (record["kind"], record["drive_interface"], record["usb_ids"]) == ("enclosure", "sata", [{"vid": "152d", "pid": "0578"}])
    (report,) = record["reports"]
    # The probe's facts ...
    assert (report["link_speed"], report["driver"], report["bcd_device"], report["kernel"]) == ("5000M", "uas", "0100", "6.6.51+rpt-rpi-v8")
    assert "scsi host2: uas" in report["evidence"]["dmesg"]
    # ... the issue's author instead of the probe's placeholder, and the person's answers.
    assert report["source"] == {"tested_by": "octocat"}
    assert (report["uas"], report["boot"], report["stability"], report["connection"]) == ("works", "works", "stable", "direct")
    assert report["drive"] == {"model": "WD Red 4TB", "type": "sata-hdd"}
    assert report["notes"].startswith("Copied 200 GB onto it")
    assert report["date"] == "2026-11-20"  # the probe's date: the day of the test


def test_report_added_to_an_existing_record_keeps_its_comments(data_dir):
    result = outcome("report-for-existing-adapter.md", data_dir)
    assert not result.target.new and result.target.adapter_id == "acme-box"
    assert result.text.startswith(ACME)  # nothing above the new report changed
    assert "# a comment the contributor wrote, which must survive" in result.text
    report = load_text("acme-box.yaml", result.text.encode()).data["reports"][1]
    assert (report["uas"], report["stability"], report["blamed_on"], report["connection"]) == \
        ("broken", "disconnects", "power", "unpowered-hub")
    assert report["evidence"]["lsusb_t"].endswith("Driver=uas, 5000M")
    assert report["date"] == "2026-11-21" and report["usb_id"] == "152d:0578"


def test_public_source_report_cites_the_url_not_the_author(data_dir):
    result = outcome("public-source.md", data_dir, author=None)
    report = load_text("acme-box.yaml", result.text.encode()).data["reports"][1]
    assert report["source"] == {"url": "https://github.com/raspberrypi/linux/issues/3070"}
    assert (report["uas"], report["quirks"]) == ("works-with-quirk", "u")


def test_cli_writes_the_file_and_a_pull_request_summary(data_dir, tmp_path, capsys):
    summary = tmp_path / "summary.md"
    code = main(["from-issue", str(ISSUES / "report-for-existing-adapter.md"), "--author", "octocat", "--date", "2026-11-21",
                 "--data", str(data_dir), "--write", "--issue", "42", "--summary", str(summary)])
    assert code == 0
    assert "added a report to" in capsys.readouterr().out
    assert check([data_dir / "adapters"], today=DATE).errors == []
    text = summary.read_text(encoding="utf-8")
    assert "New report for `acme-box` (152d:0578) from #42." in text and "Closes #42" in text


def test_single_matching_usb_id_without_a_name_goes_to_that_record(data_dir):
    text = body("report-for-existing-adapter.md").replace("https://uasdb.github.io/adapters/acme-box/", "_No response_")
    result = issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    assert result.target.adapter_id == "acme-box"
    assert "a reviewer should check that it is the same product" in result.target.notes[0]


def test_issue_from_stdin(data_dir, capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(body("new-adapter-with-probe.md")))
    assert main(["from-issue", "-", "--author", "octocat", "--data", str(data_dir)]) == 0
    assert capsys.readouterr().out.startswith("# yaml-language-server: $schema=../../schema/adapter.schema.json\nid: acme-ab-100\n")


MALFORMED = {
    "malformed-not-a-form.md": [
        "tests/fixtures/issues/malformed-not-a-form.md:1:1: issue body: no section of the adapter-report form found — "
        "open the issue from the 'Adapter report' form, or keep its `### ` headings [issue-not-a-form]"],
    "malformed-missing-usb-id.md": [
        "tests/fixtures/issues/malformed-missing-usb-id.md:1:1: USB ID: the section `### USB ID` is missing — "
        "edit the issue and put the heading back with an answer under it [issue-missing-section]"],
    "malformed-bad-usb-id.md": [
        "tests/fixtures/issues/malformed-bad-usb-id.md:1:1: USB ID: `JMicron bridge` is not one USB ID in the form vid:pid — "
        "copy the `ID vid:pid` part of the `lsusb` line, e.g. 152d:0578 [issue-usb-id]"],
    "malformed-probe-cut-short.md": [
        "tests/fixtures/issues/malformed-probe-cut-short.md:5:1: Probe output: the probe output has no "
        "`# ---- uasdb report for …` block — paste the probe's whole output, from its first line to the last [issue-probe-output]"],
    "malformed-edited-choice.md": [
        "tests/fixtures/issues/malformed-edited-choice.md:131:1: Computer: `Raspberry Pi 4` is not one of the form's choices — "
        "pick one of: pi4, pi400, cm4, pi5, pi500, cm5, pi3, pi3b-plus, pi-zero-2, pi-older, pi-unknown, linux-x86_64, linux-arm64, "
        "linux-armhf, macos, windows [issue-choice]"],
    "malformed-new-adapter-without-kind.md": [
        "tests/fixtures/issues/malformed-new-adapter-without-kind.md:123:1: Kind of product: a new adapter needs the kind "
        "of product — fill it in, or name an existing adapter in `Adapter in uasdb` [issue-new-adapter]",
        "tests/fixtures/issues/malformed-new-adapter-without-kind.md:127:1: Drive interface: a new adapter needs the drive "
        "interface — fill it in, or name an existing adapter in `Adapter in uasdb` [issue-new-adapter]"],
    "malformed-no-evidence.md": [
        "tests/fixtures/issues/malformed-no-evidence.md:5:1: Probe output: a test done for the database needs evidence — "
        "paste the probe output, or `lsusb -t` output in its section [issue-evidence]"],
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_issue_gets_clear_errors(name, data_dir):
    assert errors_of(name, data_dir) == MALFORMED[name]


def test_every_recorded_issue_is_covered():
    assert {p.name for p in ISSUES.glob("malformed-*.md")} == set(MALFORMED)


def test_malformed_issue_on_the_cli_writes_nothing(data_dir, capsys):
    before = sorted(p.name for p in (data_dir / "adapters").iterdir())
    code = main(["from-issue", str(ISSUES / "malformed-new-adapter-without-kind.md"), "--author", "octocat",
                 "--data", str(data_dir), "--write"])
    out, err = capsys.readouterr()
    assert code == 1 and "[issue-new-adapter]" in out and "nothing was written" in err and "Traceback" not in out + err
    assert sorted(p.name for p in (data_dir / "adapters").iterdir()) == before


def test_unknown_adapter_named(data_dir):
    text = body("report-for-existing-adapter.md").replace("adapters/acme-box/", "adapters/no-such-thing/")
    with pytest.raises(issue_mod.IssueError) as caught:
        issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    assert "there is no adapter `no-such-thing` in the database" in caught.value.problems[0].message


def test_missing_author_for_a_tested_report(data_dir):
    assert any("[issue-author]" in e for e in errors_of("new-adapter-with-probe.md", data_dir, author=None))


def test_record_problems_found_by_the_rules_are_reported_not_written(data_dir):
    # `boot: works-with-workaround` without saying which: the rule catches it on the built record.
    text = body("report-for-existing-adapter.md").replace(
        "### Booting from it\n\n_No response_", "### Booting from it\n\nworks-with-workaround — boots after a change (say which below)")
    with pytest.raises(issue_mod.IssueError) as caught:
        issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    assert [p.rule for p in caught.value.problems] == ["workaround-needs-boot"]


def test_unreadable_issue_file(capsys, tmp_path):
    assert main(["from-issue", str(tmp_path / "missing.md")]) == 2
    assert "cannot read the issue body" in capsys.readouterr().err


# --- the form and the schema must not drift apart --------------------------------------------------

def _enum(*path):
    node = SCHEMA
    for part in path:
        node = node["items"] if part == "items" else node["properties"][part]
    return node["enum"]


@pytest.mark.parametrize("field_id, schema_path", [
    ("kind", ("kind",)), ("drive_interface", ("drive_interface",)),
    ("host", ("reports", "items", "host")), ("connection", ("reports", "items", "connection")),
    ("uas", ("reports", "items", "uas")), ("boot", ("reports", "items", "boot")),
    ("stability", ("reports", "items", "stability")), ("blamed_on", ("reports", "items", "blamed_on")),
    ("trim", ("reports", "items", "trim")), ("smart", ("reports", "items", "smart")),
    ("drive_type", ("reports", "items", "drive", "type")),
])
def test_form_dropdowns_offer_exactly_the_schema_values(field_id, schema_path):
    assert issue_mod.form_fields()[field_id]["options"] == _enum(*schema_path)


def test_every_form_field_is_read_by_from_issue():
    source = (REPO / "scripts" / "uasdb" / "ingest" / "issue.py").read_text(encoding="utf-8")
    unread = [f for f in issue_mod.form_fields() if f"\"{f}\"" not in source and f != "consent"]
    assert unread == []


def test_fixture_issue_bodies_use_the_forms_labels():
    labels = {spec["label"] for spec in issue_mod.form_fields().values()}
    for path in ISSUES.glob("*.md"):
        if path.name == "malformed-not-a-form.md":
            continue
        headings = {line[4:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("### ")}
        assert headings <= labels, (path.name, headings - labels)


def test_fresh_probe_output_pasted_into_the_form_becomes_a_report(data_dir, capsys):
    """End to end: the probe's output today, pasted into the form, added to the matching record."""
    from uasdb import probe
    trees = HERE / "fixtures" / "probe"
    assert probe.main(["--root", str(trees / "trees" / "pi4-user-quirk"), "--date", "2026-11-19", "--data", str(data_dir)]) == 0
    output = capsys.readouterr().out
    assert "152d:0578 is in uasdb: acme-box" in output
    text = body("report-for-existing-adapter.md").replace("### Probe output\n\n_No response_",
                                                            "### Probe output\n\n```text\n" + output + "```")
    text = text.replace("broken — fails even with quirks", "works-with-quirk — only usable with a usb-storage.quirks entry")
    text = text.replace("disconnects — the drive dropped off", "stable — no errors in dmesg during sustained use")
    text = text.replace("power — not enough power (under-voltage, bus-powered hard disk)", "_No response_")
    text = text.replace("Class=Mass Storage, Driver=uas", "Class=Mass Storage, Driver=usb-storage")  # as with the quirk on
    result = issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    report = load_text("acme-box.yaml", result.text.encode()).data["reports"][1]
    assert (report["date"], report["source"], report["uas"], report["quirks"]) == \
        ("2026-11-19", {"tested_by": "octocat"}, "works-with-quirk", "u")
    assert "cmdline usb-storage.quirks=152d:0578:u" in report["evidence"]["probe"]


def test_adapter_named_by_its_id(data_dir):
    text = body("report-for-existing-adapter.md").replace("https://uasdb.github.io/adapters/acme-box/", "acme-box")
    assert issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir).target.adapter_id == "acme-box"


# Attacks through the form. Each answer is text to the tools; none may become structure, and a probe block the
# loader finds fault with is refused with the reason, never half-read.
FORGED_NOTES = ("Copied 200 GB onto it.\u2028  - date: \"2026-01-01\"\u2028    source:\u2028      tested_by: someone-else"
                "\u2028    host: pi4\u2028    uas: broken")


def test_a_line_separator_in_an_answer_cannot_forge_a_second_report(data_dir):
    text = body("new-adapter-with-probe.md").replace(
        "Copied 200 GB onto it over a day from the lower blue USB 3 port with the official 15 W supply, then booted from it twice.",
        FORGED_NOTES)
    with pytest.raises(issue_mod.IssueError) as caught:
        issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    (problem,) = caught.value.problems
    assert problem.rule == "issue-text" and "U+2028" in problem.message and problem.field == ("How did you test?",)


@pytest.mark.parametrize("change, message", [
    (("  os: \"Raspberry Pi OS, Debian GNU/Linux 12 (bookworm)\"", "  os: ~"), "leaves `os` without a value"),
    (("  host: pi4\n", "  host: pi4\n  host: pi5\n"), "duplicate key `host`"),
    (("# ---- end of uasdb report ----", "# ---- end of uasdb report ----\n# ---- uasdb report for 152d:0578 ----\n- date: \"2026-11-21\"\n# ---- end of uasdb report ----"),
     "two report blocks for 152d:0578"),
])
def test_problems_in_the_probe_block_are_errors_not_silent_guesses(data_dir, change, message):
    text = body("new-adapter-with-probe.md").replace(*change, 1)
    assert text != body("new-adapter-with-probe.md")
    with pytest.raises(issue_mod.IssueError) as caught:
        issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    assert any(p.rule == "issue-probe-output" and message in p.message for p in caught.value.problems), \
        [p.render() for p in caught.value.problems]


def test_the_written_record_reads_back_as_exactly_what_the_issue_said(data_dir):
    result = outcome("new-adapter-with-probe.md", data_dir)
    (report,) = load_text("x.yaml", result.text.encode()).data["reports"]
    assert report == issue_mod._as_written(result.report)


def test_the_bot_comment_fence_outlasts_any_backticks_in_the_answers():
    problems_text = "issue:3:1: How did you test?: ```` breaks out ``` of a fence [issue-text]\n"
    comment = issue_mod.comment_markdown(problems_text)
    fence = comment.split("\n")[2]
    assert set(fence) == {"`"} and len(fence) == 5
    assert comment.count(fence) == 2 and problems_text.strip() in comment


def test_a_long_line_of_blanks_in_the_body_is_read_in_linear_time():
    """`### a` followed by 65,000 blanks took 15 s under a backtracking pattern."""
    import time
    started = time.perf_counter()
    parsed = issue_mod.parse_issue(body("new-adapter-with-probe.md") + "\n### a" + " " * 65_000 + "b\n")
    assert time.perf_counter() - started < 2.0
    assert parsed.value("usb_id")


@pytest.mark.parametrize("notes", ["yes", "0578", "2026-01-01", "- date: x", "#not a comment", "a: b", "off ", "'quoted'"])
def test_answers_that_look_like_yaml_are_written_as_text_in_fmts_layout(data_dir, notes):
    text = body("new-adapter-with-probe.md").replace(
        "Copied 200 GB onto it over a day from the lower blue USB 3 port with the official 15 W supply, then booted from it twice.",
        notes)
    result = issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    loaded = load_text("data/adapters/acme-ab-100.yaml", result.text.encode())
    assert loaded.problems == []
    assert loaded.data["reports"][0]["notes"] == notes.strip()
    # Written by the emitter `uasdb fmt` uses: formatting the result changes nothing.
    assert fmt_mod.canonical_text(Path("data/adapters/acme-ab-100.yaml"), result.text.encode()) == result.text


# Third hostile pass: answers that looked right to a reader and meant something else to the bot.
def _refused(text, data_dir):
    with pytest.raises(issue_mod.IssueError) as caught:
        issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir)
    return caught.value.problems


def test_an_invisible_character_in_an_answer_is_named(data_dir):
    text = body("new-adapter-with-probe.md").replace("WD Red 4TB", "WD\u200c Red 4TB")
    (problem,) = _refused(text, data_dir)
    assert problem.rule == "issue-text" and problem.field == ("Drive",)
    assert "U+200C ZERO WIDTH NON-JOINER" in problem.message


def test_a_heading_typed_inside_an_answer_cannot_replace_the_real_answer(data_dir):
    text = body("new-adapter-with-probe.md").replace(
        "then booted from it twice.", "then booted from it twice.\n\n### Drive\n\nSamsung 870 EVO")
    (problem,) = _refused(text, data_dir)
    assert problem.rule == "issue-duplicate-section" and problem.field == ("Drive",)
    assert "appears twice (lines" in problem.message and problem.line > 100


def with_dmesg(*ids):
    """The report for 152d:0578 with dmesg lines in which devices with these IDs appear."""
    lines = "".join(f"[  5.{n}] usb 2-{n}: New USB device found, idVendor={vid}, idProduct={pid}, bcdDevice= 1.00\n"
                    for n, (vid, pid) in enumerate(i.split(":") for i in ids)) + "[  5.9] scsi host0: uas"
    return body("report-for-existing-adapter.md").replace("[ 812.403112] usb 2-1: USB disconnect, device number 2", lines)


def test_dmesg_for_another_adapter_is_refused(data_dir):
    problems = _refused(with_dmesg("174c:55aa"), data_dir)
    assert [(p.rule, p.field) for p in problems] == [("issue-evidence-usb-id", ("dmesg lines",))]
    assert "shows 174c:55aa, not 152d:0578" in problems[0].message


def test_dmesg_that_also_shows_other_devices_is_fine(data_dir):
    written = issue_mod.from_issue(with_dmesg("2109:3431", "152d:0578"), "issue", "octocat", DATE, data_dir).text
    assert "idVendor=2109, idProduct=3431" in written and "idVendor=152d, idProduct=0578" in written


@pytest.mark.parametrize("address, message", [
    ("https://evil.example/adapters/acme-box/", "is on `evil.example`, not on `uasdb.github.io`"),
    ("https://uasdb.github.io@evil.example/adapters/acme-box/", "leads to `evil.example`"),
    ("http://uasdb.github.io/adapters/acme-box/", "is not an https link"),
    ("//evil.example/adapters/acme-box/", "is not an https link"),
    ("https://uasdb.github.io/evil/adapters/acme-box/", "is not an adapter page"),
])
def test_only_the_sites_own_address_names_an_adapter(data_dir, address, message):
    text = body("report-for-existing-adapter.md").replace("https://uasdb.github.io/adapters/acme-box/", address)
    (problem,) = _refused(text, data_dir)
    assert problem.rule == "issue-adapter" and message in problem.message, problem.render()


def test_the_sites_own_address_with_a_report_anchor_names_the_adapter(data_dir):
    text = body("report-for-existing-adapter.md").replace("https://uasdb.github.io/adapters/acme-box/",
                                                          "https://uasdb.github.io/adapters/acme-box/#report-1")
    assert issue_mod.from_issue(text, "issue", "octocat", DATE, data_dir).target.adapter_id == "acme-box"


@pytest.mark.parametrize("link, message", [
    ("https://github.com@evil.example/raspberrypi/linux/issues/3070", "leads to `evil.example`"),
    ("https://github.com\\@evil.example/", "holds a backslash"),
    ("https://github.com/a https://evil.example/b", "is not one link"),
])
def test_a_source_link_gets_the_check_records_get(data_dir, link, message):
    text = body("public-source.md").replace("https://github.com/raspberrypi/linux/issues/3070", link)
    problems = _refused(text, data_dir)
    assert any(p.rule == "issue-source" and message in p.message for p in problems), [p.render() for p in problems]


def test_merge_conflict_markers_in_an_answer_are_refused(data_dir):
    text = body("new-adapter-with-probe.md").replace(
        "then booted from it twice.", "then booted from it twice.\n<<<<<<< HEAD\nBoots.\n=======\nDoes not boot.\n>>>>>>> x")
    problems = _refused(text, data_dir)
    assert [(p.rule, p.field) for p in problems] == [("issue-text", ("How did you test?",))]
    assert "merge-conflict marker line `<<<<<<< HEAD`" in problems[0].message


def test_repeated_quirk_letters_in_an_answer_are_refused(data_dir):
    text = body("report-for-existing-adapter.md")
    start = text.index("### Quirk flags\n\n") + len("### Quirk flags\n\n")
    text = text[:start] + "uuu" + text[text.index("\n", start):]
    problems = _refused(text, data_dir)
    assert any(p.rule == "issue-quirks" and "u 3 times" in p.message for p in problems), [p.render() for p in problems]
