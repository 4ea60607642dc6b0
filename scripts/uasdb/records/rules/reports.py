"""Reports: sourced, explained when negative, possible for the host."""
import re

from ..evidence import TROUBLE_IN_DMESG
from ..problems import WARNING, Finding
from ..vocabulary import HOST_PLATFORM, HOST_TITLES, NO_UAS_HOSTS, PLATFORMS, UNPLACED_HOSTS
from . import rule

OLD_PI_HOSTS = NO_UAS_HOSTS


@rule("report-has-source", "every report has a public URL, a publication's title and name (and author when known), or `tested_by` with evidence",
      example='a test done for this repository has no evidence — attach `evidence:` with at least the `lsusb_t` line')
def report_has_source(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        source = report.get("source") or {}
        publication = all(source.get(key) for key in ("title", "published_in"))
        if not source.get("url") and not source.get("tested_by") and not publication:
            yield Finding(("reports", index, "source"), "the source has neither `url`, `tested_by` nor a publication's "
                          "`title` and `published_in`",
                          "link the page the report comes from, cite the publication, or set `tested_by:` and attach `evidence:`")
        elif source.get("tested_by") and not report.get("evidence"):
            yield Finding(("reports", index, "evidence"), "a test done for this repository has no evidence",
                          "attach `evidence:` with at least the `lsusb_t` line (and dmesg for failures)")


@rule("failure-needs-explanation", "broken UAS, a failed boot or an unstable link comes with notes or evidence",
      example='`uas: broken` is not explained — add `notes:` saying what happened, or `evidence:` with the dmesg lines')
def failure_needs_explanation(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        failed = [f for f, bad in (("uas", report.get("uas") == "broken"), ("boot", report.get("boot") == "fails"),
                                   ("stability", report.get("stability") in ("errors", "disconnects"))) if bad]
        if failed and not report.get("notes") and not report.get("evidence"):
            yield Finding(("reports", index, failed[0]), f"`{failed[0]}: {report[failed[0]]}` is not explained",
                          "add `notes:` saying what happened, or `evidence:` with the dmesg lines")


# What a report's notes say happened, when it is a failure: kernel trouble (the engine's dmesg patterns) or the words
# people use for a failed boot, a needed quirk, a drive dropping off or a hung system. Narrow on purpose: each hit is
# a failure the report's fields should carry.
FAILURE_IN_NOTES = re.compile(
    r"\b(?:would not|did not|does not|could not|cannot|can't|refused? to|fail(?:ed|s)? to) boot\b"
    r"|\bboot(?:ing)? (?:hung|hangs|stalled|failed)\b"
    r"|\b(?:had to add|needs?|needed|requires?|required) (?:the |a |its )?(?:UAS )?quirk\b"
    r"|\bdropped (?:off|from) the bus\b|\bdisconnect(?:ed|s)\b|\b(?:froze|hung|hard-locked|crashed)\b|\bI/O errors?\b",
    re.IGNORECASE)
# The fields that carry an outcome, and the words that say why a report carries none.
OUTCOME_FIELDS = ("uas", "boot", "stability", "trim", "smart", "blamed_on")
NO_OUTCOME_BECAUSE = re.compile(
    r"\bno (?:UAS |boot )?(?:outcome|verdict)s?\b|\bnot counted\b|\bnot recorded\b|\bnot tied to UAS\b"
    r"|\bnot the cause\b|\bnot (?:about )?the adapter\b|\bblames?\b|\bsays nothing\b", re.IGNORECASE)


@rule("failure-needs-outcome", "a report whose notes tell of a failure carries an outcome (`uas`, `boot`, "
      "`stability`, `trim`, `smart` or `blamed_on`), or its notes say why it carries none",
      example='the notes tell of a failure ("dropped off the bus") but the report carries no outcome — set the '
              "outcome the source gives (`uas`, `boot`, `stability`, `blamed_on`), or say in the notes why none is "
              "recorded (\"so no UAS outcome is recorded\")")
def failure_needs_outcome(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        notes = report.get("notes")
        if not isinstance(notes, str) or any(key in report for key in OUTCOME_FIELDS):
            continue
        found = FAILURE_IN_NOTES.search(notes) or TROUBLE_IN_DMESG.search(notes)
        if found and not NO_OUTCOME_BECAUSE.search(notes):
            yield Finding(("reports", index, "notes"),
                          f"the notes tell of a failure (\"{found.group(0)}\") but the report carries no outcome",
                          "set the outcome the source gives (`uas`, `boot`, `stability`, `blamed_on`), or say in the "
                          "notes why none is recorded (\"so no UAS outcome is recorded\")")


@rule("old-pi-no-uas", "a Pi 3 or older cannot report UAS working (its USB host has no UAS)",
      example='`uas: works` on pi3b-plus, whose USB host cannot do UAS — use `uas: host-no-uas`')
def old_pi_no_uas(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("host") not in OLD_PI_HOSTS:
            continue
        if report.get("uas") in ("works", "works-with-quirk", "broken"):
            yield Finding(("reports", index, "uas"), f"`uas: {report['uas']}` on {report['host']}, whose USB host cannot do UAS",
                          "use `uas: host-no-uas`")
        if report.get("driver") == "uas":
            yield Finding(("reports", index, "driver"), f"`driver: uas` on {report['host']}, whose USB host cannot do UAS",
                          "check `lsusb -t` again: it shows usb-storage on these boards")


@rule("boot-needs-pi", "boot outcomes are recorded for Raspberry Pi hosts",
      example='boot outcome on windows is not tracked — put booting details in `notes:`')
def boot_needs_pi(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        platform = HOST_PLATFORM.get(report.get("host"))
        if "boot" in report and platform and not PLATFORMS[platform]["pi"] and report.get("host") != "macos":
            yield Finding(("reports", index, "boot"), f"boot outcome on {report['host']} is not tracked",
                          "put booting details in `notes:`")


@rule("workaround-needs-boot", "`boot_workaround` goes with `boot: works-with-workaround`, which needs it",
      example='works-with-workaround without saying which workaround — add `boot_workaround:`')
def workaround_needs_boot(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        if report.get("boot") == "works-with-workaround" and not report.get("boot_workaround"):
            yield Finding(("reports", index, "boot"), "works-with-workaround without saying which workaround",
                          "add `boot_workaround:` (e.g. the EEPROM setting)")
        if report.get("boot_workaround") and report.get("boot") != "works-with-workaround":
            yield Finding(("reports", index, "boot_workaround"), "a workaround is given but `boot` is not works-with-workaround",
                          "set `boot: works-with-workaround`")


_RASPBERRY_PI = re.compile(r"\bRaspberry\s*Pi\b|\bRPi\s*[0-9]|\braspi\b", re.IGNORECASE)


@rule("pi-filed-as-other-host", "a report from a Raspberry Pi is filed under a Pi host, never as another Linux computer",
      severity=WARNING,
      example='`host: linux-arm64`, but `host_detail` says the computer is a Raspberry Pi — use the Pi\'s host (`pi4`, '
              '`pi5`, …), or `pi-unknown` when the source does not say which model')
def pi_filed_as_other_host(record, ctx):
    unknown = ", ".join(f"`{h}` ({HOST_TITLES[h]})" for h in UNPLACED_HOSTS)
    for index, report in enumerate(record.data.get("reports", [])):
        platform = HOST_PLATFORM.get(report.get("host"))
        if platform is None or PLATFORMS[platform]["pi"] or not PLATFORMS[platform]["linux"]:
            continue
        if _RASPBERRY_PI.search(report.get("host_detail") or ""):
            yield Finding(("reports", index, "host"),
                          f"`host: {report['host']}`, but `host_detail` says the computer is a Raspberry Pi",
                          f"use the Pi's host (`pi4`, `pi5`, …), or {unknown} when the source does not say which model")
