"""The JSON API keeps its promise: every file the export writes matches schema/api.schema.json, whose objects are
closed, and every key the schema allows is documented in API.md. A key added to the export without both fails here."""
import json
import re
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from uasdb.publish.export import export_tree
from uasdb.publish.files import API as API_MODELS
from uasdb.publish.files import PUBLISHED_API

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "schema").glob("*.schema.json")}
API = SCHEMAS["api.schema.json"]
FIXTURES = Path(__file__).parent / "fixtures" / "site-data"


def _validator(pointer: str) -> jsonschema.Draft202012Validator:
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values())
    return jsonschema.Draft202012Validator({"$ref": f"{API['$id']}{pointer}"}, registry=registry,
                                           format_checker=jsonschema.FormatChecker())


def _definition_for(relative: str) -> str:
    """The schema entry of an API file, by its path under api/v1/ (`<id>`, `<vid>`, `<pid>` match one segment)."""
    for name, pointer in API["x-uasdb-files"].items():
        if re.fullmatch(re.sub(r"<[a-z]+>", "[^/]+", name.replace(".", r"\.")), relative):
            return pointer
    raise AssertionError(f"api/v1/{relative} has no entry in schema/api.schema.json's x-uasdb-files")


def _api_files(out: Path):
    """Every API file of an export in `out`, with its path under api/v1/: the pages' models and the rest."""
    for folder in (out / API_MODELS, out / PUBLISHED_API):
        for path in sorted(folder.rglob("*.json")):
            yield path, path.relative_to(folder).as_posix()


def _problems(out: Path):
    validators = {}
    problems, seen = [], set()
    for path, relative in _api_files(out):
        definition = _definition_for(relative)
        seen.add(definition)
        if definition not in validators:  # one validator per kind of file (made once: it resolves its $refs once)
            validators[definition] = _validator(definition)
        validator = validators[definition]
        for error in validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))):
            problems.append(f"{relative}: {'/'.join(map(str, error.absolute_path))}: {error.message}")
            if len(problems) > 20:
                return problems, seen
    return problems, seen


@pytest.fixture(scope="module")
def fixture_api(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    assert export_tree(out, [FIXTURES]) is not None
    return out


def test_every_api_file_of_the_fixture_export_matches_the_schema(fixture_api):
    problems, seen = _problems(fixture_api)
    assert problems == []
    assert seen == set(API["x-uasdb-files"].values())  # every kind of file was checked


@pytest.mark.realdata
def test_every_api_file_of_the_real_export_matches_the_schema(real_catalog):
    problems, _ = _problems(real_catalog.export_dir)
    assert problems == []


def test_an_undocumented_key_is_refused(fixture_api):
    path = next((fixture_api / API_MODELS / "usb").rglob("*.json"))
    envelope = json.loads(path.read_text(encoding="utf-8"))
    envelope["result"]["new_key"] = 1
    errors = list(_validator(API["x-uasdb-files"]["usb/<vid>/<pid>.json"]).iter_errors(envelope))
    assert [e.message for e in errors] == ["Additional properties are not allowed ('new_key' was unexpected)"]


def _closed_keys(node, found):
    if isinstance(node, dict):
        if node.get("additionalProperties") is False:
            found.update(k for k, v in node.get("properties", {}).items() if "$ref" not in v or "#/$defs/" in v["$ref"])
        for value in node.values():
            _closed_keys(value, found)
    elif isinstance(node, list):
        for value in node:
            _closed_keys(value, found)
    return found


def test_every_key_the_api_schema_allows_is_documented_in_api_md():
    # A key counts as documented when API.md names it in code: `key`, `a.key`, {"key", ...}.
    text = (ROOT / "API.md").read_text(encoding="utf-8")
    fences = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    spans = fences + re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    documented = {word for span in spans for word in re.findall(r"[a-z_0-9]+", span)}
    missing = sorted(_closed_keys(API["$defs"], set()) - documented)
    assert missing == []


def test_the_api_schema_is_a_valid_json_schema_at_the_address_its_id_names():
    jsonschema.Draft202012Validator.check_schema(API)
    # The site serves schema/ at /schema/ (site/hugo.yaml), which is where every $id points.
    assert {s["$id"] for s in SCHEMAS.values()} == {f"https://uasdb.github.io/schema/{name}" for name in SCHEMAS}
