"""`uasdb from-issue FILE|-`: turn an adapter-report issue into a record, or a report added to one.

GitHub renders an issue form's answers as Markdown sections:

    ### USB ID

    152d:0578

    ### Probe output

    ```text
    ...
    ```

Empty answers read `_No response_`. The section titles are the form's labels, read from
.github/ISSUE_TEMPLATE/adapter-report.yml, so renaming a label in the form cannot silently
break the parser. Dropdown answers start with the schema value (`pi4 — Raspberry Pi 4 Model B`).

The report is built from the probe's report block when there is one, then the person's answers
are laid over it (they know what happened; the probe only knows what it saw). The result is
checked with the same schema and rules as `uasdb validate` before anything is written.
"""
from __future__ import annotations

import copy
import datetime
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml as pyyaml

from ..paths import DATA_DIR, REPO_ROOT, SITE_DIR, inside
from ..probe import REPORT_END, REPORT_START_RE, find_usb_ids, parse_lsusb_tree, slugify, storage_interfaces
from ..records.database import check
from ..records.fmt import emit_record
from ..records.loader import CONFLICT_MARKER, load_text
from ..records.problems import Problem
from ..records.rules.links import url_problem
from ..records.rules.quirks import repeated_letters
from ..records.rules.removals import REMOVED_FILE
from ..records.rules.text import INVISIBLE, character_name
from ..records.schema import load_schema

FORM_PATH = REPO_ROOT / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml"
NO_RESPONSE = "_No response_"


def _heading(line: str) -> str | None:
    """The label of a `### Label` line (linear: a backtracking pattern took seconds on a line of blanks)."""
    if not line.startswith("### "):
        return None
    label = line[4:].rstrip()
    return label or None

ADAPTER_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")
MAX_ID = 80  # the schema's maxLength for an id (a longer name is no file to look for: the OS refuses it)


@lru_cache(maxsize=1)
def site_address() -> tuple[str, str]:
    """The site's own host and base path, from its Hugo configuration: adapter page addresses must be on it."""
    base = urlsplit(str(pyyaml.safe_load((SITE_DIR / "hugo.yaml").read_text(encoding="utf-8"))["baseURL"]))
    return base.netloc.lower(), base.path.rstrip("/") + "/"
# Form answers that go straight into the report, by field id.
REPORT_DROPDOWNS = ("host", "connection", "uas", "boot", "stability", "blamed_on", "trim", "smart")


class IssueError(Exception):
    """Problems with the issue, each already phrased for the person who opened it."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(p.render() for p in problems))
        self.problems = problems


@dataclass
class Section:
    label: str
    line: int
    value: str | None


@dataclass
class Issue:
    path: str
    sections: dict[str, Section]          # by form field id
    problems: list[Problem] = field(default_factory=list)

    def value(self, field_id: str) -> str | None:
        section = self.sections.get(field_id)
        return section.value if section else None

    def line(self, field_id: str) -> int:
        section = self.sections.get(field_id)
        return section.line if section else 1

    def problem(self, field_id: str, message: str, fix: str, rule: str) -> None:
        label = self.sections[field_id].label if field_id in self.sections else field_id
        self.problems.append(Problem(self.path, self.line(field_id), 1, (label,), message, fix, rule))


def form_fields(form_path: Path = FORM_PATH) -> dict[str, dict[str, Any]]:
    """Field id -> {label, type, required, options (schema values for dropdowns)} from the issue form."""
    return copy.deepcopy(_form_fields(form_path.read_text(encoding="utf-8")))


@lru_cache(maxsize=8)
def _form_fields(text: str) -> dict[str, dict[str, Any]]:
    """form_fields of the form's text, worked out once per text (reading the form's YAML took most of the time a
    short issue takes to parse); callers get a copy each."""
    form = pyyaml.safe_load(text)
    fields: dict[str, dict[str, Any]] = {}
    for item in form["body"]:
        if item["type"] == "markdown":
            continue
        attributes = item["attributes"]
        options = [option_value(o) for o in attributes.get("options", []) if isinstance(o, str)]
        # A checkbox group's required boxes (the consent to publish), by their labels.
        ticks = [o["label"] for o in attributes.get("options", []) if isinstance(o, dict) and o.get("required")]
        fields[item["id"]] = {"label": attributes["label"], "type": item["type"], "options": options,
                              "required": bool(item.get("validations", {}).get("required")) or bool(ticks),
                              "required_ticks": ticks}
    return fields


def option_value(option: str) -> str:
    """`pi4 — Raspberry Pi 4 Model B` -> `pi4`: the schema value is everything before the dash."""
    return option.split(" — ", 1)[0].strip()


def _strip_fence(text: str) -> str:
    """GitHub wraps `render:` textareas in a code fence; people sometimes add their own."""
    lines = text.strip("\n").split("\n")
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        lines = lines[1:-1]
    return "\n".join(lines)


def parse_issue(body: str, path: str = "issue", form_path: Path = FORM_PATH) -> Issue:
    """Split an issue body into the form's sections; note every section a form field needs but lacks."""
    fields = form_fields(form_path)
    by_label = {spec["label"]: field_id for field_id, spec in fields.items()}
    body = body.replace("\r\n", "\n").replace("\r", "\n")
    sections: dict[str, Section] = {}
    current: tuple[str, int, list[str]] | None = None
    fence = False
    first_seen: dict[str, int] = {}
    repeated: list[tuple[str, int, int]] = []

    def close() -> None:
        if current is None:
            return
        label, line, lines = current
        text = _strip_fence("\n".join(lines).strip("\n")).strip("\n")
        value = None if not text.strip() or text.strip() == NO_RESPONSE else text
        field_id = by_label.get(label)
        if field_id is not None:
            sections[field_id] = Section(label, line, value)

    for number, raw in enumerate(body.split("\n"), start=1):
        if raw.strip().startswith("```"):
            fence = not fence
        heading = None if fence else _heading(raw)
        if heading and heading in by_label:
            if heading in first_seen:
                repeated.append((heading, first_seen[heading], number))
            first_seen.setdefault(heading, number)
            close()
            current = (heading, number, [])
        elif current is not None:
            current[2].append(raw)
    close()
    issue = Issue(path, sections)
    for label, first, again in repeated:
        # A heading typed inside an answer would otherwise replace the real answer without a word.
        issue.problems.append(Problem(path, again, 1, (label,), f"the heading `### {label}` appears twice (lines {first} "
                                      f"and {again}), so it is not clear which answer is meant",
                                      f"edit the issue so `### {label}` appears once; write no `### ` headings inside answers",
                                      "issue-duplicate-section"))
    for field_id, section in sections.items():
        found = INVISIBLE.search(section.value or "")
        if found:
            issue.problem(field_id, f"the answer holds the invisible character {character_name(found.group(0))}",
                          "retype the answer (or paste it as plain text); such characters can split lines or reorder text",
                          "issue-text")
        marker = CONFLICT_MARKER.search(section.value or "")
        if marker:
            issue.problem(field_id, f"the answer holds the merge-conflict marker line `{marker.group(0).strip()[:40]}`",
                          "resolve the merge conflict in the text you pasted: keep the lines you mean, delete the marker lines",
                          "issue-text")
    if not sections:
        issue.problems.append(Problem(path, 1, 1, ("issue body",), "no section of the adapter-report form found",
                                      "open the issue from the 'Adapter report' form, or keep its `### ` headings", "issue-not-a-form"))
        return issue
    for field_id, spec in fields.items():
        if spec["type"] == "checkboxes":
            _check_ticks(issue, field_id, spec)
            continue
        if field_id in sections:
            continue
        if spec["required"]:
            issue.problems.append(Problem(path, 1, 1, (spec["label"],), f"the section `### {spec['label']}` is missing",
                                          "edit the issue and put the heading back with an answer under it", "issue-missing-section"))
    return issue


def _check_ticks(issue: Issue, field_id: str, spec: dict[str, Any]) -> None:
    """Every required box of a checkbox group is ticked (`- [X] label`). GitHub enforces it only when the issue is
    opened through the form: an issue edited afterwards, or opened through the API, can untick it or drop it."""
    lines = (issue.value(field_id) or "").split("\n")
    ticked = {line.strip()[6:].strip() for line in lines if line.strip()[:6].lower() == "- [x] "}
    missing = [label for label in spec["required_ticks"] if label not in ticked]
    if not missing:
        return
    where = "is unticked" if field_id in issue.sections else "is missing"
    issue.problems.append(Problem(issue.path, issue.line(field_id), 1, (spec["label"],),
                                  f"the required box `{missing[0][:60]}` under `### {spec['label']}` {where}: "
                                  "without it the report may not be published",
                                  f"edit the issue and tick the box under `### {spec['label']}` (`- [X] …`), "
                                  "if what it says is true", "issue-consent"))


@dataclass
class Target:
    adapter_id: str
    path: Path
    new: bool
    notes: list[str]


def _schema_enum(*path: str) -> list[str]:
    node: dict[str, Any] = load_schema("adapter")
    for part in path:
        node = node["properties"][part] if part != "items" else node["items"]
    return list(node["enum"])


def _dropdown(issue: Issue, field_id: str, allowed: list[str]) -> str | None:
    raw = issue.value(field_id)
    if raw is None:
        return None
    value = option_value(raw)
    if value not in allowed:
        issue.problem(field_id, f"`{raw}` is not one of the form's choices", "pick one of: " + ", ".join(allowed), "issue-choice")
        return None
    return value


def probe_report(issue: Issue, usb_id: str | None) -> dict[str, Any] | None:
    """The probe's report block for `usb_id` from the Probe output section, as data."""
    text = issue.value("probe")
    if text is None:
        return None
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.split("\n"):
        start = REPORT_START_RE.match(line.strip())
        if start:
            if start.group(1) in blocks:
                issue.problem("probe", f"the probe output has two report blocks for {start.group(1)}",
                              "paste the output of one probe run, unchanged", "issue-probe-output")
                return None
            current = blocks.setdefault(start.group(1), [])
        elif line.strip() == REPORT_END:
            current = None
        elif current is not None:
            current.append(line)
    if not blocks:
        issue.problem("probe", "the probe output has no `# ---- uasdb report for …` block",
                      "paste the probe's whole output, from its first line to the last", "issue-probe-output")
        return None
    if usb_id not in blocks:
        if len(blocks) == 1 and usb_id is None:
            usb_id = next(iter(blocks))
        else:
            issue.problem("probe", f"the probe output has reports for {', '.join(blocks)} but not for {usb_id}",
                          "check the USB ID, or paste the output of the probe run with this adapter plugged in", "issue-probe-output")
            return None
    wrapped = "reports:\n" + "\n".join(blocks[usb_id]) + "\n"
    loaded = load_text(issue.path, wrapped.encode("utf-8"))
    errors = [p for p in loaded.problems if p.severity == "error"]
    reports = (loaded.data or {}).get("reports")
    if errors or not isinstance(reports, list) or len(reports) != 1 or not isinstance(reports[0], dict):
        what = (f"line {errors[0].line}: {errors[0].message}" if errors
                else "it holds more than one report" if isinstance(reports, list) and len(reports) > 1 else "it is not a report")
        issue.problem("probe", f"the report block cannot be read ({what})",
                      "paste the probe output unchanged, inside the form's box", "issue-probe-output")
        return None
    empty = _empty_fields(reports[0])
    if empty:
        issue.problem("probe", f"the report block leaves `{empty[0]}` without a value",
                      "paste the probe output unchanged; delete a line rather than blank its value", "issue-probe-output")
        return None
    return dict(reports[0])


def _empty_fields(value, path: str = "") -> list[str]:
    """Dotted names of fields whose value is null (`os: ~`, `os:`), which would be written as text."""
    if value is None:
        return [path or "(report)"]
    if isinstance(value, dict):
        return [f for key, child in value.items() for f in _empty_fields(child, f"{path}.{key}" if path else str(key))]
    if isinstance(value, list):
        return [f for index, child in enumerate(value) for f in _empty_fields(child, f"{path}[{index}]")]
    return []


# One entry of a usb-storage.quirks= list, as the kernel reads it: vid:pid:letters (the letters may be none).
QUIRK_ENTRY = re.compile(r"([0-9a-f]{4}):([0-9a-f]{4}):([a-z]*)")
QUIRK_LETTERS = re.compile(r"[a-z]{1,26}")
QUIRKS_PARAMETER = "usb-storage.quirks="


def quirk_answer(answer: str, usb_id: str | None) -> str | None:
    """The quirk letters of this report's answer, or None: bare letters (`u`), or one quirk entry (optionally after
    `usb-storage.quirks=`) whose ID is the report's own. A list of entries, or an entry for another ID, is refused:
    its letters belong to another adapter."""
    text = answer.strip().lower()
    if QUIRK_LETTERS.fullmatch(text):
        return text
    if text.startswith(QUIRKS_PARAMETER):
        text = text[len(QUIRKS_PARAMETER):]
    entry = QUIRK_ENTRY.fullmatch(text)
    if entry is None or usb_id is None or f"{entry.group(1)}:{entry.group(2)}" != usb_id or not entry.group(3):
        return None
    return entry.group(3)


def build_report(issue: Issue, author: str | None, date: datetime.date) -> tuple[str | None, dict[str, Any]]:
    """(usb_id, report) from the issue; problems go to issue.problems."""
    raw_id = issue.value("usb_id")
    usb_id = None
    if raw_id is None:
        issue.problem("usb_id", "no USB ID given", "copy the `ID vid:pid` part of the `lsusb` line, e.g. 152d:0578", "issue-usb-id")
    else:
        ids = find_usb_ids(raw_id)
        if len(ids) != 1:
            issue.problem("usb_id", f"`{raw_id}` is not one USB ID in the form vid:pid",
                          "copy the `ID vid:pid` part of the `lsusb` line, e.g. 152d:0578", "issue-usb-id")
        else:
            usb_id = ids[0]
    report = probe_report(issue, usb_id) or {}
    report["date"] = report.get("date") or date.isoformat()
    source_url = issue.value("source_url")
    if source_url:
        found = url_problem(source_url.strip()) if not re.search(r"\s", source_url.strip()) else (
            f"`{source_url.strip()[:60]}` is not one link", "give the page's https:// address, nothing else")
        if found:
            issue.problem("source_url", *found, "issue-source")
        report["source"] = {"url": source_url.strip()}
    else:
        if not author:
            issue.problem("usb_id", "no author known for `tested_by`", "run from-issue with --author LOGIN", "issue-author")
        report["source"] = {"tested_by": author or ""}
    for field_id in REPORT_DROPDOWNS:
        value = _dropdown(issue, field_id, _schema_enum("reports", "items", field_id))
        if value is not None:
            report[field_id] = value  # the person's answer wins over the probe's inference
    if "host" not in report or str(report.get("host", "")).startswith("<"):
        issue.problem("host", "the computer is not given", "choose it in the Computer dropdown", "issue-host")
    quirks = issue.value("quirks")
    if quirks:
        flags = quirk_answer(quirks, usb_id)
        if flags is None:
            issue.problem("quirks", f"`{quirks[:60]}` is not a set of quirk letters for {usb_id or 'this USB ID'}",
                          f"write only the letters, e.g. u (or the one entry {usb_id or 'vid:pid'}:u)", "issue-quirks")
        elif repeated := repeated_letters(flags):
            issue.problem("quirks", *repeated, "issue-quirks")
        else:
            report["quirks"] = flags
    if boot_workaround := issue.value("boot_workaround"):
        report["boot_workaround"] = boot_workaround.strip()
    drive: dict[str, str] = {}
    if drive_model := issue.value("drive_model"):
        drive["model"] = drive_model.strip()
    drive_type = _dropdown(issue, "drive_type", _schema_enum("reports", "items", "drive", "type"))
    if drive_type:
        drive["type"] = drive_type
    if drive:
        report["drive"] = drive
    evidence = dict(report.get("evidence") or {})
    if lsusb_t := issue.value("lsusb_t"):
        if not storage_interfaces(parse_lsusb_tree(lsusb_t)):
            issue.problem("lsusb_t", "no `Class=Mass Storage` line in the lsusb -t output",
                          "paste the output of `lsusb -t` with the adapter plugged in", "issue-lsusb-t")
        evidence["lsusb_t"] = issue.value("lsusb_t")
    if issue.value("dmesg"):
        evidence["dmesg"] = issue.value("dmesg")
    if evidence:
        report["evidence"] = evidence
    elif "tested_by" in report["source"] and not any(p.field == (issue.sections["probe"].label,) for p in issue.problems
                                                     if "probe" in issue.sections):
        issue.problem("probe", "a test done for the database needs evidence",
                      "paste the probe output, or `lsusb -t` output in its section", "issue-evidence")
    if usb_id:
        _evidence_names_the_usb_id(issue, usb_id, evidence)
    notes = issue.value("how_tested")
    if notes:
        report["notes"] = notes.strip()
    if usb_id:
        report["usb_id"] = usb_id
    return usb_id, ordered_report(report)


def _evidence_names_the_usb_id(issue: Issue, usb_id: str, evidence: dict[str, str]) -> None:
    """Evidence is about the report's adapter: output that names USB IDs, none of them the report's, is about
    another device (a dmesg block for 174c:55aa on a 152d:0578 report) and is refused."""
    for key, text in evidence.items():
        shown = find_usb_ids(text)
        if shown and usb_id not in shown:
            section = key if key in ("dmesg", "lsusb_t") and issue.value(key) else "probe"
            issue.problem(section, f"the {key.replace('_', ' -')} output shows {', '.join(shown[:4])}, not {usb_id} "
                          "(the report's USB ID)", "paste the output from when this adapter was plugged in, or correct "
                          "the USB ID", "issue-evidence-usb-id")


def ordered_report(report: dict[str, Any]) -> dict[str, Any]:
    """Keys in schema order, as `uasdb fmt` writes them."""
    properties = load_schema("adapter")["properties"]["reports"]["items"]["properties"]
    ordered = {k: report[k] for k in properties if k in report}
    for key in ("source", "drive", "evidence"):
        if key in ordered and isinstance(ordered[key], dict):
            sub = properties[key]["properties"]
            ordered[key] = {k: ordered[key][k] for k in sub if k in ordered[key]}
    return ordered


def find_target(issue: Issue, usb_id: str | None, data_dir: Path) -> Target | None:
    """Which record the report goes to: the one named, the only one with this USB ID, or a new one."""
    adapters = data_dir / "adapters"
    named = issue.value("adapter")
    if named:
        named = named.strip()
        adapter_id = named if ADAPTER_ID.match(named) else _adapter_from_address(issue, named)
        if adapter_id is None:
            return None
        path = inside(adapters, f"{adapter_id}.yaml")
        if len(adapter_id) > MAX_ID or not path.is_file():
            issue.problem("adapter", f"there is no adapter `{adapter_id}` in the database",
                          "check the id on the adapter's page, or leave the field empty for a new adapter", "issue-adapter")
            return None
        return Target(adapter_id, path, False, [])
    sharing = _records_with_usb_id(adapters, usb_id) if usb_id else []
    name = issue.value("name")
    if not name:
        if len(sharing) == 1:
            return Target(sharing[0], inside(adapters, f"{sharing[0]}.yaml"), False,
                          [f"{usb_id} is only listed for `{sharing[0]}`, so the report was added there; "
                           "a reviewer should check that it is the same product."])
        if sharing:
            issue.problem("adapter", f"{usb_id} is used by several adapters: {', '.join(sharing)}",
                          "name yours in `Adapter in uasdb`, or give a product name for a new one", "issue-adapter")
            return None
    problems_before = len(issue.problems)
    for field_id, what in (("name", "a product name"), ("kind", "the kind of product"), ("drive_interface", "the drive interface")):
        if not issue.value(field_id):
            issue.problem(field_id, f"a new adapter needs {what}", "fill it in, or name an existing adapter in `Adapter in uasdb`",
                          "issue-new-adapter")
    if len(issue.problems) > problems_before:
        return None
    vendor, model = issue.value("vendor"), issue.value("model")
    adapter_id = slugify(f"{vendor} {model}") if vendor and model else slugify(name or "")
    if not adapter_id:
        issue.problem("name", f"`{name}` gives no usable id", "use letters or digits in the name", "issue-new-adapter")
        return None
    path = inside(adapters, f"{adapter_id}.yaml")
    if path.exists():
        issue.problem("name", f"`{adapter_id}` already exists in the database",
                      f"if it is the same product, put `{adapter_id}` in `Adapter in uasdb`; otherwise make the name more specific",
                      "issue-new-adapter")
        return None
    notes = [f"{usb_id} is also listed for {', '.join(sharing)}."] if sharing else []
    return Target(adapter_id, path, True, notes)


def _adapter_from_address(issue: Issue, address: str) -> str | None:
    """The adapter id in an address of the site's own adapter page (https://<site><base>adapters/<id>/), else None
    with the problem noted: an address on any other site names nothing in the database."""
    host, base = site_address()
    found = url_problem(address, [host])
    page = re.fullmatch(re.escape(base) + r"adapters/([a-z0-9]+(?:-[a-z0-9]+)*)/?", urlsplit(address).path) \
        if found is None else None
    if page is None:
        what = found[0] if found else f"`{address[:60]}` is not an adapter page"
        issue.problem("adapter", f"{what}; this field takes an adapter id or the address of its page on this site",
                      f"give the id (e.g. inateck-fe2002) or the page's address (https://{host}{base}adapters/<id>/), "
                      "or leave it empty for a new adapter", "issue-adapter")
        return None
    return page.group(1)


def _records_with_usb_id(adapters: Path, usb_id: str) -> list[str]:
    found = []
    vid, pid = usb_id.split(":")
    for path in sorted(adapters.glob("*.yaml")):
        data = load_text(str(path), path.read_bytes()).data or {}
        if any(u.get("vid") == vid and u.get("pid") == pid for u in data.get("usb_ids", []) if isinstance(u, dict)):
            found.append(path.stem)
    return found


def new_record_text(issue: Issue, target: Target, usb_id: str, report: dict[str, Any]) -> str:
    record = dict(_new_record(issue, target, usb_id), reports=[_as_written(report)])
    return _emitted(emit_record(target.path, record))


def _new_record(issue: Issue, target: Target, usb_id: str) -> dict[str, Any]:
    """A new adapter's own fields, from the form's answers."""
    name = issue.value("name")
    assert name, "find_target makes a new adapter only when the form names it"
    record: dict[str, Any] = {"id": target.adapter_id, "name": name.strip()}
    for field_id in ("vendor", "model"):
        if value := issue.value(field_id):
            record[field_id] = value.strip()
    record["kind"] = _dropdown(issue, "kind", _schema_enum("kind"))
    record["drive_interface"] = _dropdown(issue, "drive_interface", _schema_enum("drive_interface"))
    vid, pid = usb_id.split(":")
    record["usb_ids"] = [{"vid": vid, "pid": pid}]
    return record


def _emitted(text: str | None) -> str:
    if text is None:
        raise IssueError([Problem("issue", 1, 1, ("issue body",), "the answers cannot be written as a record without changing them",
                                  "remove unusual characters from the answers and edit the issue", "issue-structure")])
    return text


def appended_text(existing: str, report: dict[str, Any], path: Path) -> str:
    """The record with one more report, written by `fmt`'s emitter (its comments and layout kept)."""
    return _emitted(emit_record(path, _as_written(report), append_to=existing))


def _validate(text: str, adapter_id: str, data_dir: Path) -> list[Problem]:
    """Schema and rule problems of the resulting record, checked as `uasdb validate` would: against the whole tree
    (every other adapter, the chipsets, the distributions, the removal notes), so an id that is another record's
    alias, or a removed record's id, is refused here and not by the next run of `validate`."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        path = inside(tree / "adapters", f"{adapter_id}.yaml")
        path.parent.mkdir()
        for other in (data_dir / "adapters").glob("*.yaml"):
            if other.name != path.name and other.is_file() and not other.is_symlink():
                shutil.copyfile(other, tree / "adapters" / other.name)
        path.write_text(text, encoding="utf-8")
        for folder in ("chipsets", "distributions"):
            if (data_dir / folder).is_dir():
                (tree / folder).symlink_to((data_dir / folder).resolve(), target_is_directory=True)
        if (data_dir / REMOVED_FILE).is_file():
            shutil.copyfile(data_dir / REMOVED_FILE, tree / REMOVED_FILE)
        found = [p for p in check([tree]).problems if p.severity == "error"]
        own = [p for p in found if Path(p.file).name == path.name and "adapters" in Path(p.file).parts]
        # A clash is reported on the record that claims a name second, which may be another file: count what the
        # tree without this change does not already have (other records' own problems are not this issue's).
        others = [p for p in found if p not in own]
        if others:
            before = {_tree_key(p, data_dir) for p in check([data_dir]).problems if p.severity == "error"}
            own += [p for p in others if _tree_key(p, tree) not in before]
    return own


def _tree_key(problem: Problem, root: Path):
    """A problem as it reads in any copy of the tree: its file relative to the tree, paths in the message too."""
    message = problem.message.replace(str(root), "").replace(str(root.resolve()), "")
    file = Path(problem.file)
    try:
        file = file.resolve().relative_to(root.resolve())
    except ValueError:
        file = Path(*file.parts[-2:])
    return str(file), problem.field, problem.rule, message


@dataclass
class Outcome:
    target: Target
    text: str
    report: dict[str, Any]
    usb_id: str


def from_issue(body: str, path: str, author: str | None, date: datetime.date, data_dir: Path = DATA_DIR,
               form_path: Path = FORM_PATH) -> Outcome:
    issue = parse_issue(body, path, form_path)
    if issue.problems:
        raise IssueError(issue.problems)
    usb_id, report = build_report(issue, author, date)
    target = find_target(issue, usb_id, data_dir)
    if issue.problems or target is None or usb_id is None:
        raise IssueError(issue.problems)
    if target.new:
        text = new_record_text(issue, target, usb_id, report)
        if issue.problems:
            raise IssueError(issue.problems)
    else:
        text = appended_text(target.path.read_text(encoding="utf-8"), report, target.path)
    intended = _intended_data(target, issue, usb_id, report)
    written = load_text(path, text.encode("utf-8"))
    if written.data != intended:
        raise IssueError([Problem(path, issue.line("how_tested"), 1, ("issue body",),
                                  "the answers would change the record's structure, not only its text",
                                  "remove unusual characters (line separators, control characters) from the answers",
                                  "issue-structure")])
    problems = _validate(text, target.adapter_id, data_dir)
    if problems:
        rewritten = [Problem(path, issue.line("usb_id"), 1, p.field, p.message, p.fix, p.rule) for p in problems]
        raise IssueError(rewritten)
    return Outcome(target, text, report, usb_id)


def _intended_data(target: Target, issue: Issue, usb_id: str, report: dict[str, Any]) -> dict[str, Any]:
    """What the written record must read back as: the new record, or the existing one plus the report."""
    if target.new:
        record = _new_record(issue, target, usb_id)
    else:
        record = load_text(str(target.path), target.path.read_bytes()).data
        record = dict(record, reports=list(record.get("reports", [])))
    # What the YAML writer does to text by design: tabs become four spaces, trailing newlines go.
    record["reports"] = (record.get("reports", []) if not target.new else []) + [_as_written(report)]
    return record


def _as_written(value):
    if isinstance(value, str) and "\n" in value:  # a literal block: see probe.yaml_block
        lines = value.replace("\t", "    ").rstrip("\n").split("\n")
        return "\n".join(line if line.strip() else "" for line in lines)
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return {k: _as_written(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_written(v) for v in value]
    return value


def comment_markdown(problems_text: str) -> str:
    """The bot's reply when an issue cannot become a pull request: the problems in a code fence longer than any
    run of backticks in them, so no answer can close the fence and write Markdown of its own."""
    longest = max((len(run) for run in re.findall(r"`+", problems_text)), default=0)
    fence = "`" * max(3, longest + 1)
    return ("Thanks! The report could not be turned into a pull request yet:\n\n"
            f"{fence}\n{problems_text.rstrip()}\n{fence}\n\n"
            "Please edit the issue to fix these; a maintainer will add the `adapter-report` label again.\n")


def summary(outcome: Outcome, issue_number: str | None) -> str:
    """Markdown for the pull request body."""
    report = outcome.report
    what = "New adapter" if outcome.target.new else "New report for"
    rel = f"data/adapters/{outcome.target.adapter_id}.yaml"
    lines = [f"{what} `{outcome.target.adapter_id}` ({outcome.usb_id}) from "
             + (f"#{issue_number}" if issue_number else "an adapter-report issue") + ".", "",
             f"- file: `{rel}`", f"- host: {report.get('host')}"]
    for key in ("driver", "uas", "quirks", "boot", "stability", "blamed_on"):
        if key in report:
            lines.append(f"- {key}: {report[key]}")
    lines += [f"- {note}" for note in outcome.target.notes]
    if issue_number:
        lines += ["", f"Closes #{issue_number}"]
    return "\n".join(lines) + "\n"


def run_from_issue(source: str, author: str | None, date: str | None, write: bool, data_dir: str | None,
                   issue_number: str | None, summary_path: str | None, comment_path: str | None = None) -> int:
    if source == "-":
        body, path = sys.stdin.read(), "issue"
    else:
        try:
            body, path = Path(source).read_text(encoding="utf-8"), source
        except (OSError, UnicodeDecodeError) as exc:
            print(f"{source}: cannot read the issue body: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 2
    try:
        when = datetime.date.fromisoformat(date[:10]) if date else datetime.date.today()
    except ValueError:
        print(f"--date {date}: not a date (YYYY-MM-DD)", file=sys.stderr)
        return 2
    try:
        outcome = from_issue(body, path, author, when, Path(data_dir) if data_dir else DATA_DIR)
    except IssueError as exc:
        rendered = "".join(problem.render() + "\n" for problem in exc.problems)
        sys.stdout.write(rendered)
        print(f"{len(exc.problems)} problem(s) in the issue; nothing was written", file=sys.stderr)
        if comment_path:
            Path(comment_path).write_text(comment_markdown(rendered), encoding="utf-8")
        return 1
    if summary_path:
        Path(summary_path).write_text(summary(outcome, issue_number), encoding="utf-8")
    if write:
        adapters = Path(data_dir) / "adapters" if data_dir else DATA_DIR / "adapters"
        inside(adapters, f"{outcome.target.adapter_id}.yaml").write_text(outcome.text, encoding="utf-8")
        verb = "created" if outcome.target.new else "added a report to"
        print(f"{verb} {outcome.target.path}")
    else:
        sys.stdout.write(outcome.text)
    return 0
