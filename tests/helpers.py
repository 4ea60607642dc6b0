"""Shared test helpers: build a tiny data tree from dicts and check it with a fixed 'today'."""
from __future__ import annotations

import copy
import datetime
from pathlib import Path
from typing import Dict, Iterable, List

import yaml

from uasdb.records.database import check
from uasdb.tools.synth import RecordDumper  # quotes what YAML 1.1 or 1.2 would misread, e.g. '0578'

TODAY = datetime.date(2026, 11, 21)
REPO = Path(__file__).resolve().parents[1]

BASE_ADAPTER: Dict = {
    "id": "acme-box",
    "name": "Acme Box USB 3.0 SATA enclosure",
    "kind": "enclosure",
    "drive_interface": "sata",
    "chipset": "jms578",
    "usb_ids": [{"vid": "152d", "pid": "0578"}],
    "reports": [{
        "date": "2021-03-04",
        "source": {"url": "https://example.org/thread/1"},
        "host": "pi4",
        "driver": "uas",
        "uas": "works",
    }],
}
BASE_CHIPSET: Dict = {
    "id": "jms578", "name": "JMS578", "maker": "JMicron", "drive_interface": "sata", "uas": True,
    "sources": ["https://example.org/jms578"],
}


def adapter(**changes) -> Dict:
    """BASE_ADAPTER with top-level changes; `report` merges into the first report."""
    record = copy.deepcopy(BASE_ADAPTER)
    report_changes = changes.pop("report", None)
    record.update(changes)
    if report_changes is not None:
        record["reports"][0].update(report_changes)
        record["reports"][0] = {k: v for k, v in record["reports"][0].items() if v is not None}
    return {k: v for k, v in record.items() if v is not None}


def write_tree(root: Path, adapters: Iterable[Dict] = (), chipsets: Iterable[Dict] = (BASE_CHIPSET,)) -> Path:
    data = root / "data"
    for kind, records in (("adapters", adapters), ("chipsets", chipsets)):
        folder = data / kind
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            text = f"# yaml-language-server: $schema=../../schema/{kind[:-1]}.schema.json\n"
            text += yaml.dump(record, Dumper=RecordDumper, sort_keys=False, allow_unicode=True)
            (folder / f"{record['id']}.yaml").write_text(text, encoding="utf-8")
    return data


def problems_in(root: Path, adapters: Iterable[Dict] = (), chipsets: Iterable[Dict] = (BASE_CHIPSET,)) -> List:
    data = write_tree(root, adapters, chipsets)
    return check([data], today=TODAY).problems


def rule_hits(problems, rule_id: str) -> List[str]:
    """Field paths (as text) where `rule_id` fired."""
    from uasdb.records.problems import field_path_text
    return [field_path_text(p.field) for p in problems if p.rule == rule_id]
