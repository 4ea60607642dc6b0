"""USB IDs: shared IDs are normal but worth a note; reports name IDs the record lists."""
import re
from typing import Any

from ..problems import WARNING, Finding
from . import rule


def id_text(usb_id):
    return f"{usb_id.get('vid')}:{usb_id.get('pid')}"


@rule("shared-usb-id", "the same USB ID in two adapter records (IDs are often shared)", scope="tree", severity=WARNING,
      example='152d:0578 is also listed by shares-an-id — fine when the products share a bridge')
def shared_usb_id(records, ctx):
    owners: dict[str, list[tuple[Any, int]]] = {}  # USB ID -> (record, index in its usb_ids)
    for record in (r for r in records if r.kind == "adapter"):
        for index, usb_id in enumerate(record.data.get("usb_ids", [])):
            owners.setdefault(id_text(usb_id), []).append((record, index))
    for usb_id, places in owners.items():
        if len(places) < 2:
            continue
        for record, index in places:
            others = sorted({r.data.get("id") for r, _ in places if r is not record})
            if others:
                yield record, Finding(("usb_ids", index), f"{usb_id} is also listed by {', '.join(others)}",
                                      "fine when the products share a bridge; make sure both really report this ID", WARNING)


@rule("report-usb-id-listed", "a report's `usb_id` is one of the record's `usb_ids`",
      example="174c:55aa is not in this record's usb_ids — add it to `usb_ids:` or correct the report")
def report_usb_id_listed(record, ctx):
    listed = {id_text(u) for u in record.data.get("usb_ids", [])}
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("usb_id") and report["usb_id"] not in listed:
            yield Finding(("reports", index, "usb_id"), f"{report['usb_id']} is not in this record's usb_ids",
                          "add it to `usb_ids:` or correct the report")


@rule("usb-id-unique-in-record", "a USB ID appears once in a record",
      example='152d:0578 is listed twice — remove the repeat')
def usb_id_unique_in_record(record, ctx):
    seen = set()
    for index, usb_id in enumerate(record.data.get("usb_ids", [])):
        text = id_text(usb_id)
        if text in seen:
            yield Finding(("usb_ids", index), f"{text} is listed twice", "remove the repeat (use bcd_device ranges for firmware variants)")
        seen.add(text)


# Where attached output names a device: `lsusb` (`ID 174c:5106`), dmesg (`idVendor=174c, idProduct=5106`, and
# usb-storage's `Quirks match for vid 152d pid 0567`), the probe (`bridge (152d:0578)`).
_EVIDENCE_ID = re.compile(r"\bID ([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\b"
                          r"|idVendor=([0-9a-fA-F]{4}), idProduct=([0-9a-fA-F]{4})"
                          r"|\bvid ([0-9a-f]{4}) pid ([0-9a-f]{4})\b"
                          r"|\(([0-9a-f]{4}):([0-9a-f]{4})\)")
_DMESG_DEVICE = re.compile(r"\busb (\d+-[\d.]+): New USB device found, idVendor=([0-9a-fA-F]{4}), idProduct=([0-9a-fA-F]{4})")
_DMESG_HUB = re.compile(r"\bhub (\d+-[\d.]+):1\.0: USB hub found")
_HUB_WORD = re.compile(r"\bhub\b", re.IGNORECASE)
# Vendor 1d6b is the Linux Foundation's: every root hub (the host controller) reports one of its IDs.
ROOT_HUB_VENDOR = "1d6b"


def evidence_ids(text: str):
    """(vid:pid, where its match ends in its line, the line) for every USB ID the output names, in order."""
    for line in text.splitlines():
        for match in _EVIDENCE_ID.finditer(line):
            vid, pid = [g for g in match.groups() if g is not None]
            yield f"{vid.lower()}:{pid.lower()}", match.end(), line


def hub_ids(text: str, ctx) -> set:
    """IDs the output itself shows to be hubs: lsusb names, `lsusb -tv` Class=Hub lines, dmesg `USB hub found`."""
    hubs, previous, dmesg_paths = set(), "", {}
    for line in text.splitlines():
        device = _DMESG_DEVICE.search(line)
        if device:
            dmesg_paths[device.group(1)] = f"{device.group(2).lower()}:{device.group(3).lower()}"
        hub = _DMESG_HUB.search(line)
        if hub and hub.group(1) in dmesg_paths:
            hubs.add(dmesg_paths[hub.group(1)])
        # Where the last `hub` of the line starts: an ID before it has the word in the rest of its line (found once
        # per line; searching the rest after every ID was quadratic on a line of IDs).
        last_hub = max((m.start() for m in _HUB_WORD.finditer(line)), default=-1)
        for usb_id, end, _ in evidence_ids(line):
            named = ctx.usbids.product(*usb_id.split(":")) or ""
            # `lsusb -tv` prints the ID under the device's Class= line, which decides; lsusb prints usb.ids' name.
            if "Class=" in previous:
                is_hub = "Class=Hub" in previous or "Class=root_hub" in previous
            else:
                is_hub = last_hub >= end or bool(_HUB_WORD.search(named))
            if is_hub:
                hubs.add(usb_id)
        previous = line
    return hubs


@rule("evidence-usb-id-listed", "a USB ID the attached output shows is in the record's `usb_ids`, unless it is a hub or root hub",
      severity=WARNING,
      example="the output shows 174c:5106, which is not in this record's usb_ids — add it to "
              "`usb_ids:` if this product reports it; if it is another device on the bus, trim its lines or waive it with the reason")
def evidence_usb_id_listed(record, ctx):
    listed = {id_text(u) for u in record.data.get("usb_ids", [])}
    for index, report in enumerate(record.data.get("reports", [])):
        evidence = report.get("evidence") or {}
        for kind, text in evidence.items():
            if not isinstance(text, str):
                continue
            hubs = hub_ids(text, ctx)
            unlisted: dict[str, None] = {}  # in order, each once
            for usb_id, _, _ in evidence_ids(text):
                if usb_id in listed or usb_id in hubs or usb_id.startswith(ROOT_HUB_VENDOR + ":"):
                    continue
                unlisted[usb_id] = None
            if unlisted:
                yield Finding(("reports", index, "evidence", kind),
                              f"the output shows {', '.join(list(unlisted)[:10])}{' …' if len(unlisted) > 10 else ''}, which {'is' if len(unlisted) == 1 else 'are'} "
                              "not in this record's usb_ids",
                              "add it to `usb_ids:` if this product reports it; if it is another device on the bus, trim "
                              "its lines or waive it with the reason", WARNING)
