"""Deleted records: a record's address is permanent, so a record may leave data/ only if its id lives on, either as
an alias of the record that replaces it (its page redirects there) or in a removal note in data/removed.yaml, which
says why and names the record its address now leads to (the export writes that redirect). docs/maintaining.md,
"Deleting a record", is the contributor's side of this."""
from __future__ import annotations

import datetime
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from ..loader import Loaded, load_file
from ..problems import Problem
from . import declare
from .identity import VALID_ID

REMOVED_FILE = "removed.yaml"
NOTE_KEYS = ("id", "kind", "date", "reason", "redirect")
# The kinds that have pages, and so addresses to keep.
PAGE_FOLDERS = {"adapter": "adapters", "chipset": "chipsets"}

REMOVED = declare("record-removed", "a record deleted from data/ leaves its id behind: an alias on the record that "
                  "replaces it, or a note in data/removed.yaml (its address must not die)", "tree",
                  example="`acme-box` was deleted (commit 1a2b3c4) and nothing took its address, so /adapters/acme-box/ "
                          "would be a dead link — add `acme-box` to the `aliases` of the record that replaces it, or note "
                          "the removal in data/removed.yaml")
NOTE = declare("removal-note", "each note in data/removed.yaml names a removed id, its kind, the date, the reason and an "
               "existing record its address redirects to", "tree",
               example="removed[0].redirect: no adapter `acme-box-2` to redirect to — name a record that exists")


def removal_notes(root: Path, display) -> tuple[list[dict[str, str]], list[Problem], Loaded | None]:
    """The well-formed notes of `root`/removed.yaml, the problems of the others, and the loaded file (or None)."""
    path = Path(root) / REMOVED_FILE
    if not path.is_file():
        return [], [], None
    loaded = load_file(path)
    loaded.path = display(path)
    problems = [Problem(loaded.path, p.line, p.column, p.field, p.message, p.fix, p.rule, p.severity) for p in loaded.problems]
    data = loaded.data
    if data is None:
        return [], problems, loaded
    if set(data) != {"removed"} or not isinstance(data["removed"], list):
        problems.append(loaded.problem((), "the file holds one key, `removed:`, with a list of removal notes",
                                       "write `removed:` and one `- id: … kind: … date: … reason: … redirect: …` item "
                                       "per deleted record", NOTE))
        return [], problems, loaded
    notes = []
    for index, note in enumerate(data["removed"]):
        if not isinstance(note, dict) or set(note) != set(NOTE_KEYS) or \
                not all(isinstance(note[k], str) and note[k].strip() for k in NOTE_KEYS):
            problems.append(loaded.problem(("removed", index), "a removal note has exactly `id`, `kind`, `date`, `reason` "
                                           "and `redirect`, each as text", "add the missing keys and remove others", NOTE))
        elif bad := [k for k in ("id", "redirect") if not VALID_ID.match(note[k]) or len(note[k]) > 80]:
            # The id becomes a folder of the export (static/<folder>/<id>/), the redirect a link: both are record ids.
            problems.append(loaded.problem(("removed", index, bad[0]), f"`{note[bad[0]][:80]}` is not a record id",
                                           "write the id as it was: lowercase letters, digits and single hyphens", NOTE))
        elif note["kind"] not in PAGE_FOLDERS:
            problems.append(loaded.problem(("removed", index, "kind"), f"`{note['kind']}` is not a kind with pages",
                                           "write `adapter` or `chipset`", NOTE))
        elif not _is_date(note["date"]):
            problems.append(loaded.problem(("removed", index, "date"), f"`{note['date']}` is not a date",
                                           "write the day of the removal as YYYY-MM-DD, quoted", NOTE))
        else:
            notes.append(dict(note, index=index))
    return notes, problems, loaded


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def removal_problems(roots: Sequence[str], records, display) -> list[Problem]:
    """Problems with each data tree's removal notes, and with records deleted from it without leaving their id."""
    problems: list[Problem] = []
    for folder_name in roots:
        tree, root = os.path.abspath(folder_name), Path(folder_name)
        in_tree = [r for r in records if os.path.dirname(os.path.dirname(os.path.abspath(r.path))) == tree]
        notes, found, loaded = removal_notes(root, display)
        problems.extend(found)
        names = {kind: {r.data.get("id") for r in in_tree if r.kind == kind} for kind in PAGE_FOLDERS}
        aliases = {kind: {a for r in in_tree if r.kind == kind for a in r.data.get("aliases", []) or []}
                   for kind in PAGE_FOLDERS}
        noted = {}
        for note in notes:
            assert loaded is not None  # notes come from a file that was read
            kind, where = note["kind"], ("removed", note["index"])
            if note["id"] in names[kind] or note["id"] in aliases[kind]:
                problems.append(loaded.problem(where + ("id",), f"`{note['id']}` is still an id or alias in "
                                               f"data/{PAGE_FOLDERS[kind]}/",
                                               "remove the note: the address is in use", NOTE))
            elif note["redirect"] not in names[kind]:
                problems.append(loaded.problem(where + ("redirect",), f"no {kind} `{note['redirect']}` to redirect to",
                                               "name a record that exists", NOTE))
            else:
                noted[(kind, note["id"])] = note
        for kind, record_id, commit in _deleted_records(root):
            if record_id in names[kind] or record_id in aliases[kind] or (kind, record_id) in noted:
                continue
            folder = PAGE_FOLDERS[kind]
            problems.append(Problem(display(root / folder / f"{record_id}.yaml"), 1, 1, (),
                                    f"`{record_id}` was deleted (commit {commit}) and nothing took its address, so "
                                    f"/{folder}/{record_id}/ would be a dead link",
                                    f"add `{record_id}` to the `aliases` of the record that replaces it, or note the "
                                    f"removal in {display(root / REMOVED_FILE)} (docs/maintaining.md, \u201cDeleting a record\u201d)",
                                    REMOVED))
    return problems


def _deleted_records(root: Path) -> list[tuple[str, str, str]]:
    """(kind, id, short commit) of each record file git history shows deleted from this tree, newest deletion first.
    Only for a tree that is the data/ folder at the top of a git work tree (the repository's own); elsewhere (a
    test's tree, an unpacked tarball) there is no history to read."""
    resolved = Path(root).resolve()
    if resolved.name != "data" or not ((resolved.parent / ".git").exists() or os.environ.get("GIT_DIR")):
        return []  # not data/ at the top of a work tree, so the check below would fail: no git process needed
    try:
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                             timeout=30)
        if top.returncode != 0 or Path(top.stdout.strip()).resolve() / "data" != Path(root).resolve():
            return []
        log = subprocess.run(["git", "-C", str(root), "log", "--diff-filter=D", "--no-renames", "--name-only",
                              "--format=commit %h", "--", *PAGE_FOLDERS.values()], capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    found: dict[tuple[str, str], str] = {}
    commit = ""
    kinds = {folder: kind for kind, folder in PAGE_FOLDERS.items()}
    for line in log.stdout.splitlines():
        if line.startswith("commit "):
            commit = line[len("commit "):]
            continue
        parts = line.split("/")
        if len(parts) == 3 and parts[0] == "data" and parts[1] in kinds and parts[2].endswith(".yaml"):
            found.setdefault((kinds[parts[1]], parts[2][: -len(".yaml")]), commit)
    return [(kind, record_id, sha) for (kind, record_id), sha in found.items()]
