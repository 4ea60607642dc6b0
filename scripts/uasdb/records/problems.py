"""A Problem is one thing wrong with one place in one file; every check reports through it."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

PathPart = str | int
FieldPath = tuple[PathPart, ...]

ERROR = "error"
WARNING = "warning"


def field_path_text(path: FieldPath) -> str:
    """('reports', 2, 'quirks') -> 'reports[2].quirks'."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + part
    return text or "(record)"


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    column: int
    field: FieldPath
    message: str
    fix: str
    rule: str
    severity: str = ERROR

    def render(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}"
        tail = f" [{self.rule}]" + (" (warning)" if self.severity == WARNING else "")
        fix = f" — {self.fix}" if self.fix else ""
        return f"{where}: {field_path_text(self.field)}: {self.message}{fix}{tail}"

    def sort_key(self):
        return (self.file, self.line, self.column, self.rule, self.message)


@dataclass(frozen=True)
class Finding:
    """What a rule yields: a field path and the words; the runner adds file and position."""
    field: FieldPath
    message: str
    fix: str = ""
    severity: str | None = None  # None: the registered severity of the rule that found it


def count(problems: Iterable[Problem]):
    errors = warnings = 0
    for p in problems:
        if p.severity == ERROR:
            errors += 1
        else:
            warnings += 1
    return errors, warnings
