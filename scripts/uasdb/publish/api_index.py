"""The endpoints of the JSON API, for its index page `/api/v1/` (site/layouts/api-index.html prints them).

API.md's table of URLs is the one place each endpoint is described; `schema/api.schema.json`'s `x-uasdb-files`
names the definition each file follows. This joins the two, so the page says what API.md says and links the
schema the tests check the files against (tests/test_api_index.py holds the two to the same list of files).
"""
from __future__ import annotations

import json
import re
from typing import Any

from ..paths import REPO_ROOT, SCHEMA_DIR

API_DOC = REPO_ROOT / "API.md"
API_SCHEMA = SCHEMA_DIR / "api.schema.json"
API_PREFIX = "/api/v1/"
# A row of API.md's table of URLs: | `/api/v1/adapters.json` | every adapter, … |
_ROW = re.compile(r"^\| `(?P<url>/[^`]+)` \| (?P<what>.+?) \|$", re.M)


class ApiDocError(ValueError):
    """API.md or the API schema do not describe the same files."""


def documented_urls(doc: str) -> list[dict[str, str]]:
    """API.md's table of URLs, in its order: [{"url", "what"}] with `what` as the Markdown it is written in."""
    return [{"url": m["url"], "what": m["what"].strip()} for m in _ROW.finditer(doc)]


def endpoints(doc: str | None = None, schema: dict[str, Any] | None = None,
              examples: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Every endpoint with its one line from API.md and its schema definition (`null` for the CSV, which has none).
    `examples` maps a templated file (`adapters/<id>.json`) to one real file of this export, so the page links one.
    Raises ApiDocError when a file of the schema has no row in API.md, or a JSON row no entry in the schema."""
    doc = API_DOC.read_text(encoding="utf-8") if doc is None else doc
    schema = json.loads(API_SCHEMA.read_text(encoding="utf-8")) if schema is None else schema
    files: dict[str, str] = schema["x-uasdb-files"]
    rows = documented_urls(doc)
    out = []
    for row in rows:
        url = row["url"]
        name = url[len(API_PREFIX):] if url.startswith(API_PREFIX) else None
        if name is not None and name not in files:
            raise ApiDocError(f"API.md lists {url}, which schema/api.schema.json's x-uasdb-files does not name")
        pointer = files.get(name) if name is not None else None
        example = (examples or {}).get(name or "")
        what = row["what"] if row["what"].endswith(".") else row["what"] + "."
        out.append({"url": url, "what": what, "templated": "<" in url,
                    "example": f"{API_PREFIX}{example}" if example else None,
                    "schema": f"/schema/{API_SCHEMA.name}{pointer}" if pointer else None})
    missing = sorted(set(files) - {r["url"][len(API_PREFIX):] for r in rows if r["url"].startswith(API_PREFIX)})
    if missing:
        raise ApiDocError(f"schema/api.schema.json names {', '.join(missing)}, which API.md's table of URLs does not list")
    return out


def index_model(site: dict[str, Any]) -> dict[str, Any]:
    """What the `/api/v1/` page prints: the endpoints, the templated ones that name a record with an example file
    of this export (the ID and usb.ids shards are reached through shards.json, which lists them)."""
    examples: dict[str, str] = {}
    if site.get("adapters"):  # the adapter with the most reports, and the ID the most products report
        adapter = max(site["adapters"], key=lambda a: len(a.get("reports", [])))
        examples["adapters/<id>.json"] = f"adapters/{adapter['id']}.json"
    if site.get("usb"):
        slot = max(site["usb"].values(), key=lambda s: len(s.get("adapters", [])))
        examples["usb/<vid>/<pid>.json"] = f"usb/{slot['vid']}/{slot['pid']}.json"
    if site.get("chipsets"):  # the chip the most adapters use
        chip = max(site["chipsets"], key=lambda c: (len(c.get("adapters", [])), c["id"]))
        examples["chipsets/<id>.json"] = f"chipsets/{chip['id']}.json"
    for name in site.get("buy_order", [])[:1]:  # the first what-to-buy page
        examples["buy/<slug>.json"] = f"buy/{site['buy'][name]['slug']}.json"
    return {"endpoints": endpoints(examples=examples)}
