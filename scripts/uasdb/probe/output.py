"""The report as YAML, written by hand (no PyYAML on a fresh Pi) in the layout `uasdb fmt` uses, and the
offline look-up of an ID in a local copy of the database."""
from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .assess import Finding
from .common import ProbeError
from .parsers import parse_lsusb, parse_lsusb_tree, storage_interfaces
from .system import Device, System

_PLAIN_SAFE = re.compile(r"^[a-z][a-z0-9-]*$|^[0-9]+M$")
_YAML_WORDS = {"yes", "no", "on", "off", "true", "false", "null", "y", "n"}
_YAML_BREAKS = "\u0085\u2028\u2029"  # line breaks to YAML 1.1 readers (and to JavaScript, for the last two)


def yaml_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if _PLAIN_SAFE.match(text) and text not in _YAML_WORDS:
        return text
    # A JSON string is a valid YAML double-quoted scalar. Characters some YAML readers take for line breaks are
    # escaped, so no reader sees a break the text did not have.
    return "".join(f"\\u{ord(ch):04x}" if ch in _YAML_BREAKS else ch for ch in json.dumps(text, ensure_ascii=False))


def yaml_block(text: str, indent: int) -> List[str]:
    """A literal block (`|-`) holding `text` verbatim; tabs become spaces (the loader refuses tabs)."""
    clean = "".join(ch for ch in text.replace("\t", "    ")
                    if ch == "\n" or (ch >= " " and ch not in _YAML_BREAKS and not "\x7f" <= ch <= "\x9f")).rstrip("\n")
    lines = clean.split("\n")
    header = "|-" if not lines[0].startswith(" ") else "|2-"
    return [header] + [(" " * indent + line) if line.strip() else "" for line in lines]


def yaml_mapping(data: Dict[str, Any], indent: int, comments: Optional[Dict[str, str]] = None) -> List[str]:
    out: List[str] = []
    pad = " " * indent
    for key, value in data.items():
        comment = f"  # {comments[key]}" if comments and key in comments else ""
        if isinstance(value, dict):
            out.append(f"{pad}{key}:{comment}")
            out.extend(yaml_mapping(value, indent + 2))
        elif isinstance(value, list):
            out.append(f"{pad}{key}:{comment}")
            for item in value:
                if isinstance(item, dict):
                    inner = yaml_mapping(item, indent + 4)
                    out.append(f"{pad}  - " + inner[0].lstrip())
                    out.extend(inner[1:])
                else:
                    out.append(f"{pad}  - {yaml_scalar(item)}")
        elif isinstance(value, str) and "\n" in value:
            block = yaml_block(value, indent + 2)
            out.append(f"{pad}{key}: {block[0]}{comment}")
            out.extend(block[1:])
        else:
            out.append(f"{pad}{key}: {yaml_scalar(value)}{comment}")
    return out


def report_dict(device: Device, system: System, finding: Finding, handle: Optional[str], today: datetime.date,
                evidence_probe: str, throughput: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One report in schema key order."""
    report: Dict[str, Any] = {"date": today.isoformat(),
                              "source": {"tested_by": handle or "<your GitHub handle>"}}
    if system.host:
        report["host"] = system.host
    else:
        report["host"] = "<host: pi4, pi5, linux-x86_64, ...>"
    if system.model:
        report["host_detail"] = system.model
    if system.os_name:
        report["os"] = system.os_name
    if system.kernel:
        report["kernel"] = system.kernel
    if system.bootloader and system.host and system.host.startswith(("pi", "cm")):
        report["bootloader"] = system.bootloader
    report["usb_id"] = device.usb_id
    if device.bcd_device:
        report["bcd_device"] = device.bcd_device
    report.update({k: finding.fields[k] for k in ("link_speed", "driver", "uas", "quirks") if k in finding.fields})
    if throughput:
        report["throughput"] = throughput
    evidence: Dict[str, str] = {}
    lsusb_lines = [e["line"] for e in parse_lsusb(system.lsusb or "") if f"{e['vid']}:{e['pid']}" == device.usb_id]
    if lsusb_lines:
        evidence["lsusb"] = "\n".join(lsusb_lines)
    if system.lsusb_t and storage_interfaces(parse_lsusb_tree(system.lsusb_t)):
        evidence["lsusb_t"] = system.lsusb_t.strip("\n")[:4000]
    if system.dmesg and system.dmesg["lines"]:
        evidence["dmesg"] = "\n".join(system.dmesg["lines"][-120:])[-20000:]
    evidence["probe"] = evidence_probe[:20000]
    report["evidence"] = evidence
    return report


def report_text(report: Dict[str, Any], comments: Dict[str, str]) -> List[str]:
    # The layout `uasdb fmt` writes under `reports:`, so the block can be pasted as it is.
    lines = yaml_mapping(report, 4, comments)
    lines[0] = "  - " + lines[0].lstrip()
    if report["source"]["tested_by"].startswith("<"):
        lines.insert(0, "# set tested_by to your GitHub handle (or run the probe with --handle NAME)")
    for key, comment in comments.items():  # hints for fields the probe could not fill in
        if key not in report:
            lines.append(f"    # {key}: {comment}")
    return lines


def slugify(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:80].strip("-")


def skeleton_text(device: Device, report_lines: List[str]) -> Tuple[str, List[str]]:
    """A new adapter file around the report. Facts the probe cannot know are left empty with a hint,
    so `uasdb validate` stops until a person fills them in."""
    strings = " ".join(s for s in (device.manufacturer, device.product) if s)
    record_id = slugify(strings) or f"unknown-{device.vid}-{device.pid}"
    lines = [
        "# yaml-language-server: $schema=../../schema/adapter.schema.json",
        f"# Started by `uasdb probe` from what {device.usb_id} reports. Rename the file and id to the product",
        "# (vendor-model, lowercase with hyphens), fill in the empty fields, then run `uasdb validate`.",
        f"id: {record_id}",
        f"name: {json.dumps(strings or 'USB storage adapter ' + device.usb_id, ensure_ascii=False)}"
        "  # the name a buyer would search for",
        'kind: ""  # enclosure, cable-adapter, dock, multi-bay-enclosure, portable-ssd, portable-hdd, pi-board, pi-case, adapter-board, flash-drive',
        'drive_interface: ""  # sata, nvme, msata, m2-sata, nvme-sata',
        "usb_ids:",
        f'  - vid: "{device.vid}"',
        f'    pid: "{device.pid}"',
    ]
    if device.manufacturer:
        lines.append(f"    manufacturer_string: {json.dumps(device.manufacturer, ensure_ascii=False)}")
    if device.product:
        lines.append(f"    product_string: {json.dumps(device.product, ensure_ascii=False)}")
    lines.append("reports:")
    lines.extend(report_lines)
    return record_id, lines


# ---------------------------------------------------------------------------
# Looking the adapter up in a local copy of the database (offline).
# ---------------------------------------------------------------------------

def load_index(data_dir: Optional[Path], api_file: Optional[Path]) -> Optional[Dict[str, List[str]]]:
    """`vid:pid` -> adapter ids, from the API's adapters.json or from data/adapters/*.yaml.

    The YAML files are scanned with two regular expressions (id, and vid/pid pairs) rather than
    parsed, so the probe needs no YAML library; records written by `uasdb fmt` always match them."""
    index: Dict[str, List[str]] = {}
    if api_file is not None:
        try:
            payload = json.loads(api_file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ProbeError(f"cannot read {api_file}: {exc} (expected the site's api/v1/adapters.json)") from None
        adapters = payload.get("result", payload) if isinstance(payload, dict) else payload
        for adapter in adapters if isinstance(adapters, list) else []:
            for usb_id in adapter.get("usb_ids", []):
                index.setdefault(f"{usb_id['vid']}:{usb_id['pid']}", []).append(adapter["id"])
        return index
    if data_dir is None:
        return None  # nothing to look up in: say nothing rather than "unknown"
    for path in sorted((data_dir / "adapters").glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        id_match = re.search(r"^id:\s*[\"']?([a-z0-9-]+)", text, re.M)
        record_id = id_match.group(1) if id_match else path.stem
        for vid, pid in re.findall(r"vid:\s*[\"']?([0-9a-f]{4})[\"']?\s*\n\s*pid:\s*[\"']?([0-9a-f]{4})", text):
            ids = index.setdefault(f"{vid}:{pid}", [])
            if record_id not in ids:
                ids.append(record_id)
    return index


def default_data_dir() -> Optional[Path]:
    """data/ of the checkout this file sits in (scripts/uasdb/probe/, or a stand-alone probe.py saved in a
    checkout), when there is one: the nearest folder above with data/adapters in it."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "data" / "adapters").is_dir():
            return folder / "data"
    return None
