"""The registry of every problem id `uasdb validate` can report, and the rules a schema cannot express.

Record rules are `rule(record, ctx) -> Iterable[Finding]`; tree rules see every
record at once and yield `(record, Finding)` pairs. Problems found while reading a
file (loader), checking it against its schema, or applying data/waivers.yaml are
declared with `declare` (no check function: the loader, schema.py or waivers.py
emit them). The modules listed in RULE_MODULES register on import; `all_rules()` is
the one catalogue that `uasdb rules` prints and docs/rules.md's tables are made from.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ..problems import ERROR, WARNING

RULE_MODULES = ("reading", "shape", "waivers", "issues", "identity", "references", "usb_ids", "quirks", "reports", "evidence",
                "dates", "markdown", "throughput", "kernel_quirks", "usb_names", "text", "distributions", "links",
                "removals")

ALL_KINDS = ("adapter", "chipset", "distribution")
# Where a problem is found: reading the file, its schema, data/waivers.yaml, one record, all records at once, or an
# adapter-report issue that `uasdb from-issue` turns into a record.
SCOPES = ("file", "schema", "waivers", "record", "tree", "issue")


@dataclass(frozen=True)
class Rule:
    id: str
    description: str
    scope: str              # one of SCOPES
    kinds: tuple            # which record kinds it applies to
    severity: str           # what its findings are unless a finding says otherwise: "error" or "warning"
    fixer: str | None    # what `uasdb fmt` does about it, when it repairs it
    check: Callable | None  # None for problems the loader, the schema check or the waiver check report
    example: str = ""       # a message it prints, for the rule tables in docs/rules.md

    @property
    def fixable(self) -> bool:
        return self.fixer is not None


_REGISTRY: dict[str, Rule] = {}


def _register(entry: Rule) -> None:
    if entry.id in _REGISTRY:
        raise ValueError(f"rule id {entry.id} registered twice")
    if entry.scope not in SCOPES or entry.severity not in (ERROR, WARNING):
        raise ValueError(f"rule {entry.id}: scope {entry.scope!r} or severity {entry.severity!r} is not known")
    _REGISTRY[entry.id] = entry


def rule(rule_id: str, description: str, scope: str = "record", kinds=("adapter",), severity: str = ERROR,
         fixer: str | None = None, example: str = ""):
    def register(function: Callable) -> Callable:
        _register(Rule(rule_id, description, scope, tuple(kinds), severity, fixer, function, example))
        return function
    return register


def declare(rule_id: str, description: str, scope: str, severity: str = ERROR, fixer: str | None = None,
            example: str = "") -> str:
    """Register a problem id that code outside the rule functions reports; returns the id for that code to use."""
    _register(Rule(rule_id, description, scope, ALL_KINDS, severity, fixer, None, example))
    return rule_id


def all_rules() -> list[Rule]:
    for name in RULE_MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return sorted(_REGISTRY.values(), key=lambda r: r.id)


def checking_rules() -> list[Rule]:
    """The rules `check` runs over loaded records (the rest are reported while reading or by the schema)."""
    return [r for r in all_rules() if r.check is not None]


def rule_by_id(rule_id: str) -> Rule | None:
    return {r.id: r for r in all_rules()}.get(rule_id)
