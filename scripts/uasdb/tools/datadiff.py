"""`uasdb diff BASE_REF`: what a change does to the data, as Markdown for a pull request's job summary.

Both sides are read the same way (the strict loader, then the verdict engine), the base from git
and the head from the working tree (or `--head REF`), so the summary shows computed outcomes:
adapters added and removed, verdicts that changed per platform, moves between the naughty and
nice lists, the quirk line, and reports added or removed.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import REPO_ROOT
from ..records.loader import load_text
from ..verdicts.engine import PLATFORMS, adapter_verdict

ADAPTER_DIR = "data/adapters"
CHIPSET_DIR = "data/chipsets"


class GitError(Exception):
    pass


def _git(repo: Path, args: list[str], stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=repo, input=stdin, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        raise GitError(done.stderr.decode("utf-8", "replace").strip() or f"git {' '.join(args)} failed")
    return done.stdout


def files_at(repo: Path, ref: str | None, folder: str) -> dict[str, bytes]:
    """`{file stem: bytes}` of the YAML files in `folder`, at `ref` or in the working tree."""
    if ref is None:
        return {p.stem: p.read_bytes() for p in sorted((repo / folder).glob("*.yaml"))}
    try:
        _git(repo, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
    except GitError:
        raise GitError(f"unknown git ref `{ref}`") from None
    names = [n for n in _git(repo, ["ls-tree", "-r", "--name-only", ref, "--", folder]).decode().splitlines()
             if n.endswith(".yaml") and "/" not in n[len(folder) + 1:]]
    if not names:
        return {}
    # One `git cat-file --batch` for every file instead of a process per file.
    output = _git(repo, ["cat-file", "--batch"], stdin="".join(f"{ref}:{n}\n" for n in names).encode())
    contents: dict[str, bytes] = {}
    offset = 0
    for name in names:
        header_end = output.index(b"\n", offset)
        size = int(output[offset:header_end].split()[2])
        contents[Path(name).stem] = output[header_end + 1: header_end + 1 + size]
        offset = header_end + 1 + size + 1
    return contents


@dataclass
class Side:
    adapters: dict[str, dict[str, Any]]
    unreadable: list[str]
    chipsets: list[str]


def load_side(repo: Path, ref: str | None) -> Side:
    adapters: dict[str, dict[str, Any]] = {}
    unreadable: list[str] = []
    for stem, raw in files_at(repo, ref, ADAPTER_DIR).items():
        loaded = load_text(f"{ADAPTER_DIR}/{stem}.yaml", raw)
        if loaded.data is None or not isinstance(loaded.data.get("reports", []), list):
            unreadable.append(stem)
        else:
            adapters[stem] = loaded.data
    return Side(adapters, unreadable, sorted(files_at(repo, ref, CHIPSET_DIR)))


@dataclass
class Summary:
    added: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    removed: list[tuple[str, dict[str, Any], str | None]] = field(default_factory=list)   # (id, record, renamed to)
    list_moves: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    verdicts: list[tuple[str, str, str, str]] = field(default_factory=list)                  # (id, what, before, after)
    quirks: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    other: list[tuple[str, str]] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    chipsets_added: list[str] = field(default_factory=list)
    chipsets_removed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not any((self.added, self.removed, self.list_moves, self.verdicts, self.quirks, self.other,
                        self.unreadable, self.chipsets_added, self.chipsets_removed))


def _verdict(record: dict[str, Any]):
    try:
        return adapter_verdict(record)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None  # a record the schema would reject; `uasdb validate` says why


def compare(base: Side, head: Side) -> Summary:
    summary = Summary(unreadable=sorted(head.unreadable))
    summary.chipsets_added = sorted(set(head.chipsets) - set(base.chipsets))
    summary.chipsets_removed = sorted(set(base.chipsets) - set(head.chipsets))
    aliases = {alias: adapter_id for adapter_id, record in head.adapters.items() for alias in record.get("aliases", []) or []}
    for adapter_id in sorted(set(head.adapters) - set(base.adapters)):
        summary.added.append((adapter_id, head.adapters[adapter_id]))
        verdict = _verdict(head.adapters[adapter_id])
        if verdict and verdict.listing:
            summary.list_moves.append((adapter_id, None, verdict.listing))
    for adapter_id in sorted(set(base.adapters) - set(head.adapters) - set(head.unreadable)):
        summary.removed.append((adapter_id, base.adapters[adapter_id], aliases.get(adapter_id)))
        verdict = _verdict(base.adapters[adapter_id])
        if verdict and verdict.listing and adapter_id not in aliases:
            summary.list_moves.append((adapter_id, verdict.listing, None))
    for adapter_id in sorted(set(base.adapters) & set(head.adapters)):
        before, after = base.adapters[adapter_id], head.adapters[adapter_id]
        if before == after:
            continue
        old, new = _verdict(before), _verdict(after)
        if old and new:
            if old.listing != new.listing:
                summary.list_moves.append((adapter_id, old.listing, new.listing))
            for platform, spec in PLATFORMS.items():
                if old.uas[platform].verdict != new.uas[platform].verdict:
                    summary.verdicts.append((adapter_id, f"{spec['label']} UAS", old.uas[platform].verdict, new.uas[platform].verdict))
            for platform in new.boot:
                if old.boot[platform].verdict != new.boot[platform].verdict:
                    summary.verdicts.append((adapter_id, f"{PLATFORMS[platform]['label']} boot",
                                             old.boot[platform].verdict, new.boot[platform].verdict))
            if old.quirk_line != new.quirk_line:
                summary.quirks.append((adapter_id, old.quirk_line, new.quirk_line))
        summary.other.extend((adapter_id, text) for text in _field_changes(before, after))
    return summary


def _field_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    changes = []
    old_reports, new_reports = before.get("reports") or [], after.get("reports") or []
    added = [r for r in new_reports if r not in old_reports]
    removed = [r for r in old_reports if r not in new_reports]
    if added and removed and len(old_reports) == len(new_reports):
        changes.append(f"{len(added)} report(s) edited")
    elif added and removed:
        changes.append(f"reports: {len(added)} new or edited, {len(removed)} removed or edited")
    elif added:
        changes.append(f"{len(added)} report(s) added")
    elif removed:
        changes.append(f"{len(removed)} report(s) removed")
    for key in sorted(set(before) | set(after)):
        if key == "reports" or before.get(key) == after.get(key):
            continue
        if key not in before:
            changes.append(f"{_escape(key)} added")
        elif key not in after:
            changes.append(f"{_escape(key)} removed")
        else:
            changes.append(f"{_escape(key)} changed")
    return changes


def _cell(value: str | None) -> str:
    return value if value else "—"


def render(summary: Summary, base_ref: str, head_label: str) -> str:
    lines = [f"## Data changes: {_escape(base_ref)} → {head_label}", ""]
    if summary.empty:
        return "\n".join(lines + ["No change to the adapters or chipsets in `data/`.", ""])
    changed = len({i for i, _ in summary.other} | {v[0] for v in summary.verdicts})
    counts = [f"{len(summary.added)} adapter(s) added", f"{len(summary.removed)} removed", f"{changed} changed",
              f"{len(summary.list_moves)} list move(s)"]
    lines += [", ".join(counts) + ".", ""]
    if summary.unreadable:
        lines += ["### Files that cannot be read", ""]
        lines += [f"- {_escape(f'data/adapters/{i}.yaml')}: run `uasdb validate` to see why" for i in summary.unreadable] + [""]
    if summary.added:
        lines += ["### Added", "", "| adapter | list | Pi 4 UAS | Pi 4 boot | Pi 5 UAS |", "|---|---|---|---|---|"]
        for adapter_id, record in summary.added:
            verdict = _verdict(record)
            if verdict:
                lines.append(f"| {_escape(adapter_id)} {_escape(record.get('name', ''))} | {_cell(verdict.listing)} | "
                             f"{verdict.uas['pi4'].verdict} | {verdict.boot['pi4'].verdict} | {verdict.uas['pi5'].verdict} |")
            else:
                lines.append(f"| {_escape(adapter_id)} | ? | ? | ? | ? |")
        lines.append("")
    if summary.removed:
        lines += ["### Removed", ""]
        for adapter_id, record, renamed in summary.removed:
            tail = f" (renamed to {_escape(renamed)})" if renamed else ""
            lines.append(f"- {_escape(adapter_id)} {_escape(record.get('name', ''))}{tail}")
        lines.append("")
    if summary.list_moves:
        lines += ["### List moves", "", "| adapter | before | after |", "|---|---|---|"]
        lines += [f"| {_escape(i)} | {_cell(a)} | {_cell(b)} |" for i, a, b in summary.list_moves] + [""]
    if summary.verdicts:
        lines += ["### Verdicts changed", "", "| adapter | what | before | after |", "|---|---|---|---|"]
        lines += [f"| {_escape(i)} | {what} | {a} | {b} |" for i, what, a, b in summary.verdicts] + [""]
    if summary.quirks:
        lines += ["### Quirk line changed", ""]
        for adapter_id, old, new in summary.quirks:
            lines.append(f"- {_escape(adapter_id)}: {_escape(old or 'none')} → {_escape(new or 'none')}")
        lines.append("")
    if summary.other:
        lines += ["### Other changes", ""]
        grouped: dict[str, list[str]] = {}
        for adapter_id, text in summary.other:
            grouped.setdefault(adapter_id, []).append(text)
        lines += [f"- {_escape(i)}: " + "; ".join(texts) for i, texts in grouped.items()] + [""]
    if summary.chipsets_added or summary.chipsets_removed:
        lines += ["### Chipsets", ""]
        lines += [f"- added {_escape(c)}" for c in summary.chipsets_added] + [f"- removed {_escape(c)}" for c in summary.chipsets_removed] + [""]
    return "\n".join(lines)


def _escape(text: Any) -> str:
    """Text from a record (a name, an id, a field name) as a Markdown code span: the job summary is Markdown and
    HTML, and a name must not become a link, an image or a tag there. The fence is longer than any run of
    backticks in the text; `|` is escaped so a table cell holds (GFM reads `\\|` as a pipe inside code too); line
    breaks become spaces. Computed words (verdicts, list names) are written as they are."""
    text = " ".join(str(text).split("\n")).replace("\r", " ").replace("|", "\\|")
    if not text:
        return ""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def diff(base_ref: str, head_ref: str | None = None, repo: Path | None = None) -> str:
    repo = repo or REPO_ROOT
    base = load_side(repo, base_ref)
    head = load_side(repo, head_ref)
    return render(compare(base, head), base_ref, _escape(head_ref) if head_ref else "this change")


def run_diff(base_ref: str, head_ref: str | None, repo: Path | None) -> int:
    try:
        sys.stdout.write(diff(base_ref, head_ref, repo))
    except GitError as exc:
        print(f"uasdb diff: {exc} (is `{base_ref}` a commit? in CI, fetch the base branch first)", file=sys.stderr)
        return 2
    return 0
