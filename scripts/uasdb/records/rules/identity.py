"""Identity: the file name is the id is the URL slug; ids, aliases and shop codes are unique."""
import re
from pathlib import Path
from typing import Any

from ..problems import FieldPath, Finding
from . import rule


@rule("id-matches-filename", "`id` equals the file name without .yaml", kinds=("adapter", "chipset", "distribution"),
      example='id `not-the-file-name` differs from the file name `wrong-name.yaml` — set `id: wrong-name` or rename the file')
def id_matches_filename(record, ctx):
    stem = Path(record.path).stem
    record_id = record.data.get("id")
    if record_id != stem:
        # Only ever suggest a name that is itself a valid id (lowercase letters, digits, single hyphens).
        options = []
        if VALID_ID.match(stem):
            options.append(f"set `id: {stem}`")
        if isinstance(record_id, str) and VALID_ID.match(record_id):
            options.append(f"rename the file to `{record_id}.yaml`")
        if not options:
            slug = _slug(record_id if isinstance(record_id, str) and record_id else stem)
            options.append(f"name both `{slug}` (`id: {slug}` in `{slug}.yaml`)" if slug else
                           "choose an id of lowercase letters, digits and single hyphens, and name the file after it")
        yield Finding(("id",), f"id `{record_id}` differs from the file name `{stem}.yaml`", " or ".join(options))


VALID_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\Z")


def _slug(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


@rule("unique-ids", "ids and aliases are unique among records of one kind, and no alias is its own record's id", scope="tree", kinds=("adapter", "chipset", "distribution"),
      example='aliases[0]: `acme-box` is already used by data/adapters/acme-box.yaml')
def unique_ids(records, ctx):
    for kind in ("adapter", "chipset", "distribution"):
        of_kind = [r for r in records if r.kind == kind]
        # Ids claim their names before aliases do, so the alias is the one reported as the clash.
        names: list[tuple[Any, FieldPath, Any]] = [(r, ("id",), r.data.get("id")) for r in of_kind]
        names += [(r, ("aliases", i), a) for r in of_kind for i, a in enumerate(r.data.get("aliases", []))]
        for record in of_kind:
            for index, alias in enumerate(record.data.get("aliases", [])):
                if alias == record.data.get("id"):
                    yield record, Finding(("aliases", index), f"the alias `{alias}` is this record's own id",
                                          "remove it: an alias is a former id, whose address redirects here")
        seen: dict[str, Any] = {}  # name -> the record that claimed it first
        for record, field, name in names:
            if not isinstance(name, str):
                continue
            if name in seen and seen[name] is not record:
                yield record, Finding(field, f"`{name}` is already used by {seen[name].path}",
                                      "pick another id, or remove the alias from one of the records")
            else:
                seen.setdefault(name, record)


# Shop codes that name one listing or one article: an ASIN is one Amazon product page, an EAN one barcode. (A maker's
# part number is left out: two makers can use the same string.)
UNIQUE_PRODUCT_CODES = ("asin", "ean")


@rule("product-code-unique", "an ASIN or EAN names one product, so it is in one adapter record", scope="tree",
      example="product_codes.asin[0]: B07MNFH1PX is also given by ssk-m2-nvme-sata-enclosure-usb32-gen2 — re-read both "
              "sources: merge the records if they are one product, else keep the code on the product the listing sells")
def product_code_unique(records, ctx):
    holders: dict[tuple[str, str], list[tuple[Any, int]]] = {}  # (kind, code) -> (record, index)
    for record in records:
        codes = record.data.get("product_codes")
        for kind in UNIQUE_PRODUCT_CODES:
            values = codes.get(kind) if isinstance(codes, dict) else None
            for index, code in enumerate(values if isinstance(values, list) else []):
                if isinstance(code, str):
                    holders.setdefault((kind, code), []).append((record, index))
    for (kind, code), places in holders.items():
        ids = [record.data.get("id") for record, _ in places]
        if len(set(ids)) < 2:
            continue  # one record giving a code twice is the schema's uniqueItems
        for record, index in places:
            others = sorted({i for i in ids if i != record.data.get("id")})
            yield record, Finding(("product_codes", kind, index), f"{code} is also given by {', '.join(others)}",
                                  "re-read both sources: merge the records if they are one product, else keep the code on "
                                  "the product the listing sells and say in `notes` what it sold before")


@rule("schema-comment", "the first line points editors at the schema", kinds=("adapter", "chipset", "distribution"),
      fixer="writes the schema comment as line 1",
      example='the first line is not the schema comment — make line 1 `# yaml-language-server: $schema=…`')
def schema_comment(record, ctx):
    expected = f"# yaml-language-server: $schema=../../schema/{record.kind}.schema.json"
    first = record.text.split("\n", 1)[0]
    if first != expected:
        yield Finding((), "the first line is not the schema comment", f"make line 1 `{expected}` (`uasdb fmt` adds it)")


# Names Windows keeps for devices, whatever follows the dot: `con.yaml` cannot be checked out there, and the site's
# /adapters/con/ folder cannot be built there either.
WINDOWS_DEVICE_NAMES = re.compile(r"(?:con|prn|aux|nul|com[0-9]|lpt[0-9])\Z")


@rule("id-portable", "ids and aliases are not names Windows keeps for devices (`con`, `nul`, `com1`, …)",
      kinds=("adapter", "chipset", "distribution"),
      example="id: `con` is a device name on Windows: `con.yaml` cannot be checked out there — choose another id, e.g. `con-2`")
def id_portable(record, ctx):
    names = [(("id",), Path(record.path).stem)] + [(("aliases", i), a) for i, a in enumerate(record.data.get("aliases", []))]
    for field, name in names:
        if isinstance(name, str) and WINDOWS_DEVICE_NAMES.match(name.lower()):
            yield Finding(field, f"`{name}` is a device name on Windows: `{name}.yaml` cannot be checked out there",
                          f"choose another id, e.g. `{name}-2`")
