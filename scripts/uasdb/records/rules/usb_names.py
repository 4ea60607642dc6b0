"""USB IDs against the USB ID Repository (usb.ids): unknown vendors and names that disagree.

These are notes, never fixes: rebadged bridges report their maker's ID with the brand's own
strings, and usb.ids lags behind new products. A disagreement is shown so a reader can judge a
possibly mistyped ID.
"""
import re

from ..problems import WARNING, Finding
from . import rule

# Words that say nothing about who made a thing; two names sharing only these do not agree.
_FILLER = frozenset("""
a ag an and bv co company computer corp corporation device devices electronic electronics gmbh group holdings inc
industrial int intl international limited llc ltd of plc sa semiconductor system systems technologies technology
the to usa
usb storage bridge mass sata ata atapi adapter controller disk drive external enclosure hdd ssd nvme portable
reader card hub generic 2 0 3 1 gen
""".split())
_LSUSB_LINE = re.compile(r"\bID ([0-9a-f]{4}):([0-9a-f]{4})\b ?(.*)$")


def words(name: str | None) -> set[str]:
    """Lower-case words of a name that can tell makers or products apart."""
    return {w for w in re.split(r"[^a-z0-9]+", (name or "").lower()) if w and w not in _FILLER}


def names_agree(a: str | None, b: str | None) -> bool:
    """True unless both names have telling words and share none (a prefix counts: RTL9210B ~ RTL9210)."""
    first, second = words(a), words(b)
    if not first or not second:
        return True
    return any(x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x)))
               for x in first for y in second)


@rule("usb-vendor-known", "every USB vendor ID is in usb.ids (some makers never registered)", kinds=("adapter", "chipset"),
      severity=WARNING,
      example='vendor ID 2eb9 is not in usb.ids 2025.07.26 — compare with the `ID vvvv:pppp` that `lsusb` prints; keep it if it is right')
def usb_vendor_known(record, ctx):
    for index, usb_id in enumerate(record.data.get("usb_ids", [])):
        vid = usb_id.get("vid")
        if vid and ctx.usbids.vendor(vid) is None:
            yield Finding(("usb_ids", index, "vid"), f"vendor ID {vid} is not in usb.ids {ctx.usbids.version}",
                          "compare with the `ID vvvv:pppp` that `lsusb` prints; keep it if it is right (unregistered makers exist)", WARNING)


@rule("usb-names-match", "device strings and lsusb names agree with usb.ids for the ID (shown, never fixed)", kinds=("adapter", "chipset"),
      severity=WARNING,
      example='the device says it is made by `Realtek`, usb.ids names vendor 152d `JMicron Technology Corp. / …` — fine for a rebadged bridge; otherwise check the vendor ID')
def usb_names_match(record, ctx):
    listed = set()
    for index, usb_id in enumerate(record.data.get("usb_ids", [])):
        vid, pid = usb_id.get("vid"), usb_id.get("pid")
        listed.add(f"{vid}:{pid}")
        vendor, product = ctx.usbids.vendor(vid), ctx.usbids.product(vid, pid)
        maker = usb_id.get("manufacturer_string")
        if maker and vendor and not names_agree(maker, vendor):
            yield Finding(("usb_ids", index, "manufacturer_string"),
                          f"the device says it is made by `{maker}`, usb.ids names vendor {vid} `{vendor}`",
                          "fine for a rebadged bridge; otherwise check the vendor ID", WARNING)
        name = usb_id.get("product_string")
        if name and product and not names_agree(name, product):
            yield Finding(("usb_ids", index, "product_string"),
                          f"the device calls itself `{name}`, usb.ids names {vid}:{pid} `{product}`",
                          "fine when the maker reuses the ID; otherwise check the product ID", WARNING)
    for index, report in enumerate(record.data.get("reports", [])):
        lsusb = (report.get("evidence") or {}).get("lsusb") or ""
        for line in lsusb.splitlines():
            match = _LSUSB_LINE.search(line)
            if not match or f"{match.group(1)}:{match.group(2)}" not in listed or not match.group(3).strip():
                continue
            vid, pid, shown = match.groups()
            known = " ".join(n for n in (ctx.usbids.vendor(vid), ctx.usbids.product(vid, pid)) if n)
            if known and not names_agree(shown, known):
                yield Finding(("reports", index, "evidence", "lsusb"),
                              f"lsusb shows `{shown.strip()}` for {vid}:{pid}, usb.ids says `{known}`",
                              "an older usb.ids or the device's own strings can explain it; otherwise the ID may be mistyped", WARNING)
