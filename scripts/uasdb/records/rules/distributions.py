"""Distribution quirk lists: letters the kernel knows, each USB ID once, entries in date order."""

from ..problems import Finding
from . import rule
from .quirks import unknown_letters


@rule("distribution-flags-known", "every letter a distribution sets is in the kernel's usb-storage.quirks table",
      kinds=("distribution",),
      example="entries[3].flags: unknown quirk letter(s) z — copy the letters exactly from the distribution's file; the kernel knows a=SANE_SENSE, …")
def distribution_flags_known(record, ctx):
    for index, entry in enumerate(record.data.get("entries", [])):
        yield from unknown_letters(entry.get("flags", ""), ("entries", index, "flags"), ctx,
                                   "copy the letters exactly from the distribution's file; the kernel knows")


@rule("distribution-entry-unique", "a distribution lists each USB ID once (the kernel would use only the first)",
      kinds=("distribution",),
      example='entries[5]: 152d:0578 is already entry 2 — …')
def distribution_entry_unique(record, ctx):
    first: dict[str, int] = {}  # USB ID -> index of its first entry
    for index, entry in enumerate(record.data.get("entries", [])):
        usb_id = f"{entry.get('vid')}:{entry.get('pid')}"
        if usb_id in first:
            yield Finding(("entries", index), f"{usb_id} is already entry {first[usb_id] + 1}",
                          "keep one entry per ID; say in its `reason` if the file repeats it")
        else:
            first[usb_id] = index


@rule("distribution-added-before-seen", "no entry was added after the file version it was read from",
      kinds=("distribution",),
      example='entries[0].added_on: added on 2024-05-01, after the version read (2023-01-01) — check the date of the change, or read the newer file and update `seen`')
def distribution_added_before_seen(record, ctx):
    seen = str(record.data.get("seen", {}).get("date", ""))
    for index, entry in enumerate(record.data.get("entries", [])):
        if seen and str(entry.get("added_on", "")) > seen:
            yield Finding(("entries", index, "added_on"), f"added on {entry['added_on']}, after the version read ({seen})",
                          "check the date of the change, or read the newer file and update `seen`")
