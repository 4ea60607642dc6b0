"""`uasdb new --usb VID:PID`: start a record from what the database already knows about that ID."""
from __future__ import annotations

import datetime
import re
import sys

from ..paths import DATA_DIR
from ..records.database import check

USB_ID = re.compile(r"^(?:0x)?([0-9a-fA-F]{4})[:\s]?(?:0x)?([0-9a-fA-F]{4})$")


def parse_usb_id(text: str) -> tuple | None:
    """Accept 152d:0578, 152D:0578, 152d0578 or '0x152d 0x0578'."""
    match = USB_ID.match(text.strip())
    return (match.group(1).lower(), match.group(2).lower()) if match else None


def slugify(text: str) -> str:
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text.lower())).strip("-")[:80].strip("-")


def scaffold_text(vid: str, pid: str, name: str | None, known_chipsets: list[dict], sharing: list[str],
                  today: datetime.date) -> tuple:
    record_id = slugify(name) if name else f"unknown-{vid}-{pid}"
    chipset = known_chipsets[0] if len(known_chipsets) == 1 else None
    lines = [
        "# yaml-language-server: $schema=../../schema/adapter.schema.json",
        "# Started by `uasdb new`. Fill in what you know, delete what you do not, then run `uasdb validate`.",
    ]
    if sharing:
        lines.append(f"# {vid}:{pid} is already listed by: {', '.join(sharing)} — if it is the same product, add a report there instead.")
    if len(known_chipsets) > 1:
        lines.append(f"# chipsets known to use {vid}:{pid}: {', '.join(c['id'] for c in known_chipsets)} — pick one if you know which.")
    lines += [
        f"id: {record_id}",
        f"name: {_quote(name) if name else _quote(f'Unknown USB storage adapter ({vid}:{pid})')}",
        "# vendor: Brand on the box",
        "# model: \"Model number\"",
        "kind: enclosure  # enclosure, cable-adapter, dock, multi-bay-enclosure, portable-ssd, portable-hdd, pi-board, pi-case, adapter-board, flash-drive",
        "drive_interface: sata  # sata, nvme, msata, m2-sata, nvme-sata",
    ]
    if chipset:
        lines.append(f"chipset: {chipset['id']}  # {chipset['name']}, known to use {vid}:{pid}")
    lines += [
        "usb_ids:",
        f"  - vid: \"{vid}\"",
        f"    pid: \"{pid}\"",
        "reports:",
        f"  - date: \"{today.isoformat()}\"",
        "    source:",
        "      url: https://  # the page where this was reported, or replace with tested_by: <your GitHub handle>",
        "    host: pi4  # pi4, pi400, cm4, pi5, pi3, linux-x86_64, macos, ...",
        "    # link_speed: 5000M  # from `lsusb -t`",
        "    # driver: uas  # from `lsusb -t`: uas or usb-storage",
        "    # uas: works  # works, works-with-quirk (+ quirks: u), broken, device-no-uas, host-no-uas",
        "    # evidence:",
        "    #   lsusb_t: \"|__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M\"",
    ]
    return record_id, "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_new(usb: str, name: str | None, force: bool) -> int:
    parsed = parse_usb_id(usb)
    if not parsed:
        print(f"uasdb new: `{usb}` is not a USB ID — give it as lsusb prints it, e.g. 152d:0578", file=sys.stderr)
        return 2
    vid, pid = parsed
    result = check()
    chipsets = [r.data for r in result.records if r.kind == "chipset"
                and any(u.get("vid") == vid and u.get("pid") == pid for u in r.data.get("usb_ids", []))]
    sharing = sorted(r.data["id"] for r in result.records if r.kind == "adapter"
                     and any(u.get("vid") == vid and u.get("pid") == pid for u in r.data.get("usb_ids", [])))
    record_id, text = scaffold_text(vid, pid, name, chipsets, sharing, datetime.date.today())
    if not record_id:
        print("uasdb new: the name has no letters or digits to make an id from — give another --name", file=sys.stderr)
        return 2
    target = DATA_DIR / "adapters" / f"{record_id}.yaml"
    if target.exists() and not force:
        print(f"uasdb new: {target} exists — add your report to it, or pass --force to overwrite", file=sys.stderr)
        return 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(DATA_DIR.parent)}" + (f" (chipset {chipsets[0]['id']} filled in)" if len(chipsets) == 1 else ""))
    if sharing:
        print(f"note: {vid}:{pid} is also in {', '.join(sharing)}")
    return 0
