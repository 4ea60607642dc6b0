"""Reports whose stated outcome, named driver and attached output disagree, and fixes that cannot apply."""
import re
from typing import Any

from ..evidence import NOT_THE_ADAPTER, dmesg_trouble, effective_driver, evidence_driver, has_trouble
from ..problems import Finding
from . import rule


@rule("driver-matches-evidence", "a report's `driver` is the one its `lsusb -t`, dmesg or probe output shows",
      example='`driver: usb-storage`, but the attached output shows uas — set `driver: uas`, or attach the output of the run the report is about')
def driver_matches_evidence(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        shown = evidence_driver(report)
        if report.get("driver") and shown and shown != report["driver"]:
            yield Finding(("reports", index, "driver"), f"`driver: {report['driver']}`, but the attached output shows {shown}",
                          f"set `driver: {shown}`, or attach the output of the run the report is about")


@rule("outcome-matches-evidence", "a stated `uas` outcome agrees with the driver and the trouble the report shows",
      example='`uas: works`, but dmesg shows `uas_eh_abort_handler 0 uas-tag 1` under uas — set `uas: broken`, or `blamed_on:` if the source blames power, the cable, a hub or the drive')
def outcome_matches_evidence(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        stated, driver = report.get("uas"), effective_driver(report)
        where = ("reports", index, "uas")
        blamed_elsewhere = report.get("blamed_on") in NOT_THE_ADAPTER
        if stated == "works" and driver == "usb-storage":
            yield Finding(where, "`uas: works`, but the drive ran on usb-storage",
                          "use `works-with-quirk` (+ `quirks`) if a quirk turned UAS off, `device-no-uas` if the "
                          "adapter has no UAS, or leave `uas` out when the source does not say why")
        elif stated == "works" and driver == "uas" and has_trouble(report) and not blamed_elsewhere:
            trouble = dmesg_trouble(report)
            shown = f"dmesg shows `{trouble[0][:80]}`" if trouble else f"`stability: {report.get('stability')}`"
            yield Finding(where, f"`uas: works`, but {shown} under uas",
                          "set `uas: broken`, or `blamed_on:` if the source blames power, the cable, a hub or the drive")
        elif stated == "broken" and driver == "uas" and report.get("stability") == "stable" and not dmesg_trouble(report):
            yield Finding(where, "`uas: broken`, but the report says it ran stable under uas",
                          "correct `stability`, or say what broke in `notes` and `evidence.dmesg`")
        elif stated == "device-no-uas" and driver == "uas":
            yield Finding(where, "`uas: device-no-uas`, but the driver is uas", "use `uas: works` or `broken`")


def _fix_applies(report) -> bool:
    return (report.get("uas") in ("broken", "works-with-quirk") or report.get("boot") in ("fails", "works-with-workaround")
            or has_trouble(report))


@rule("fixed-in-needs-failure", "`fixed_in` marks a failure that a later release fixed, and the report predates the fix",
      example="the report's bootloader 2021-01-05 is not older than the fix 2020-09-03 — check both versions")
def fixed_in_needs_failure(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        fix = report.get("fixed_in")
        if not fix:
            continue
        if not _fix_applies(report):
            yield Finding(("reports", index, "fixed_in"), "nothing in this report failed, so there is nothing to fix",
                          "remove `fixed_in`, or record the failure (`uas`, `boot` or `stability`)")
        elif fix["component"] == "bootloader" and report.get("bootloader", "") >= fix["version"] and report.get("bootloader"):
            yield Finding(("reports", index, "fixed_in", "version"),
                          f"the report's bootloader {report['bootloader']} is not older than the fix {fix['version']}",
                          "check both versions: a failure seen with the fixed bootloader is not fixed by it")


# Kernel time stamps (`[  242.318941]`, also after a syslog prefix's `kernel:`), syslog's `Sep 21 19:40:22` and
# journalctl's ISO `2021-09-21T19:40:22`. `dmesg -H` deltas (`[  +0.218808]`) only ever count up, so say nothing.
_KERNEL_STAMP = re.compile(r"(?:^|kernel:)\s*\[\s*(\d+\.\d+)\]")
_SYSLOG_STAMP = re.compile(r"^\s*(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(\d{1,2}) (\d\d):(\d\d):(\d\d)\b")
_ISO_STAMP = re.compile(r"^\s*(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d)")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The kernel numbers the devices of each bus upwards within one boot (1-127, then it wraps round).
# The speed between `new` and `USB device` is a few words ("SuperSpeed Plus Gen 2x1"): a bounded gap keeps the
# search linear (`.*?` read on to the end of the line from every `usb 1-1: new`: 6-13 s on one long line).
_NEW_DEVICE = re.compile(r"\busb (\d+)-[\d.]+: (?:new [^\n]{0,60}?USB device number|device not accepting address) (\d+)\b")
_WRAP_FROM = 100


def _stamps(line: str):
    """(kind, comparable value, as printed) for each clock the line carries."""
    kernel = _KERNEL_STAMP.search(line)
    if kernel:
        yield "kernel", float(kernel.group(1)), f"[{kernel.group(1)}]"
    syslog = _SYSLOG_STAMP.match(line)
    if syslog:
        month, day, hh, mm, ss = syslog.groups()
        yield "syslog", (_MONTHS.index(month), int(day), int(hh), int(mm), int(ss)), " ".join(line.split()[:3])
    iso = _ISO_STAMP.match(line)
    if iso:
        yield "iso", iso.group(1).replace(" ", "T"), iso.group(1)


def _went_back(kind: str, before, now) -> bool:
    if kind == "syslog" and before[0] == 11 and now[0] == 0:
        return False  # December to January: syslog lines carry no year
    return now < before


def boot_break(dmesg: str):
    """The first sign that the lines of one dmesg block come from more than one boot, as (what, how), or None."""
    last_stamp: dict[str, tuple[Any, str, int]] = {}  # kind of stamp -> (value, as shown, line number)
    last_device: dict[str, tuple[int, int]] = {}  # bus -> (device number, line number)
    for number, line in enumerate(dmesg.splitlines(), 1):
        for kind, value, shown in _stamps(line):
            if kind in last_stamp and _went_back(kind, last_stamp[kind][0], value):
                _, before_shown, before_line = last_stamp[kind]
                return (f"line {number}'s time stamp {shown} is earlier than line {before_line}'s {before_shown}",
                        "time stamps only go forward within one boot")
            last_stamp[kind] = (value, shown, number)
        device = _NEW_DEVICE.search(line)
        if device:
            bus, devnum = device.group(1), int(device.group(2))
            if bus in last_device:
                before, before_line = last_device[bus]
                if devnum < before and before < _WRAP_FROM:
                    return (f"line {number} gives bus {bus} device number {devnum} after number {before} on line {before_line}",
                            "device numbers on a bus only count up within one boot")
            last_device[bus] = (devnum, number)
    return None


@rule("evidence-one-boot", "the lines of one `evidence.dmesg` block come from one boot (time stamps and device numbers count up)",
      example="line 6's time stamp [7.292813] is earlier than line 5's [242.318941] (time stamps only go forward within one "
              "boot) — split the block into one report per boot, or keep the lines of the boot the report is about")
def evidence_one_boot(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        dmesg = (report.get("evidence") or {}).get("dmesg")
        found = boot_break(dmesg) if isinstance(dmesg, str) else None
        if found:
            what, why = found
            yield Finding(("reports", index, "evidence", "dmesg"), f"{what} ({why})",
                          "split the block into one report per boot, or keep the lines of the boot the report is about")
