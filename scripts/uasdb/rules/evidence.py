"""Reports whose stated outcome, named driver and attached output disagree, and fixes that cannot apply."""
from ..problems import Finding
from ..verdicts import NOT_THE_ADAPTER, dmesg_trouble, effective_driver, evidence_driver, has_trouble
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
