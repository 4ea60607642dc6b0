"""`uasdb issue-form`: the Computer dropdown of the adapter-report issue form, written from the schema's hosts.

Each option reads `<host> — <title>`, plus `(<detail>)` where the schema gives one to help people pick (issue.py
keeps what comes before the dash), with the titles the site shows, so the form and the site cannot name a host two
ways. Only that dropdown's options are
rewritten; `--check` (and a test) fails when the committed form differs.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from .vocabulary import HOSTS

FORM = Path(__file__).resolve().parents[2] / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml"
# The host dropdown's option lines: after `id: host` and its `options:` line, up to the first line that is not one.
_OPTIONS = re.compile(r"(\n    id: host\n(?:    .*\n)*?      options:\n)((?:        - .*\n)+)")


def host_options() -> str:
    return "".join(f'        - "{host} — {spec["title"]}' + (f' ({spec["detail"]})' if spec.get("detail") else "") + '"\n'
                   for host, spec in HOSTS.items())


def with_host_options(form: str) -> str:
    if not _OPTIONS.search(form):
        raise ValueError("no dropdown with `id: host` and an `options:` list")
    return _OPTIONS.sub(lambda m: m.group(1) + host_options(), form, count=1)


def run_issue_form(path: Path, check_only: bool) -> int:
    try:
        current = path.read_text(encoding="utf-8")
        wanted = with_host_options(current)
    except (OSError, ValueError) as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 1
    if check_only:
        if current != wanted:
            print(f"{path}: the Computer dropdown differs from the schema's hosts: run `uasdb issue-form` and commit "
                  "the result", file=sys.stderr)
            return 1
        return 0
    path.write_text(wanted, encoding="utf-8")
    print(f"wrote the Computer dropdown in {path}")
    return 0
