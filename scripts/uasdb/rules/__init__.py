"""Rules a schema cannot express. Each is a plain function registered with an id.

Record rules are `rule(record, ctx) -> Iterable[Finding]`; tree rules see every
record at once and yield `(record, Finding)` pairs. The modules listed in
RULE_MODULES register themselves on import; `all_rules()` is the catalogue that
CONTRIBUTING.md documents and `uasdb rules` prints.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Dict, List

RULE_MODULES = ("identity", "references", "usb_ids", "quirks", "reports", "evidence", "dates", "markdown", "throughput",
                "kernel_quirks", "usb_names", "text", "distributions")


@dataclass(frozen=True)
class Rule:
    id: str
    description: str
    scope: str          # "record" or "tree"
    kinds: tuple        # which record kinds it applies to
    fixable: bool
    check: Callable


_REGISTRY: Dict[str, Rule] = {}


def rule(rule_id: str, description: str, scope: str = "record", kinds=("adapter",), fixable: bool = False):
    def register(function: Callable) -> Callable:
        if rule_id in _REGISTRY:
            raise ValueError(f"rule id {rule_id} registered twice")
        _REGISTRY[rule_id] = Rule(rule_id, description, scope, tuple(kinds), fixable, function)
        return function
    return register


def all_rules() -> List[Rule]:
    for name in RULE_MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return sorted(_REGISTRY.values(), key=lambda r: r.id)
