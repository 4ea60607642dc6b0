"""Small reference tables for rule tests: the fixture kernel tree and usb.ids excerpt, not data/."""
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import yaml

from uasdb.ingest.importers import drivedb, kernel, usbids
from uasdb.records.database import Record
from uasdb.records.loader import load_text
from uasdb.records.problems import field_path_text
from uasdb.records.reference import DriveDb, KernelTable, UsbIds
from uasdb.records.rules import all_rules

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@cache
def fixture_kernel() -> KernelTable:
    data = kernel.parse_kernel(kernel.read_sources(FIXTURES / "kernel-tree"))
    return KernelTable.from_dict(yaml.safe_load(kernel.render(data, "test", None)))


@cache
def fixture_usbids() -> UsbIds:
    parsed = usbids.parse_usbids((FIXTURES / "usb-ids" / "usb.ids").read_text(encoding="utf-8"), "usb.ids")
    return UsbIds(parsed["version"], parsed["vendors"], parsed["products"])


@cache
def fixture_drivedb() -> DriveDb:
    return DriveDb.from_dict(drivedb.parse_drivedb((FIXTURES / "drivedb" / "drivedb.h").read_text(encoding="utf-8"), "drivedb.h"))


def findings(rule_id: str, record: dict, kind: str = "adapter"):
    """What one rule says about one record, checked against the fixture tables."""
    [rule] = [r for r in all_rules() if r.id == rule_id]
    loaded = load_text(f"data/{kind}s/{record['id']}.yaml", yaml.safe_dump(record, sort_keys=False).encode())
    ctx = SimpleNamespace(kernel=fixture_kernel(), usbids=fixture_usbids())
    return list(rule.check(Record(kind, loaded), ctx))


def hits(rule_id: str, record: dict, kind: str = "adapter"):
    return [field_path_text(f.field) for f in findings(rule_id, record, kind)]
