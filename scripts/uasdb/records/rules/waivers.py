"""data/waivers.yaml: warnings that are expected on this data, each acknowledged with a reason.

A waiver names a record (its path under data/), a rule and a field; `check` hides the warnings it matches and
counts them. A waiver that matches nothing is an error, so a waiver cannot outlive the warning it was written for,
and only warnings can be waived: an error is fixed in the record, never acknowledged.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from ...paths import OutsideFolder, inside
from ..loader import Loaded, load_file
from ..problems import ERROR, Problem, field_path_text
from . import declare, rule_by_id

WAIVERS_FILE = "waivers.yaml"
WAIVER_KEYS = ("record", "rule", "field", "reason")

VALID = declare("waiver-valid", "each waiver gives `record`, `rule`, `field` and `reason` as text, and names a "
                                "registered rule that reports warnings (errors cannot be waived)", "waivers",
                example="waivers[3].rule: `quirk-needs-flags` reports errors, which cannot be waived — fix the record "
                        "instead, and remove this waiver")
MATCHES = declare("waiver-matches-nothing", "every waiver matches a warning on the records it names", "waivers",
                  example="waivers[0]: waives shared-usb-id on adapters/acme-box.yaml usb_ids[0], but no such warning on "
                          "that field — remove the waiver: the warning it was written for is gone")


def _entries(loaded: Loaded) -> tuple[list[tuple[int, dict[str, str]]], list[Problem]]:
    """Well-formed waivers with their index, and what is wrong with the others."""
    problems: list[Problem] = []
    data = loaded.data
    if not isinstance(data, dict) or set(data) != {"waivers"} or not isinstance(data["waivers"], list):
        problems.append(loaded.problem((), "the file holds one key, `waivers:`, with a list of waivers",
                                       "write `waivers:` and one `- record: … rule: … field: … reason: …` item per waiver", VALID))
        return [], problems
    good = []
    for index, entry in enumerate(data["waivers"]):
        where = ("waivers", index)
        if not isinstance(entry, dict) or set(entry) != set(WAIVER_KEYS) or \
                not all(isinstance(entry[k], str) and entry[k].strip() for k in WAIVER_KEYS):
            problems.append(loaded.problem(where, "a waiver has exactly `record`, `rule`, `field` and `reason`, each as text",
                                           "add the missing keys (the reason says why the warning is expected) and remove others", VALID))
            continue
        registered = rule_by_id(entry["rule"])
        if registered is None:
            problems.append(loaded.problem(where + ("rule",), f"no rule `{entry['rule']}`",
                                           "use an id that `uasdb rules` lists", VALID))
            continue
        if registered.severity == ERROR:
            problems.append(loaded.problem(where + ("rule",), f"`{entry['rule']}` reports errors, which cannot be waived",
                                           "fix the record instead, and remove this waiver", VALID))
            continue
        good.append((index, entry))
    return good, problems


def apply_waivers(roots: Sequence[str], problems: list[Problem], checked: set[str],
                  display: Callable[[Path], str]) -> tuple[list[Problem], list[Problem]]:
    """(problems left to show, warnings waived). `roots` are the data/ folders involved; `checked` holds the absolute
    paths of the files that were checked, so that waivers for records outside a partial run are not called unused;
    `display` names a file as the contributor sees it."""
    waived: list[Problem] = []
    shown = list(problems)
    for root in roots:
        path = Path(root) / WAIVERS_FILE
        if not path.is_file():
            continue
        loaded = load_file(path)
        loaded.path = display(path)
        loaded.problems = [Problem(loaded.path, p.line, p.column, p.field, p.message, p.fix, p.rule, p.severity)
                           for p in loaded.problems]
        shown.extend(loaded.problems)
        if loaded.data is None:
            continue
        entries, found = _entries(loaded)
        shown.extend(found)
        for index, entry in entries:
            try:
                inside(Path(root), entry["record"])
            except OutsideFolder:
                # Skipping it as "a record this partial run did not include" hid a waiver that can never match.
                shown.append(loaded.problem(("waivers", index, "record"), f"`{entry['record'][:80]}` is not a file "
                                            f"inside {display(Path(root))}/", "name the record by its path under "
                                            "data/, e.g. adapters/acme-box.yaml", VALID))
                continue
            target = os.path.abspath(Path(root) / entry["record"])
            if target not in checked and os.path.isfile(target):
                continue  # a partial run that did not include this record
            matched = [p for p in shown if p.severity != ERROR and p.rule == entry["rule"]
                       and field_path_text(p.field) == entry["field"] and os.path.abspath(p.file) == target]
            if not matched:
                why = "the record does not exist" if not os.path.isfile(target) else "no such warning on that field"
                shown.append(loaded.problem(("waivers", index), f"waives {entry['rule']} on {entry['record']} "
                                            f"{entry['field']}, but {why}",
                                            "remove the waiver: the warning it was written for is gone", MATCHES))
                continue
            waived.extend(matched)
            shown = [p for p in shown if p not in matched]
    return shown, waived
