"""JSON Schema validation, with the validator's findings rewritten as plain sentences.

The schema files in schema/ own the shape and vocabulary of records. A compiled
fast validator answers "is this record valid?"; only for records that are not do
we ask jsonschema for every error and turn each into a message that says how to
fix it.
"""
from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import fastjsonschema
import jsonschema

from ..paths import SCHEMA_DIR
from .loader import Loaded
from .problems import Problem

KINDS = ("adapter", "chipset", "distribution")


@cache
def load_schema(kind: str) -> dict[str, Any]:
    with open(SCHEMA_DIR / f"{kind}.schema.json", encoding="utf-8") as handle:
        return json.load(handle)


@cache
def _fast_validator(kind: str):
    # fastjsonschema speaks draft-07; our schemas use only keywords that mean the same there.
    schema = copy.deepcopy(load_schema(kind))
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fastjsonschema.compile(schema)


@cache
def _full_validator(kind: str):
    return jsonschema.Draft202012Validator(load_schema(kind))


def _describe(value: Any) -> str:
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


_JSON_TYPE_WORDS = {"string": "text", "number": "a number", "integer": "a whole number",
                    "boolean": "true or false", "array": "a list", "object": "a mapping of fields"}


def _example(subschema: dict[str, Any]) -> str | None:
    examples = subschema.get("examples")
    if not examples:
        return None
    example = examples[0]
    return json.dumps(example, ensure_ascii=False) if not isinstance(example, str) else f"'{example}'"


def _suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""


def _messages_for(error: jsonschema.ValidationError, loaded: Loaded) -> Iterator[Problem]:
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    validator = error.validator
    # The stubs allow jsonschema's Unset on these; a validator sets both on every error it yields.
    instance: Any = error.instance

    if validator == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        for key in sorted(set(instance) - set(allowed)):
            hint = _suggest(key, allowed)
            fix = hint + " " if hint else ""
            fix += "remove it, or use one of: " + ", ".join(allowed) if not hint else "rename it"
            yield loaded.problem(path + (key,), f"unknown field `{key}`", fix, "schema-unknown-field", at_key=True)
        return
    if validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else str(error.validator_value)
        sub = schema.get("properties", {}).get(missing, {})
        fix = f"add `{missing}:`" + (f" ({sub['description']})" if sub.get("description") else "")
        yield loaded.problem(path, f"required field `{missing}` is missing", fix, "schema-required")
        return
    if validator == "enum":
        choices: Any = error.validator_value
        hint = _suggest(instance, choices)
        fix = (hint + " " if hint else "") + "use one of: " + ", ".join(map(str, choices))
        yield loaded.problem(path, f"{_describe(instance)} is not an allowed value", fix, "schema-enum")
        return
    if validator == "type":
        wanted: Any = error.validator_value
        wanted_words = _JSON_TYPE_WORDS.get(wanted, wanted) if isinstance(wanted, str) else " or ".join(_JSON_TYPE_WORDS.get(w, w) for w in wanted)
        raw = loaded.plain_text.get(path)
        if wanted == "string" and raw is not None and raw != "":
            yield loaded.problem(path, f"YAML reads unquoted `{raw}` as {_describe(instance)}, but this field is text",
                                 f"quote it: '{raw}'", "schema-type")
        elif instance is None:
            yield loaded.problem(path, "the value is empty", "fill it in, or remove the field if it is unknown", "schema-type")
        else:
            example = _example(schema)
            yield loaded.problem(path, f"expected {wanted_words}, found {_describe(instance)}",
                                 f"write it like {example}" if example else f"write {wanted_words}", "schema-type")
        return
    if validator == "pattern":
        description = schema.get("description", "")
        example = _example(schema)
        fix = (description.rstrip(".") + "; " if description else "") + (f"for example {example}" if example else f"match {error.validator_value}")
        if isinstance(instance, str) and instance.lower().startswith(("javascript:", "data:", "http:", "vbscript:")):
            yield loaded.problem(path, f"link {instance[:40]!r} is not an https URL", "use an https:// link", "schema-pattern")
        else:
            yield loaded.problem(path, f"{_describe(instance)} is not in the expected form", fix, "schema-pattern")
        return
    if validator in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "uniqueItems",
                     "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        limits = {
            "minLength": f"is shorter than {error.validator_value} characters",
            "maxLength": f"is longer than {error.validator_value} characters",
            "minItems": f"needs at least {error.validator_value} item(s)",
            "maxItems": f"has more than {error.validator_value} items",
            "minProperties": "is empty",
            "uniqueItems": "repeats an item",
            "minimum": f"is below {error.validator_value}",
            "maximum": f"is above {error.validator_value}",
            "exclusiveMinimum": f"must be greater than {error.validator_value}",
            "exclusiveMaximum": f"must be less than {error.validator_value}",
        }
        hint = schema.get("description", "")
        if validator == "minProperties" and "source" in path:
            hint = "give `url:` for a public page, or `tested_by:` with `evidence:` for a test done for this repository"
        yield loaded.problem(path, f"this value {limits[validator]}", hint or "see the schema description", "schema-" + validator.lower())
        return
    yield loaded.problem(path, error.message, "see schema/ for the allowed form", "schema-" + str(validator).lower())


def schema_problems(kind: str, loaded: Loaded) -> list[Problem]:
    """Every schema violation in one record, as readable problems (empty when valid)."""
    try:
        _fast_validator(kind)(loaded.data)
        return []
    except fastjsonschema.JsonSchemaValueException:
        pass
    problems: list[Problem] = []
    for error in sorted(_full_validator(kind).iter_errors(loaded.data), key=lambda e: list(map(str, e.absolute_path))):
        problems.extend(_messages_for(error, loaded))
    if not problems:  # the two validators disagree: report rather than pass silently
        problems.append(loaded.problem((), "record failed schema validation", "report it as a uasdb bug with this file attached: the two schema validators disagree about it", "schema-internal"))
    return problems
