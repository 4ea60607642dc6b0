"""`uasdb issue-form`: the dropdowns of the adapter-report issue form, written from the schema.

Each option reads `<value> — <title>` (issue.py keeps what comes before the dash). Values are the schema's enum;
titles come from the annotation beside it: `x-uasdb-hosts` for the Computer dropdown (the titles the site shows,
plus a `detail` that helps people pick), `x-uasdb-titles` for the others; a value without a title is offered as
it is. Only the options are rewritten; `--check` (and a test) fails when the committed form differs.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..paths import ISSUE_FORM
from ..records.vocabulary import HOSTS, SCHEMA
from .importers.common import rewrite_generated

FORM = ISSUE_FORM
# Dropdown id -> where its enum sits in the adapter schema ("items" steps into a list's entries).
DROPDOWNS: dict[str, tuple[str, ...]] = {
    "kind": ("kind",), "drive_interface": ("drive_interface",), "host": ("reports", "items", "host"),
    "connection": ("reports", "items", "connection"), "uas": ("reports", "items", "uas"),
    "boot": ("reports", "items", "boot"), "stability": ("reports", "items", "stability"),
    "blamed_on": ("reports", "items", "blamed_on"), "trim": ("reports", "items", "trim"),
    "smart": ("reports", "items", "smart"), "drive_type": ("reports", "items", "drive", "type"),
}


def schema_node(schema: dict, path: tuple[str, ...]) -> dict:
    node = schema
    for part in path:
        node = node["items"] if part == "items" else node["properties"][part]
    return node


def options(field_id: str) -> list[str]:
    if field_id == "host":
        return [f"{host} — {spec['title']}" + (f" ({spec['detail']})" if spec.get("detail") else "")
                for host, spec in HOSTS.items()]
    node = schema_node(json.loads(SCHEMA.read_text(encoding="utf-8")), DROPDOWNS[field_id])
    titles = node.get("x-uasdb-titles", {})
    return [f"{value} — {titles[value]}" if titles.get(value) else str(value) for value in node["enum"]]


def _pattern(field_id: str) -> re.Pattern[str]:
    # The dropdown's option lines: after `id: <field>` and its `options:` line, up to the first line that is not one.
    return re.compile(rf"(\n    id: {re.escape(field_id)}\n(?:    .*\n)*?      options:\n)((?:        - .*\n)+)")


def with_options(form: str) -> str:
    for field_id in DROPDOWNS:
        match = _pattern(field_id).search(form)
        if not match:
            raise ValueError(f"no dropdown with `id: {field_id}` and an `options:` list")
        # json.dumps writes a valid YAML double-quoted scalar (quotes inside are escaped).
        lines = "".join(f"        - {json.dumps(option, ensure_ascii=False)}\n" for option in options(field_id))
        form = form[:match.start()] + match.group(1) + lines + form[match.end():]
    return form


def run_issue_form(path: Path, check_only: bool) -> int:
    """Rewrite `path` (or, with check_only, say whether it is stale) like every other generated file."""
    return rewrite_generated(path, with_options, check_only, "uasdb issue-form")


def run_probe_form(check_only: bool, form_path: Path | None = None, out: Path | None = None) -> int:
    """Write (or check) probe/reportform.py, the probe's copy of the form's facts; `uasdb issue-form` runs it."""
    from ..publish.report_link import FORM_PATH, PROBE_FORM, probe_form_text, report_form
    from .importers.common import write_generated
    report_form.cache_clear()
    return write_generated(out or PROBE_FORM, probe_form_text(form_path or FORM_PATH), check_only, "uasdb issue-form")
