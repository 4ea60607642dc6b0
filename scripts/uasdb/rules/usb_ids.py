"""USB IDs: shared IDs are normal but worth a note; reports name IDs the record lists."""
from ..problems import WARNING, Finding
from . import rule


def id_text(usb_id):
    return f"{usb_id.get('vid')}:{usb_id.get('pid')}"


@rule("shared-usb-id", "the same USB ID in two adapter records (IDs are often shared)", scope="tree", severity=WARNING,
      example='152d:0578 is also listed by shares-an-id — fine when the products share a bridge')
def shared_usb_id(records, ctx):
    owners = {}
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
