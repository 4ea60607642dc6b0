"""Property-based tests (Hypothesis) over the readers of outside text (issue 39): the paste parsers, the quirk-line
reader of the issue bot, the issue-form parser and `fmt`'s round trip. Generated inputs mix the formats' own words
with arbitrary text; each property is something a user relies on (no traceback, no ID that is not an ID, no answer
taken from another section, no change of data by fmt). The check page's link and paste readers have the same
kind of harness in Node: tests/js/generated.test.mjs."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import REPO, adapter, examples
from uasdb.ingest import issue as issue_mod
from uasdb.probe import parsers
from uasdb.records import fmt
from uasdb.records.loader import load_text
from uasdb.tools.synth import RecordDumper

USB_ID = re.compile(r"[0-9a-f]{4}:[0-9a-f]{4}")
WORDS = ["Bus 002 Device 003: ID ", "152d:0578", "174c:55AA", "JMicron", "\n", " ", "\t", ":", ",", "0x", "idVendor ",
         "idProduct ", "  ", "usb 2-1: ", "New USB device found, idVendor=", ", idProduct=", "scsi host0: uas",
         "|__ Port 1: Dev 3, If 0, Class=Mass Storage, Driver=uas, 5000M", "/:  Bus 02.Port 1: Dev 1", "Product ID: ",
         "Vendor ID: 0x152d", "+-o ", "\"idVendor\" = ", "usb-storage.quirks=", "VID_152D&PID_0578", "&platform=pi5",
         "\u202e", "\u3164", "\ufffe", "é", "0", "ffff", "uas_eh_abort_handler", "reset SuperSpeed USB device"]
pastes = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=12)), max_size=40).map("".join)
SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                             HealthCheck.too_slow])


def _ids(value):
    """Every vid, pid and vid:pid a parser result holds."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key in ("vid", "pid") and child is not None:
                yield key, child
            yield from _ids(child)
    elif isinstance(value, list):
        for child in value:
            yield from _ids(child)


@SETTINGS
@given(pastes)
def test_the_paste_parsers_never_fail_and_give_only_real_ids(text):
    for parse in (parsers.parse_lsusb, parsers.parse_lsusb_tree, parsers.parse_lsusb_verbose, parsers.parse_dmesg,
                  parsers.parse_ioreg, parsers.parse_system_profiler):
        for key, value in _ids(parse(text)):
            assert re.fullmatch(r"[0-9a-f]{4}", value), (parse.__name__, key, value)
    found = parsers.find_usb_ids(text)
    assert len(found) == len(set(found)) and all(USB_ID.fullmatch(i) for i in found)


@SETTINGS
@given(pastes)
def test_an_id_found_in_a_paste_is_written_in_it(text):
    """find_usb_ids never makes an ID up: each one appears in the paste, in one of its spellings."""
    lower = text.lower()
    for usb_id in parsers.find_usb_ids(text):
        vid, pid = usb_id.split(":")
        assert vid in lower and pid in lower


letters = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)
ids = st.sampled_from(["152d:0578", "174c:55aa", "0bda:9210"])


@SETTINGS
@given(st.one_of(letters, st.builds(lambda i, flags: f"{i}:{flags}", ids, letters),
                 st.builds(lambda a, b: f"{a},{b}", st.builds(lambda i, flags: f"{i}:{flags}", ids, letters),
                           st.builds(lambda i, flags: f"{i}:{flags}", ids, letters)),
                 st.text(max_size=30)), ids)
def test_the_bot_reads_a_quirk_answer_only_as_letters_or_this_ids_entry(answer, usb_id):
    read = issue_mod.quirk_answer(answer, usb_id)
    if read is None:
        return
    assert re.fullmatch(r"[a-z]{1,26}", read)
    text = answer.strip().lower().removeprefix("usb-storage.quirks=")
    assert text == read or text == f"{usb_id}:{read}"


FORM = (REPO / "tests" / "fixtures" / "issues" / "new-adapter-with-probe.md").read_text(encoding="utf-8")
LABELS = re.findall(r"^### (.+)$", FORM, re.M)
ORIGINAL = issue_mod.parse_issue(FORM)  # the form as filled in, read once: every example compares against it


@SETTINGS  # about 0.4 s of CPU since the form's fields are read once per form text (it was 3 s, in the slow lane)
@given(st.sampled_from(LABELS), st.lists(st.one_of(st.sampled_from(["### ", "```", "\n", "_No response_", "- [X] ",
                                                                    *[f"### {label}" for label in LABELS]]),
                                                   st.text(max_size=10)), max_size=12).map("".join))
def test_the_issue_form_parser_keeps_each_answer_in_its_own_section(label, answer):
    """Whatever an answer holds, no other section's answer changes, and a heading typed in it is named, never read."""
    start = FORM.index(f"### {label}\n\n") + len(f"### {label}\n\n")
    end = FORM.find("\n\n### ", start)
    body = FORM[:start] + answer + (FORM[end:] if end != -1 else "\n")
    parsed = issue_mod.parse_issue(body)
    if any(p.rule == "issue-duplicate-section" for p in parsed.problems):
        return
    for field_id, section in ORIGINAL.sections.items():
        if section.label != label and field_id in parsed.sections and "```" not in answer:
            assert parsed.sections[field_id].value == section.value, field_id


record_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Zl", "Zp", "Co", "Cn")), max_size=40)


@pytest.mark.slow  # Hypothesis over fmt's round trip: about 2 s of CPU, at the fast lane's budget
@SETTINGS
@given(record_text, record_text, st.one_of(st.none(), record_text))
def test_fmt_round_trip_keeps_the_data(name, notes, vendor):
    """fmt's layout of any record reads back as the same data, and formatting it again changes nothing."""
    record = adapter(name=name or "x", notes=notes or None, vendor=vendor or None)
    raw = ("# yaml-language-server: $schema=../../schema/adapter.schema.json\n"
           + yaml.dump(record, Dumper=RecordDumper, sort_keys=False, allow_unicode=True)).encode("utf-8")
    before = load_text("acme-box.yaml", raw).data
    if before is None:
        return
    text = fmt.canonical_text(Path("data/adapters/acme-box.yaml"), raw)
    if text is None:  # fmt refuses what it cannot lay out without changing it: never a silent change
        return
    assert load_text("acme-box.yaml", text.encode("utf-8")).data == before
    assert fmt.canonical_text(Path("data/adapters/acme-box.yaml"), text.encode("utf-8")) == text
