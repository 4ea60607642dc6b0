"""Quirk flags: letters the kernel knows, and flags wherever a quirk was needed."""
from collections import Counter

from ..problems import Finding
from . import rule


@rule("quirk-letter-known", "every quirk letter is in the kernel's usb-storage.quirks table",
      example='unknown quirk letter(s) z — use letters from the kernel table: a=SANE_SENSE, …, u=IGNORE_UAS, …')
def quirk_letter_known(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        yield from unknown_letters(report.get("quirks", ""), ("reports", index, "quirks"), ctx,
                                   "use letters from the kernel table")


@rule("quirk-letters-once", "each quirk letter is written once (`uuu` is `u`)",
      example="reports[0].quirks: quirk letters written more than once (u 3 times) — write each letter once: `u`")
def quirk_letters_once(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        flags = report.get("quirks", "")
        problem = repeated_letters(flags) if isinstance(flags, str) else None
        if problem:
            yield Finding(("reports", index, "quirks"), *problem)


def repeated_letters(flags: str) -> tuple[str, str] | None:
    """(message, fix) when a quirk letter appears more than once, else None: the kernel reads a letter once, so a
    repeat is a typo or a paste gone wrong, and it would make two equal quirk lines look different."""
    counted = Counter(flags)  # one pass (a count per character was quadratic on a long value)
    repeated = sorted(c for c, n in counted.items() if n > 1)
    if not repeated:
        return None
    once = "".join(dict.fromkeys(flags))
    counts = ", ".join(f"{c} {counted[c]} times" for c in repeated[:26])
    return f"quirk letters written more than once ({counts})", f"write each letter once: `{once}`"


def unknown_letters(flags, field, ctx, advice):
    """A finding for quirk letters the kernel's table does not have, listing the ones it has."""
    unknown = sorted({c for c in flags if c not in ctx.quirk_letters})
    if unknown:
        known = ", ".join(f"{k}={v}" for k, v in sorted(ctx.quirk_letters.items()))
        yield Finding(field, f"unknown quirk letter(s) {', '.join(unknown)}", f"{advice}: {known}")


@rule("quirk-needs-flags", "`uas: works-with-quirk` lists the `quirks` letters used, and only then",
      example='works-with-quirk without the quirk letters — add `quirks: u`')
def quirk_needs_flags(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("uas") == "works-with-quirk" and not report.get("quirks"):
            yield Finding(("reports", index, "uas"), "works-with-quirk without the quirk letters",
                          "add `quirks: u` (or the letters actually used)")
        if report.get("uas") == "works" and report.get("quirks"):
            yield Finding(("reports", index, "quirks"), "quirks listed on a report where UAS works without one",
                          "set `uas: works-with-quirk` or remove `quirks`")


@rule("quirk-needs-usb-id", "a quirk can only be written for an adapter whose USB ID is known",
      example='works-with-quirk, but the record has no usb_ids to build the quirk line')
def quirk_needs_usb_id(record, ctx):
    if record.data.get("usb_ids"):
        return
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("uas") == "works-with-quirk":
            yield Finding(("reports", index, "uas"), "works-with-quirk, but the record has no usb_ids to build the quirk line",
                          "add `usb_ids:` with the vid and pid from `lsusb`")
