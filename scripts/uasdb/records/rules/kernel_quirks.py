"""The kernel's own quirk table against the reports: notes where they disagree or overlap.

Linux already sets flags for many IDs (data/kernel/linux-X.Y.yaml). A report that says uas bound
to an ID Linux keeps off uas, or that needed a quirk Linux now applies by itself, is worth a look.
Reports from a kernel older than the imported one are left alone: the built-in entry may be newer.
"""

from ..kernel_applies import Span, builtin_flags, not_older
from ..kernel_applies import report_ids as report_ids_of
from ..kernel_flags import flag_text
from ..problems import WARNING, Finding
from ..vocabulary import LINUX_HOSTS
from . import rule


def report_ids(record, report) -> list[tuple[str, str, Span]]:
    """(vid, pid, bcdDevice span or None) the report is about (records/kernel_applies.py, on the record's data)."""
    return report_ids_of(record.data, report)


def _linux_reports(record):
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("host") in LINUX_HOSTS:  # a Pi of unknown model runs Linux too, though counted on no platform
            yield index, report


@rule("kernel-quirk-contradicted", "a report disagrees with a flag Linux sets for the ID by itself", severity=WARNING,
      example='Linux 6.12 sets IGNORE_UAS for 2537:1068 (drivers/usb/storage/unusual_uas.h:171), so uas should not bind, yet this report says `driver: uas` — if the test ran an older kernel, add `kernel:` with its version')
def kernel_quirk_contradicted(record, ctx):
    table = ctx.kernel
    for index, report in _linux_reports(record):
        if not not_older(report, table):
            continue
        for vid, pid, span in report_ids(record, report):
            flags = builtin_flags(table, vid, pid, span)
            usb_id = f"{vid}:{pid}"
            if "IGNORE_UAS" in flags and (report.get("driver") == "uas" or report.get("uas") == "works"):
                field = "driver" if report.get("driver") == "uas" else "uas"
                yield Finding(("reports", index, field),
                              f"Linux {table.version} sets IGNORE_UAS for {usb_id} ({flags['IGNORE_UAS']}), so uas should not bind, "
                              f"yet this report says `{field}: {report[field]}`",
                              "if the test ran an older kernel, add `kernel:` with its version; otherwise check the USB ID and bcd_device", WARNING)
            if "IGNORE_UAS" in flags and report.get("uas") == "device-no-uas":
                yield Finding(("reports", index, "uas"),
                              f"Linux {table.version} keeps {usb_id} on usb-storage by itself (IGNORE_UAS, {flags['IGNORE_UAS']}), "
                              "which looks the same as an adapter without UAS",
                              "check `lsusb -v` for an interface with bInterfaceProtocol 98 (UAS); if there is one, the adapter has UAS "
                              "and the kernel turned it off — say so in `notes`", WARNING)
            if "NO_ATA_1X" in flags and report.get("driver") == "uas" and report.get("smart") == "works":
                yield Finding(("reports", index, "smart"),
                              f"Linux {table.version} blocks ATA pass-through for {usb_id} under uas (NO_ATA_1X, {flags['NO_ATA_1X']}), "
                              "so SMART through it should fail",
                              "check the `smartctl -d` type used and the kernel version (`kernel:`)", WARNING)


@rule("kernel-quirk-redundant", "a quirk a report needed is one Linux now applies by itself", severity=WARNING,
      example='Linux 6.12 already applies IGNORE_UAS (falls back to usb-storage) at drivers/usb/storage/unusual_uas.h:171 to 2537:1068, so this quirk is not needed there')
def kernel_quirk_redundant(record, ctx):
    table = ctx.kernel
    for index, report in _linux_reports(record):
        letters = report.get("quirks")
        if report.get("uas") != "works-with-quirk" or not letters or not not_older(report, table):
            continue
        for vid, pid, span in report_ids(record, report):
            flags = builtin_flags(table, vid, pid, span)
            wanted = [table.letters[c] for c in letters if c in table.letters]
            if wanted and all(flag in flags for flag in wanted):
                applied = ", ".join(f"{flag_text(f)} at {flags[f]}" for f in wanted)
                yield Finding(("reports", index, "quirks"),
                              f"Linux {table.version} already applies {applied} to {vid}:{pid}, so this quirk is not needed there",
                              "keep the report if an older kernel needed it, and add `kernel:` with that version", WARNING)
