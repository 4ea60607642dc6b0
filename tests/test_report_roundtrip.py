"""From the probe to a filled report in one click: the probe prints a link per adapter that opens the report form
with its report filled in, and the issue bot reads that form exactly as it reads one filled in by hand.

GitHub fills an issue form from the address: `template=` picks the form, `title=` and `labels=` set the issue's,
and every other parameter whose name is a field id fills that field. On submit, GitHub writes the body as one
`### <label>` section per field (textareas with `render:` in a code fence, empty answers as `_No response_`,
lines ending in CRLF as a browser sends them). github_body() writes that body; the bot (uasdb.ingest.issue)
reads it.
"""
from __future__ import annotations

import datetime
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from uasdb import probe
from uasdb.ingest import issue as issue_mod
from uasdb.ingest.issueform import run_probe_form
from uasdb.probe import cli as probe_cli
from uasdb.probe.formlink import LINK_LIMIT, form_query
from uasdb.publish.report_link import FORM_PATH, report_form, report_query

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
PROBE_FIXTURES = HERE / "fixtures" / "probe"
TREES = PROBE_FIXTURES / "trees"
COMMANDS = PROBE_FIXTURES / "commands"
DATE = datetime.date(2026, 11, 21)
FORM = yaml.safe_load(FORM_PATH.read_text(encoding="utf-8"))
FIELD_IDS = [item["id"] for item in FORM["body"] if "id" in item]
# The probe fixture trees with a USB storage device in them (no-storage and unplugged have none), each with the
# command output replayed for it, and the pairing made to be too long for a link (fixtures/probe/README.md).
RUNS = {name: (name, name if (COMMANDS / name).is_dir() else None)
        for name in sorted(p.name for p in TREES.iterdir()) if name not in ("no-storage", "unplugged")}
LONG = ("pi4-uas", "pi4-uas-long-dmesg")


def run_probe(capsys, tree: str, commands: str | None, data: Path, *extra: str) -> str:
    args = ["--root", str(TREES / tree), "--handle", "octocat", "--date", DATE.isoformat(), "--data", str(data), *extra]
    if commands:
        args += ["--captured", str(COMMANDS / commands)]
    assert probe.main(args) == 0
    return capsys.readouterr().out


def links_in(output: str) -> list[str]:
    """The lines a terminal offers to open: each link stands alone on its line."""
    return [line for line in output.splitlines() if line.startswith("https://")]


def filled_form(url: str) -> dict[str, str]:
    """What GitHub does with the address: the query's parameters, decoded, by name."""
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "github.com", "/uasdb/uasdb/issues/new"), url
    query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=True)
    assert all(len(values) == 1 for values in query.values()), query
    return {name: values[0] for name, values in query.items()}


def option(field_id: str, value: str) -> str:
    """The dropdown option a person picks, as GitHub writes it (`pi4 — Raspberry Pi 4 (Model B)`)."""
    item = next(i for i in FORM["body"] if i.get("id") == field_id)
    return next(o for o in item["attributes"]["options"] if issue_mod.option_value(o) == value)


def github_body(values: dict[str, str]) -> str:
    """The issue body GitHub writes from a submitted form holding `values` (field id -> answer)."""
    sections = []
    for item in FORM["body"]:
        if item["type"] == "markdown":
            continue
        attributes = item["attributes"]
        value = values.get(item["id"])
        if item["type"] == "checkboxes":
            text = "\n".join(f"- [{'X' if value else ' '}] {o['label']}" for o in attributes["options"])
        elif not value:
            text = "_No response_"
        elif attributes.get("render"):
            text = f"```{attributes['render']}\n{value}\n```"
        else:
            text = value
        sections.append(f"### {attributes['label']}\n\n{text}")
    return ("\n\n".join(sections) + "\n").replace("\n", "\r\n")


def answers(host: str, new: bool) -> dict[str, str]:
    """What the person adds in the form either way: what the probe cannot know."""
    values = {"host": option("host", host), "how_tested": "Copied 50 GB onto it and read it back; no errors.",
              "consent": "yes"}
    if new:
        values.update({"name": "Acme AB-100 USB 3.0 SATA enclosure", "kind": option("kind", "enclosure"),
                       "drive_interface": option("drive_interface", "sata")})
    return values


@pytest.fixture
def empty_data(tmp_path):
    """A database without the fixtures' USB ID: the probe offers a new adapter file and one link."""
    (tmp_path / "adapters").mkdir()
    (tmp_path / "chipsets").symlink_to(DATA / "chipsets", target_is_directory=True)
    return tmp_path


def host_of(output: str) -> str:
    return re.search(r"^    host: (\S+)$", output, re.M).group(1)


# ---------------------------------------------------------------------------------------------------------------
# The round trip: link -> filled form -> bot, against the same output pasted by hand.
# ---------------------------------------------------------------------------------------------------------------

@pytest.mark.slow  # 16 issue bodies through the bot per run, 1.7 s of CPU each run: 7 s of the fast lane's 30
@pytest.mark.parametrize("run", sorted(RUNS))
def test_each_link_gives_the_bot_the_record_a_hand_pasted_form_gives(capsys, run):
    tree, commands = RUNS[run]
    output = run_probe(capsys, tree, commands, DATA)
    links = links_in(output)
    known = re.findall(r"^# 152d:0578 is in uasdb: (\S+) ", output, re.M)
    assert known and len(links) == len(known) + 1  # one per record sharing the ID, one for a product not in uasdb
    for url in links:
        assert len(url) <= LINK_LIMIT
        form = filled_form(url)
        assert set(form) <= {"template", "labels", "title", *FIELD_IDS}
        assert (form["template"], form["labels"], form["usb_id"]) == (FORM_PATH.name, ",".join(FORM["labels"]), "152d:0578")
        adapter = form.get("adapter")
        assert adapter in known or adapter is None
        new = adapter is None
        person = answers(host_of(output), new)
        data = DATA
        if new:  # a product not in uasdb: the bot makes a new record from the form's name, kind and interface
            person["adapter"] = ""
        by_link = issue_mod.from_issue(github_body({**form, **person}), "issue", "octocat", DATE, data)
        by_hand = issue_mod.from_issue(github_body({"usb_id": "152d:0578", "adapter": adapter or "", "probe": output,
                                                    **person}), "issue", "octocat", DATE, data)
        assert (by_link.target.path, by_link.text) == (by_hand.target.path, by_hand.text), url
        assert by_link.report["evidence"]["probe"].startswith("uasdb probe 1")


@pytest.mark.parametrize("run", sorted(RUNS))
def test_a_new_usb_id_gets_one_link_and_the_bot_makes_the_same_new_record(capsys, empty_data, run):
    tree, commands = RUNS[run]
    output = run_probe(capsys, tree, commands, empty_data)
    (url,) = links_in(output)
    form = filled_form(url)
    assert "adapter" not in form and form["title"] == "Report: 152d:0578"
    # The new adapter file repeats the report, so it is the first thing left out when the two do not fit.
    assert ("# ---- new adapter file" in form["probe"]) != ("left out of the link" in output)
    person = answers(host_of(output), new=True)
    by_link = issue_mod.from_issue(github_body({**form, **person}), "issue", "octocat", DATE, empty_data)
    by_hand = issue_mod.from_issue(github_body({"usb_id": "152d:0578", "probe": output, **person}), "issue", "octocat",
                                   DATE, empty_data)
    assert by_link.target.new and (by_link.target.path, by_link.text) == (by_hand.target.path, by_hand.text)


def test_the_links_box_is_the_adapters_part_of_the_output(capsys, empty_data):
    """The box holds what was printed for that adapter (its report block byte for byte), not the links or other
    adapters' reports."""
    output = run_probe(capsys, "pi4-uas", "pi4-uas", empty_data)
    box = filled_form(links_in(output)[0])["probe"]
    block = output[output.index("# ---- uasdb report for"):output.index("# ---- end of uasdb report ----\n") + 31]
    assert block in box and "https://" not in box.replace("https://uasdb.github.io", "")
    assert box.startswith("# uasdb probe 1: the report for 152d:0578, filled in by the probe's link")


def test_what_the_bot_does_not_need_is_left_out_first_and_said(capsys, monkeypatch, empty_data):
    """Under a tighter limit the new adapter file goes first, then the summary; the report block never does."""
    full = run_probe(capsys, "pi4-uas", "pi4-uas", empty_data)
    limit = len(links_in(full)[0]) - 1
    block = full[full.index("# ---- uasdb report for"):full.index("# ---- end of uasdb report ----\n") + 31]
    for left_out, kept in (("the list of records and the new adapter file", "# host: "), ("the summary", None)):
        monkeypatch.setattr(probe_cli, "LINK_LIMIT", limit)
        output = run_probe(capsys, "pi4-uas", "pi4-uas", empty_data)
        (url,) = links_in(output)
        box = filled_form(url)["probe"]
        assert len(url) <= limit and block in box and "# ---- new adapter file" not in box
        assert f"(left out of the link, as the form does not need it: {left_out}" in output
        if kept:
            assert kept in box
        person = answers("pi4", new=True)
        by_link = issue_mod.from_issue(github_body({**filled_form(url), **person}), "issue", "octocat", DATE, empty_data)
        by_hand = issue_mod.from_issue(github_body({"usb_id": "152d:0578", "probe": full, **person}), "issue",
                                       "octocat", DATE, empty_data)
        assert by_link.text == by_hand.text
        limit = len(url) - 1  # the next round: tighter still


# ---------------------------------------------------------------------------------------------------------------
# The limit, and the fallback to paste.
# ---------------------------------------------------------------------------------------------------------------

def test_a_long_dmesg_falls_back_to_paste_and_says_so(capsys):
    output = run_probe(capsys, *LONG, DATA)
    assert "# ---- uasdb report for 152d:0578 ----" in output  # the report itself is printed whole
    links = links_in(output)
    assert links and all(len(url) <= LINK_LIMIT and "probe" not in filled_form(url) for url in links)
    said = re.search(r"^# The report for 152d:0578 is too long for a link \(([\d,]+) characters; GitHub refuses "
                     r"addresses over 8,000\), so paste it:$", output, re.M)
    assert said and int(said.group(1).replace(",", "")) > LINK_LIMIT
    assert '"Probe output" box' in output
    # The short link still names the record, so the pasted report lands where the person means.
    assert {filled_form(url).get("adapter") for url in links} >= {"orico-2139u3", None}


def test_no_fixture_link_exceeds_the_limit(capsys, empty_data):
    lengths = []
    for tree, commands in [*RUNS.values(), LONG]:
        for data in (DATA, empty_data):
            lengths += [len(url) for url in links_in(run_probe(capsys, tree, commands, data))]
    assert lengths and max(lengths) <= LINK_LIMIT


# ---------------------------------------------------------------------------------------------------------------
# --open, and what the output says first.
# ---------------------------------------------------------------------------------------------------------------

def test_the_first_lines_say_open_the_link_below(capsys, empty_data):
    output = run_probe(capsys, "pi4-uas", "pi4-uas", empty_data)
    assert output.splitlines()[0].startswith("# uasdb probe 1: open the link below for your adapter.")
    assert "paste everything" not in output.lower()


@pytest.mark.parametrize("env, opened, said", [
    ({"DISPLAY": ":0"}, 1, ""),
    ({"WAYLAND_DISPLAY": "wayland-0"}, 1, ""),
    ({}, 0, "no desktop here (no DISPLAY or WAYLAND_DISPLAY); open the link printed above"),
])
def test_open_starts_the_browser_only_where_a_desktop_is(capsys, monkeypatch, empty_data, env, opened, said):
    monkeypatch.setattr(probe_cli.sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    calls = []
    monkeypatch.setattr(probe_cli.webbrowser, "open", lambda url: calls.append(url) or True)
    args = ["--root", str(TREES / "pi4-uas"), "--captured", str(COMMANDS / "pi4-uas"), "--date", DATE.isoformat(),
            "--data", str(empty_data), "--open"]
    assert probe.main(args) == 0
    out, err = capsys.readouterr()
    assert calls == links_in(out)[:opened]
    assert said in err
    assert links_in(out)  # the link stands on its own line either way


def test_open_does_not_guess_between_records_sharing_the_id(capsys, monkeypatch):
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(probe_cli.sys, "platform", "linux")
    calls = []
    monkeypatch.setattr(probe_cli.webbrowser, "open", lambda url: calls.append(url) or True)
    args = ["--root", str(TREES / "pi4-uas"), "--date", DATE.isoformat(), "--data", str(DATA), "--open"]
    assert probe.main(args) == 0
    assert calls == [] and "not opening a link for 152d:0578: several records share the ID" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------------
# One home for the form's ids: the form, the probe's copy, the probe's links and the site's links agree.
# ---------------------------------------------------------------------------------------------------------------

def test_the_probes_copy_of_the_form_is_current():
    assert run_probe_form(check_only=True) == 0, "run `uasdb issue-form` and commit scripts/uasdb/probe/reportform.py"
    assert probe_cli.REPORT_FORM == report_form()
    assert list(report_form()["fields"]) == FIELD_IDS


def test_the_probes_link_and_the_sites_link_fill_the_same_fields_the_same_way(capsys):
    output = run_probe(capsys, "pi4-uas", "pi4-uas", DATA)
    probe_link = next(filled_form(url) for url in links_in(output) if "adapter=orico-2139u3" in url)
    site_link = {k: v[0] for k, v in parse_qs(report_query(usb_id="152d:0578", adapter="orico-2139u3")).items()}
    probe_link.pop("probe")
    assert {k: v for k, v in probe_link.items() if k != "title"} == {k: v for k, v in site_link.items() if k != "title"}
    assert probe_link["title"].startswith(FORM["title"]) and site_link["title"].startswith(FORM["title"])


def test_a_field_the_form_does_not_have_is_refused():
    with pytest.raises(ValueError, match="has no field probe_output"):
        form_query({"probe_output": "x"})
