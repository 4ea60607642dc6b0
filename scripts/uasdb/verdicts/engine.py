"""The one place where reports become verdicts. The site, the API and the CLI only render these.

The rule, in words (docs/verdicts.md explains it with worked examples):

1. Platforms. A report speaks for the platform of its host: Pi 4 (Pi 4, Pi 400, CM4), Pi 5 (Pi 5, Pi 500,
   CM5), Pi 3 and older (their USB host has no UAS), Linux PC, macOS, Windows. A Pi whose model the source
   does not give (`pi-unknown`) speaks for none: shown on the product page, never counted as a Pi's or a PC's.
2. What a report shows. Its UAS finding comes from the outcome it states (`uas`) or, when it states none,
   from its evidence: the driver (`driver`, or `Driver=` in `lsusb -t`, `scsi hostN: uas` in dmesg, the
   probe's output) and trouble (`stability` errors or disconnects; aborts, resets, I/O errors or hung tasks
   in `evidence.dmesg`). `uas` bound and running clean is *works*; `uas` with trouble is *broken*; a
   usb-storage binding with quirk letters is *works-with-quirk*. A Pi 3 or older host yields "usb-storage
   (this Pi has no UAS)", which says nothing about the adapter.
3. Evidence strength. *observed*: output that shows the driver or the failure is attached or quoted
   (`lsusb -t`, dmesg, probe). *stated*: the reporter names the driver or the quirk. *hearsay*: an outcome
   with neither ("works fine", "known good"), or a `second_hand` account with no output, whatever it names.
4. Depth and link. How far a finding goes: *bound* (the driver seen in a snapshot and nothing more), *used*
   (a workload shown or stated: `workload`, a benchmark, `stability`, a boot from the drive), *long-term*
   (`in_use_for` weeks or more). The link it was seen at: `link_speed`, else the `lsusb -t` or dmesg lines,
   else a sequential figure above what USB 2 can carry (then "5 Gbit/s or faster"). A success seen only at
   480M says nothing about 5 Gbit/s and never outweighs a failure at a faster or unknown link.
5. Credibility and time. A failure blamed on power, cable, hub, drive, host or software is shown but not
   counted. A failure a later release fixed (`fixed_in`) is shown as "fixed since" that version and not
   counted against the product today; the report's successes still count. A success on uas from a kernel
   older than the release the project imports (or of no stated version), for a unit that release keeps off uas
   by itself (IGNORE_UAS), is history (kernel_history): a verdict resting on such successes alone is graded
   *kernel-ignores-uas*, neither recommended nor pending, and says why.
6. Platform verdict. Counted observed/stated findings decide it: one class when they agree, *mixed* only when
   a success meets a failure; failures of several kinds agree that it fails (combined_outcome). With none, hearsay decides it, shown as "likely" and never as a bare verdict. Hearsay that
   disagrees with observed/stated findings is listed, not counted. Only fixed failures: *fixed*.
   A verdict carries a grade: *works* is *recommended* only when a counted observed/stated report shows
   `uas` used at 5 Gbit/s or faster, else *pending* (and says what is missing); *works-with-quirk* whose
   failure without the quirk no report shows or states is *failure-not-shown*; *broken* whose every failure
   has `blamed_on: unknown` is *cause-not-isolated*.
7. Boot verdicts (Pi 4, Pi 5, Pi 3B+/3 with USB boot enabled) the same way from `boot`, including
   *intermittent* (boots some of the time).
8. Lists. Nice: recommended on a Pi 4 or Pi 5, and no counted report on those platforms says otherwise.
   Naughty: on observed or stated evidence the Pi 4 or Pi 5 UAS verdict is works-with-quirk (failure shown)
   or broken, or (when not nice) the Pi 4 or Pi 5 boot verdict is fails or intermittent: it failed there.
   Disagree: not naughty or nice, and a Pi 4 or Pi 5 UAS or boot verdict is mixed on strong evidence (a
   success against a failure): a group of its own with both sides (disagreement), never naughty by that alone.
   Pending: works on a Pi 4 or Pi 5 on observed or stated evidence, not yet recommended, nothing against.
   Booting is a column of the nice list, not a gate.
9. Quirk line. The flag letters of counted works-with-quirk findings (never hearsay) on Linux platforms,
   applied to the USB ID the report names (all of the adapter's IDs when it names none). Each entry keeps
   where it came from (platforms, kernels, reports), so a page never offers a Linux PC's line as a Pi's.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, field, replace
from functools import cached_property
from typing import Any

# What a report's own output shows (the driver, link trouble) is read in records/evidence.py, which the rules share;
# the names are kept here too, the engine's public ones.
from ..records.evidence import (  # noqa: F401  (re-exported)
    NOT_THE_ADAPTER,
    TROUBLE_IN_DMESG,
    dmesg_trouble,
    effective_driver,
    evidence_driver,
    has_trouble,
)
from ..records.kernel_applies import builtin_flags, kernel_release, report_ids
from ..records.reference import ReferenceDataError, load_kernel
from ..records.vocabulary import HOST_PLATFORM, LIST_PLATFORMS, UNPLACED_HOSTS
from ..records.vocabulary import PLATFORMS as VOCABULARY_PLATFORMS

# Platforms and their hosts come from the schema (vocabulary.py): label, member hosts, Linux or not, Pi or not,
# `no_uas_host` when none of its hosts can do UAS, `boot_hosts` when only some can boot from USB.
PLATFORMS: dict[str, dict[str, Any]] = VOCABULARY_PLATFORMS
# HOST_PLATFORM: the platform each host counts towards; a host of UNPLACED_HOSTS (a Pi of unknown model) has none.
# LIST_PLATFORMS, the platforms whose verdicts decide the lists (the Pi models the site is for), is the schema's.
# drivers/usb/storage/usb.c: `static char quirks[128]` — a longer value is refused whole ("string parameter too long").
QUIRKS_PARAM_MAX_CHARS = 127
BLAME_WORDS = {"power": "power", "cable": "the cable", "hub": "the hub", "drive": "the drive", "host": "the host",
               "software": "software"}

EVIDENCE_CLASSES = {
    "observed": "output that shows the driver or the failure (lsusb -t, dmesg, probe) is attached or quoted",
    "stated": "the reporter names the driver or the quirk they used",
    "hearsay": "an outcome with no driver, quirk or output behind it (\"works fine\", \"known good\")",
}
STRENGTH_RANK = {"observed": 3, "stated": 2, "hearsay": 1}

# How far a finding goes (rule 4), weakest first.
DEPTHS = ("bound", "used", "long-term")
DEPTH_RANK = {name: n for n, name in enumerate(DEPTHS)}
LONG_TERM = frozenset({"weeks", "months", "years"})
SUPERSPEED = ("5000M", "10000M", "20000M")
LINK_RANK = {"480M": 1, "5000M": 2, "10000M": 3, "20000M": 4}
# A sequential figure above this (MB/s) cannot have crossed a USB 2 link (480 Mbit/s); export.LINK_LIMITS agrees.
USB2_CEILING_MBPS = 60.0
_MIB = 1.048576

VERDICT_TEXT = {
    "works": "UAS works, no quirk needed",
    "works-with-quirk": "works only with a quirk",
    "no-uas": "works, but the adapter has no UAS (slower usb-storage)",
    "broken": "broken",
    "mixed": "reports disagree",
    "fixed": "a failure was reported and later fixed; no report since",
    "host-no-uas": "usb-storage only: this Pi has no UAS, so this says nothing about the adapter",
    "untested": "no reports yet",
}
BOOT_VERDICT_TEXT = {
    "works": "boots from it",
    "works-with-workaround": "boots only with a workaround",
    "intermittent": "boots from it only some of the time",
    "fails": "does not boot from it",
    "mixed": "reports disagree",
    "fixed": "a boot failure was reported and later fixed; no report since",
    "untested": "no boot reports yet",
}
# Short words for badges; the long texts above explain them. "Likely …" is used when only hearsay decides.
VERDICT_SHORT = {
    "works": "Works", "works-with-quirk": "Needs quirk", "no-uas": "No UAS", "broken": "Broken",
    "mixed": "Mixed", "fixed": "Fixed", "host-no-uas": "usb-storage (no UAS on this Pi)", "untested": "Untested",
}
BOOT_VERDICT_SHORT = {
    "works": "Boots", "works-with-workaround": "Boots with workaround", "intermittent": "Boots sometimes",
    "fails": "Does not boot", "mixed": "Mixed", "fixed": "Fixed", "untested": "Untested",
}
LIKELY_SHORT = {
    "works": "Likely works", "works-with-quirk": "Likely needs quirk", "no-uas": "Likely no UAS",
    "broken": "Reported broken", "mixed": "Unverified, disagree", "works-with-workaround": "Likely boots with workaround",
    "fails": "Reported not to boot", "boots": "Likely boots",
    "intermittent": "Reported to boot sometimes",
}
# Grades (rule 6): what a verdict's badge says instead of its bare word, and the sentence behind it.
GRADE_SHORT = {"recommended": "Works", "bound": "Binds UAS", "slow-only": "Works at 480M", "pending": "Works (pending)",
               "failure-not-shown": "Works with quirk", "cause-not-isolated": "Errors",
               "kernel-ignores-uas": "Worked on an older kernel"}
GRADE_TEXT = {
    "recommended": "UAS works, no quirk needed: used at 5 Gbit/s or faster",
    "failure-not-shown": "works with a quirk; no report shows or states the failure without it",
    "cause-not-isolated": "UAS errors were seen, but their cause was not isolated",
}
# Badge colour (the CSS classes tone-*), decided here so templates and scripts only print it. "meh" is neutral;
# a verdict resting on hearsay alone is always "meh", whatever it says; "fair" is a success still pending.
TONE = {"works": "good", "works-with-quirk": "warn", "works-with-workaround": "warn", "no-uas": "meh",
        "host-no-uas": "meh", "broken": "bad", "fails": "bad", "intermittent": "warn", "mixed": "warn", "fixed": "meh",
        "untested": "none"}
GRADE_TONE = {"bound": "fair", "slow-only": "fair", "pending": "fair", "failure-not-shown": "meh",
              "cause-not-isolated": "warn", "kernel-ignores-uas": "meh"}
ICON = {"good": "✓", "fair": "✓", "warn": "!", "meh": "–", "bad": "✗", "none": "?"}
# Sort order of tables, best first; a pending or hearsay verdict sorts after the same verdict on strong evidence.
RANK = {"works": 1, "works-with-workaround": 4, "works-with-quirk": 4, "no-uas": 5, "host-no-uas": 5, "fixed": 6,
        "mixed": 7, "intermittent": 7, "broken": 8, "fails": 8, "untested": 10}

# The link: lsusb -t prints it after the storage interface's driver; dmesg names it when a device enumerates.
_LINK_IN_LSUSB_T = re.compile(r"Class=Mass Storage, Driver=(?:uas|usb-storage)[^,\n]*, (480M|5000M|10000M|20000M)\b")
# Every spelling the kernel has used for the speed of a new device: "high-speed"; 4.x-5.x "SuperSpeed Gen 1",
# "SuperSpeed Gen 1x2" (two lanes: 10 Gbit/s), "SuperSpeedPlus Gen 2", "SuperSpeedPlus Gen 2x2"; 6.x "SuperSpeed",
# "SuperSpeed Plus" and "SuperSpeed Plus Gen 2x1 / 1x2 / 2x2"; older ones "SuperSpeed" alone.
_LINK_IN_DMESG = re.compile(r"\bnew (high-speed|SuperSpeed(?: ?Plus)?(?: Gen [12](?:x[12])?)?) USB device\b")


def dmesg_speed(words: str) -> str:
    """`lsusb -t`'s speed for the words of a "new … USB device" line (one of _LINK_IN_DMESG's spellings)."""
    if words == "high-speed":
        return "480M"
    gen = re.search(r"Gen ([12])(?:x([12]))?", words)
    if gen:
        rate = 5000 * (2 if gen.group(1) == "2" else 1) * int(gen.group(2) or 1)
        return f"{rate}M"
    return "10000M" if "Plus" in words else "5000M"


@dataclass(frozen=True)
class Finding:
    """What one report shows about one question (UAS or boot) on its platform."""
    report: int
    outcome: str                   # a UAS or boot class
    strength: str                  # observed, stated or hearsay
    counted: bool                  # False when blamed on something else or superseded by a fix
    why_not_counted: str | None = None   # "blamed-on-<x>" or "fixed"
    date: str = ""
    depth: str = "bound"           # bound, used or long-term (rule 4)
    link: str | None = None     # 480M, 5000M, 10000M, 20000M, or None when not shown
    link_from: str | None = None  # stated, evidence, throughput (a figure USB 2 cannot carry) or port
    port: str | None = None     # usb2 or usb3, when the report says which kind of port
    failure_shown: bool = True     # works-with-quirk: the failure without the quirk is shown or stated
    cause_isolated: bool = True    # broken: False when the report says the cause was not isolated
    history: bool = False          # works on uas, but today's kernel keeps this unit off uas (kernel_history)

    @property
    def superspeed(self) -> bool:
        return self.link in SUPERSPEED

    @property
    def slow_only(self) -> bool:
        return self.link == "480M"

    def describe(self) -> str:
        """Depth and link in words: "used for weeks or more at 5000M", "binds uas at 480M (USB 2 speed), not
        tried under load", "used (link speed not shown)"."""
        verb = {"bound": "binds uas", "used": "used", "long-term": "used for weeks or more"}[self.depth]
        where = link_words(self.link, self.link_from, self.port)
        text = f"{verb} {where}" if where else f"{verb} (link speed not shown)"
        return text + (", not tried under load" if self.depth == "bound" else "")


def link_words(link: str | None, link_from: str | None, port: str | None = None) -> str | None:
    """"at 5000M", "at 480M (USB 2 speed)", "at 5 Gbit/s or faster (from a measured speed)", "on a USB 3 port
    (link speed not shown)", or None."""
    if link is None:
        return "on a USB 3 port (link speed not shown)" if port == "usb3" else None
    if link_from == "port":
        return "on a USB 2 port (480M)"
    if link_from == "throughput":
        return "at 5 Gbit/s or faster (from a measured speed)"
    return f"at {link}" + (" (USB 2 speed)" if link == "480M" else "")


def evidence_strength(report: Mapping[str, Any]) -> str:
    """observed / stated / hearsay for what a report says about UAS (EVIDENCE_CLASSES)."""
    if evidence_driver(report) or dmesg_trouble(report) or (report.get("evidence") or {}).get("probe"):
        return "observed"
    if report.get("second_hand"):
        return "hearsay"  # someone else's result, relayed: naming a driver or quirk does not make it a test
    if report.get("driver") or report.get("quirks"):
        return "stated"
    return "hearsay"


def boot_strength(report: Mapping[str, Any]) -> str:
    """A boot outcome is the reporter's own statement; attached output makes it observed."""
    evidence = report.get("evidence") or {}
    return "observed" if evidence.get("probe") or evidence.get("dmesg") or evidence.get("lsusb_t") else "stated"


def fastest_sequential_mbps(report: Mapping[str, Any]) -> float:
    """The highest sequential figure a report gives, in MB/s (0 when it gives none)."""
    values = [f["value"] * (_MIB if f["unit"] == "MiB/s" else 1) for f in report.get("throughput") or []
              if f.get("test", "").startswith("seq-") and f.get("unit") in ("MB/s", "MiB/s")]
    return max(values, default=0.0)


def report_link(report: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(link, where it comes from): `link_speed`; else one speed in the lsusb -t or dmesg lines; else
    ("5000M", "throughput") when a sequential figure is above what USB 2 can carry; else (None, None)."""
    if report.get("link_speed"):
        return report["link_speed"], "stated"
    evidence = report.get("evidence") or {}
    speeds = {m.group(1) for m in _LINK_IN_LSUSB_T.finditer(evidence.get("lsusb_t") or "")}
    if not speeds:
        speeds = {dmesg_speed(m.group(1)) for m in _LINK_IN_DMESG.finditer(evidence.get("dmesg") or "")}
    if len(speeds) == 1:
        return speeds.pop(), "evidence"
    if fastest_sequential_mbps(report) > USB2_CEILING_MBPS:
        return "5000M", "throughput"
    if report.get("port") == "usb2":
        return "480M", "port"  # a USB 2 only port cannot negotiate more
    return None, None


def report_depth(report: Mapping[str, Any]) -> str:
    """bound / used / long-term (rule 4)."""
    if report.get("in_use_for") in LONG_TERM:
        return "long-term"
    if (report.get("workload") or report.get("in_use_for") or report.get("throughput") or report.get("stability")
            or report.get("boot") in ("works", "works-with-workaround")):
        return "used"
    return "bound"


def uas_outcome(report: Mapping[str, Any], platform: str) -> str | None:
    """The UAS class a report shows on `platform` (stated first, else read from its evidence), or None."""
    if PLATFORMS[platform].get("no_uas_host"):
        return "host-no-uas"
    stated = report.get("uas")
    if stated is not None:
        return {"works": "works", "works-with-quirk": "works-with-quirk", "broken": "broken",
                "device-no-uas": "no-uas", "host-no-uas": None}[stated]
    driver = effective_driver(report)
    if driver == "uas":
        return "broken" if has_trouble(report) else "works"
    if driver == "usb-storage" and report.get("quirks") and not has_trouble(report):
        return "works-with-quirk"
    return None  # usb-storage for a reason the report does not give, or no driver at all


def _is_failure(outcome: str) -> bool:
    return outcome in ("broken", "works-with-quirk", "fails", "intermittent", "works-with-workaround")


def _why_not_counted(report: Mapping[str, Any], outcome: str) -> str | None:
    blamed = report.get("blamed_on")
    if blamed in NOT_THE_ADAPTER and outcome not in ("works", "host-no-uas"):
        return f"blamed-on-{blamed}"  # a success still counts when the report blames a failure elsewhere
    if report.get("fixed_in") and _is_failure(outcome):
        return "fixed"
    return None


def uas_finding(index: int, report: Mapping[str, Any], platform: str) -> Finding | None:
    if HOST_PLATFORM.get(report.get("host") or "") != platform:
        return None
    outcome = uas_outcome(report, platform)
    if outcome is None:
        return None
    strength = "observed" if outcome == "host-no-uas" and evidence_driver(report) else evidence_strength(report)
    if outcome == "host-no-uas" and strength == "hearsay":
        strength = "stated"  # the host's lack of UAS is a fact about the host, not a claim about the adapter
    why = _why_not_counted(report, outcome)
    link, link_from = report_link(report)
    port = report.get("port")
    # A quirk's need is shown when the reporter states the outcome, or the output shows the failure; a log of
    # the quirk applied and working shows only that it works with it.
    failure_shown = outcome != "works-with-quirk" or report.get("uas") == "works-with-quirk" or has_trouble(report)
    cause_isolated = not (outcome == "broken" and report.get("blamed_on") == "unknown")
    return Finding(index, outcome, strength, why is None, why, str(report.get("date", "")), report_depth(report),
                   link, link_from, port, failure_shown, cause_isolated)


def boot_finding(index: int, report: Mapping[str, Any], platform: str) -> Finding | None:
    spec = PLATFORMS[platform]
    if not spec["pi"] or report.get("host") not in spec.get("boot_hosts", spec["hosts"]) or "boot" not in report:
        return None
    outcome = report["boot"]
    why = _why_not_counted(report, outcome)
    link, link_from = report_link(report)
    return Finding(index, outcome, boot_strength(report), why is None, why, str(report.get("date", "")),
                   "used" if outcome == "works" else "bound", link, link_from, report.get("port"))


@dataclass
class PlatformVerdict:
    verdict: str
    kind: str = "uas"                                       # uas or boot
    confidence: str = "none"                                # confirmed, likely, disputed, none
    findings: list[Finding] = field(default_factory=list)
    platform: str = ""
    # When nothing decides: what the platform's reports are about instead ("2 reports, about booting only").
    about: str | None = None

    @cached_property
    def pool(self) -> list[Finding]:
        """Counted observed/stated findings, else counted hearsay."""
        counted = [f for f in self.findings if f.counted]
        strong = [f for f in counted if f.strength != "hearsay"]
        return strong or counted

    @cached_property
    def deciding(self) -> list[Finding]:
        """The findings that decide the verdict: the pool, less successes seen only at 480M when a failure at a
        faster or unknown link says otherwise (rule 4: USB 2 speed says nothing about 5 Gbit/s)."""
        slow_successes = [f for f in self.pool if f.outcome == "works" and f.slow_only]
        faster_failures = [f for f in self.pool if f.outcome != "works" and not f.slow_only]
        if slow_successes and faster_failures:
            return [f for f in self.pool if f not in slow_successes]
        return self.pool

    @property
    def set_aside_at_480m(self) -> list[int]:
        deciding = {f.report for f in self.deciding}
        return sorted(f.report for f in self.pool if f.report not in deciding)

    @property
    def counted(self) -> list[int]:
        return sorted(f.report for f in self.deciding)

    @property
    def discounted(self) -> list[int]:
        return sorted(f.report for f in self.findings if not f.counted and f.why_not_counted != "fixed")

    @property
    def superseded(self) -> list[int]:
        return sorted(f.report for f in self.findings if f.why_not_counted == "fixed")

    @property
    def unverified(self) -> list[int]:
        """Hearsay set aside because observed/stated findings decide: listed, not counted."""
        pool = {f.report for f in self.pool}
        return sorted(f.report for f in self.findings if f.counted and f.report not in pool)

    @property
    def disagreeing(self) -> list[int]:
        """The set-aside hearsay whose outcome differs from the verdict's."""
        outcomes = {f.outcome for f in self.deciding}
        unverified = set(self.unverified)
        return sorted(f.report for f in self.findings if f.report in unverified and f.outcome not in outcomes)

    @property
    def classes(self) -> dict[str, list[int]]:
        classes: dict[str, list[int]] = {}
        for f in self.deciding:
            classes.setdefault(f.outcome, []).append(f.report)
        return {k: sorted(v) for k, v in sorted(classes.items())}

    @property
    def strength(self) -> str | None:
        deciding = self.deciding
        return max((f.strength for f in deciding), key=STRENGTH_RANK.__getitem__) if deciding else None

    @cached_property
    def best(self) -> Finding | None:
        """The deciding finding that goes furthest for the verdict: strongest, at a known fast link, deepest."""
        same = [f for f in self.deciding if f.outcome == self.verdict]
        if not same:
            return None
        return max(same, key=lambda f: (f.strength != "hearsay", f.superspeed and f.depth != "bound",
                                        DEPTH_RANK[f.depth], LINK_RANK.get(f.link or "", 0), STRENGTH_RANK[f.strength],
                                        -f.report))

    @cached_property
    def grade(self) -> str | None:
        """How far the verdict goes (rule 6): recommended, bound, slow-only or pending for UAS that works;
        failure-not-shown for a quirk; cause-not-isolated for errors; slow-only for a boot seen only at 480M."""
        if self.confidence == "likely" or not self.deciding:
            return None
        deciding = self.deciding
        if self.kind == "boot":
            return "slow-only" if self.verdict == "works" and all(f.slow_only for f in deciding) else None
        if self.verdict == "works":
            deciding = self.current
            if not deciding:
                return "kernel-ignores-uas"  # every success is history on today's kernel
            if any(f.depth != "bound" and f.superspeed for f in deciding):
                return "recommended"
            if all(f.depth == "bound" for f in deciding):
                return "bound"
            if all(f.slow_only for f in deciding):
                return "slow-only"
            return "pending"
        if self.verdict == "works-with-quirk" and not any(f.failure_shown for f in deciding):
            return "failure-not-shown"
        if self.verdict == "broken" and not any(f.cause_isolated for f in deciding):
            return "cause-not-isolated"
        return None

    @property
    def recommended(self) -> bool:
        """UAS used at 5 Gbit/s or faster without a quirk, on observed or stated evidence, nothing against."""
        return self.kind == "uas" and self.grade == "recommended" and self.confidence == "confirmed"

    @property
    def pending(self) -> bool:
        """Works on observed or stated evidence, but no report yet shows it used at 5 Gbit/s or faster."""
        return (self.kind == "uas" and self.verdict == "works" and self.confidence == "confirmed" and not self.recommended
                and self.grade != "kernel-ignores-uas")

    @property
    def depth_link_text(self) -> str | None:
        """Depth and link of the finding that goes furthest: "used for weeks or more at 5000M"."""
        best = self.best
        if best is None:
            places = {(f.link, f.link_from, f.port) for f in self.deciding}
            return link_words(*places.pop()) if len(places) == 1 else None
        if self.kind == "boot" or self.verdict != "works":
            return link_words(best.link, best.link_from, best.port)
        return best.describe()

    @property
    def basis(self) -> dict[str, Any]:
        deciding = self.deciding
        years = sorted(f.date[:4] for f in deciding if f.date)
        best = self.best
        return {"reports": len(deciding), "strongest": self.strength,
                "first": years[0] if years else None, "last": years[-1] if years else None,
                "depth": best.depth if best and self.kind == "uas" else None,
                "link": best.link if best else None, "link_from": best.link_from if best else None}

    @property
    def fixed(self) -> list[dict[str, Any]]:
        """Failures later fixed, one entry per component and version (reports carry `fixed_in`)."""
        return self._fixed

    _fixed: list[dict[str, Any]] = field(default_factory=list)
    # Successes on uas that today's kernel no longer gives (kernel_history): one entry per report.
    kernel_history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def current(self) -> list[Finding]:
        """The deciding findings today's kernel still gives: all but successes it now keeps off uas."""
        return [f for f in self.deciding if not f.history]

    @property
    def kernel_text(self) -> str | None:
        """Why a success on uas is history: "on Linux 6.6 it ran uas; as of Linux 6.12.117 …"."""
        if not self.kernel_history:
            return None
        first = self.kernel_history[0]
        kernels = sorted({h["kernel"] for h in self.kernel_history if h["kernel"]})
        ran = f"on Linux {', '.join(kernels)}" if kernels else "in the report (its kernel version not given)"
        return (f"{ran} it ran uas; as of Linux {first['release']}, the release this site imports, the kernel keeps "
                f"{first['usb_id']} off uas by itself (IGNORE_UAS, {first['where']}), so a current kernel uses "
                "usb-storage for it by default")

    @property
    def link_note(self) -> str | None:
        """What the successes set aside at 480M showed (rule 4)."""
        slow = self.set_aside_at_480m
        if not slow:
            return None
        n = f"{len(slow)} report{'s' if len(slow) != 1 else ''}"
        if self.kind == "boot":
            return f"from a USB 2 port it boots (480M, {n})"
        return f"UAS works without a quirk at 480M (USB 2 speed, {n})"

    @property
    def short(self) -> str:
        words = BOOT_VERDICT_SHORT if self.kind == "boot" else VERDICT_SHORT
        if self.confidence == "likely":
            key = "boots" if (self.kind, self.verdict) == ("boot", "works") else self.verdict
            return LIKELY_SHORT.get(key, words[self.verdict])
        if self.verdict == "untested" and self.about:
            return "No verdict"
        if self.kind == "boot":
            return "Boots from USB 2" if self.grade == "slow-only" else words[self.verdict]
        return GRADE_SHORT.get(self.grade or "", words[self.verdict])

    @property
    def text(self) -> str:
        words = BOOT_VERDICT_TEXT if self.kind == "boot" else VERDICT_TEXT
        if self.verdict == "untested" and self.about:
            return self.about
        sentence = words[self.verdict]
        grade = self.grade
        if self.kind == "boot" and grade == "slow-only":
            sentence = "boots from it from a USB 2 port (480M); no report shows a boot over USB 3"
        elif grade == "recommended" and self.best:
            sentence = f"UAS works, no quirk needed: {self.best.describe()}"
        elif grade == "bound":
            sentence = "UAS binds and no failure was seen, but it was not tried under load: pending more reports"
        elif grade == "slow-only":
            sentence = ("UAS works, but only at 480M (USB 2 speed), which says nothing about 5 Gbit/s: "
                        "pending more reports")
        elif grade == "pending":
            sentence = ("UAS works without a quirk in use, but no report shows it used at 5 Gbit/s or faster: "
                        "pending more reports")
        elif grade == "kernel-ignores-uas":
            sentence = f"UAS worked without a quirk, but that is history: {self.kernel_text}"
        elif grade in GRADE_TEXT:
            sentence = GRADE_TEXT[grade]
        if self.kernel_history and grade != "kernel-ignores-uas":
            sentence += f"; {len(self.kernel_history)} success{'es' if len(self.kernel_history) != 1 else ''} set aside: {self.kernel_text}"
        if self.confidence == "likely":
            sentence += " — unverified: no report names the driver or shows output"
        if self.verdict != "mixed":  # failures of other kinds that agree with it (combined_outcome)
            for outcome, reports in self.classes.items():
                if outcome != self.verdict:
                    sentence += f"; {len(reports)} other report{'s' if len(reports) != 1 else ''}: {words[outcome]}"
        if self.link_note:
            sentence += f"{' on a USB 3 port' if _on_usb3(self) else ''}; {self.link_note}"
        if self.fixed:
            sentence += "; " + "; ".join(f"fixed since {f['component']} {f['version']}" for f in self.fixed)
        return sentence

    @property
    def basis_text(self) -> str:
        basis = self.basis
        if not basis["reports"]:
            if self.fixed:
                return "fixed: " + ", ".join(f"{f['component']} {f['version']}" for f in self.fixed)
            return self.about or "no reports"
        noun = "report" if basis["reports"] == 1 else "reports"
        if basis["strongest"] == "hearsay":
            parts = [f"{basis['reports']} unverified {noun}"]
        else:
            parts = [f"{basis['reports']} {noun}", basis["strongest"]]
        depth_link = self.depth_link_text
        if depth_link and basis["strongest"] != "hearsay":
            parts.append(depth_link)
        if basis["first"]:
            parts.append(basis["first"] if basis["first"] == basis["last"] else f"{basis['first']}–{basis['last']}")
        return " · ".join(parts)

    @property
    def tone(self) -> str:
        if self.confidence == "likely":
            return "meh"
        return GRADE_TONE.get(self.grade or "", TONE[self.verdict])

    @property
    def rank(self) -> int:
        """Table order, best first: a pending success after a recommended one, hearsay after both."""
        return RANK[self.verdict] + (1 if self.grade in ("bound", "slow-only", "pending", "failure-not-shown",
                                                         "kernel-ignores-uas") else 0) \
            + (2 if self.confidence == "likely" else 0)

    def as_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "short": self.short, "badge": self.short, "text": self.text,
                "tone": self.tone, "icon": ICON[self.tone], "rank": self.rank, "grade": self.grade,
                "recommended": self.recommended, "pending": self.pending, "link_note": self.link_note,
                "about": self.about,
                "confidence": self.confidence, "strength": self.strength, "basis": self.basis,
                "basis_text": self.basis_text, "counted": self.counted, "discounted": self.discounted,
                "superseded": self.superseded, "unverified": self.unverified, "disagreeing": self.disagreeing,
                "set_aside_at_480m": self.set_aside_at_480m, "classes": self.classes, "fixed": self.fixed,
                "kernel_history": self.kernel_history}


def _fixed_entries(reports: Sequence[Mapping[str, Any]], findings: Iterable[Finding]) -> list[dict[str, Any]]:
    entries: dict[tuple[str, str], dict[str, Any]] = {}
    for f in findings:
        if f.why_not_counted == "fixed":
            fix = reports[f.report]["fixed_in"]
            entry = entries.setdefault((fix["component"], fix["version"]),
                                       {"component": fix["component"], "version": fix["version"], "url": fix["url"],
                                        "reports": []})
            entry["reports"].append(f.report)
    return [entries[k] for k in sorted(entries)]


def short_platform(name: str) -> str:
    return PLATFORMS[name]["label"].replace("Raspberry ", "")


def plural(n: int, word: str) -> str:
    """"1 report", "2 reports": the count and its noun, as every verdict and answer sentence says it."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _about(reports: Sequence[Mapping[str, Any]], findings: list[Finding], platform: str, kind: str) -> str | None:
    """When no finding decides: what the platform's reports hold instead, or None when it has none."""
    spec = PLATFORMS[platform]
    hosts = spec.get("boot_hosts", spec["hosts"]) if kind == "boot" else spec["hosts"]
    on_platform = [i for i, rep in enumerate(reports) if rep.get("host") in hosts]
    if not on_platform:
        return None
    n = len(on_platform)
    where = short_platform(platform)
    parts = []
    set_aside = [f for f in findings if not f.counted]
    if set_aside:
        reasons = sorted({"fixed since" if f.why_not_counted == "fixed" else
                          f"blamed on {BLAME_WORDS.get((f.why_not_counted or '').replace('blamed-on-', ''), 'something else')}"
                          for f in set_aside})
        parts.append(f"{len(set_aside)} not counted ({', '.join(reasons)})")
    if kind == "boot":
        # Reports about UAS alone are not boot reports: "no boot reports yet" stays true for them.
        if not set_aside:
            return None
        n = len(set_aside)
    with_finding = {f.report for f in findings}
    rest = [i for i in on_platform if i not in with_finding]
    if rest and kind == "uas":
        boot_only = [i for i in rest if "boot" in reports[i]]
        if len(boot_only) == len(rest):
            parts.append(f"{len(rest)} about booting only")
        else:
            parts.append(f"{len(rest)} naming no driver or UAS outcome")
    noun = "report" if n == 1 else "reports"
    return f"{n} {where} {noun}, no {'boot' if kind == 'boot' else 'UAS'} verdict: " + "; ".join(parts)


def _aggregate(findings: list[Finding], reports: Sequence[Mapping[str, Any]], kind: str,
               platform: str) -> PlatformVerdict:
    verdict = PlatformVerdict("untested", kind, "none", findings, platform)
    verdict._fixed = _fixed_entries(reports, findings)
    deciding = verdict.deciding
    outcomes = {f.outcome for f in deciding}
    if not outcomes:
        verdict.verdict = "fixed" if verdict.fixed else "untested"
        verdict.confidence = "confirmed" if verdict.fixed else "none"
        if not verdict.fixed:
            verdict.about = _about(reports, findings, platform, kind)
        return verdict
    verdict.verdict = combined_outcome(deciding, reports, kind)
    if verdict.strength == "hearsay":
        verdict.confidence = "likely"
    else:
        verdict.confidence = "disputed" if verdict.verdict == "mixed" else "confirmed"
    return verdict


# Which way a finding points (rule 6): a success or a failure. Findings that point the same way never make a
# verdict "mixed", whatever kinds of failure they are; only a success against a failure does (no-uas, a claim
# about the adapter rather than a direction, disagrees with anything else).
SUCCESSES = frozenset({"works"})
UAS_FAILURES = frozenset({"broken", "works-with-quirk"})
BOOT_FAILURES = frozenset({"fails", "intermittent", "works-with-workaround"})


def combined_outcome(deciding: Sequence[Finding], reports: Sequence[Mapping[str, Any]], kind: str) -> str:
    """The verdict of deciding findings: their one class; for failures of several kinds, the failure they agree on
    (UAS: works-with-quirk, since the quirk made it work where UAS failed, unless a report saw it broken with a
    quirk applied, then broken; boot: works-with-workaround when one got it booting, else intermittent, since a
    boot that fails and one that works only sometimes agree that it boots only some of the time); *mixed* only
    when a success meets a failure (or no-uas meets anything else)."""
    outcomes = {f.outcome for f in deciding}
    if len(outcomes) == 1:
        return next(iter(outcomes))
    if kind == "uas" and outcomes <= UAS_FAILURES:
        if any(f.outcome == "broken" and reports[f.report].get("quirks") for f in deciding):
            return "broken"
        return "works-with-quirk"
    if kind == "boot" and outcomes <= BOOT_FAILURES:
        return "works-with-workaround" if "works-with-workaround" in outcomes else "intermittent"
    return "mixed"


def verdict_for_platform(reports: list[Mapping[str, Any]], platform: str,
                         history: Mapping[int, dict[str, Any]] | None = None) -> PlatformVerdict:
    """The UAS verdict on a platform. `history` (kernel_history): reports whose success on uas today's kernel no
    longer gives; on a Linux platform they still count as reports, but a verdict resting on them alone is not
    recommended, pending or ranked as working (grade kernel-ignores-uas) and says why."""
    findings = [f for i, rep in enumerate(reports) if (f := uas_finding(i, rep, platform))]
    if history and PLATFORMS[platform]["linux"]:
        findings = [replace(f, history=True) if f.report in history and f.outcome == "works" else f for f in findings]
    verdict = _aggregate(findings, reports, "uas", platform)
    verdict.kernel_history = [history[f.report] for f in findings if f.history] if history else []
    return verdict


def kernel_history(record: Mapping[str, Any], table: Any) -> dict[int, dict[str, Any]]:
    """Report index -> why its success on uas is history: the kernel table (the release the project imports)
    surely sets IGNORE_UAS for the unit it is about (its ID, and its bcdDevice or every bcdDevice) and the report
    ran an older release or does not say which. A report on the imported release or newer is left alone (it
    contradicts the table; the rule kernel-quirk-contradicted asks about it)."""
    if table is None:
        return {}
    imported = kernel_release(table.release)
    out: dict[int, dict[str, Any]] = {}
    for index, report in enumerate(record.get("reports", [])):
        if not (report.get("uas") == "works" or effective_driver(report) == "uas"):
            continue
        ran = kernel_release(report.get("kernel"))
        if ran is not None and imported is not None and ran >= imported:
            continue
        for vid, pid, span in report_ids(record, report):
            flags = builtin_flags(table, vid, pid, span)
            if "IGNORE_UAS" in flags:
                out[index] = {"report": index, "kernel": report.get("kernel"), "usb_id": f"{vid}:{pid}",
                              "bcd_device": report.get("bcd_device"), "where": flags["IGNORE_UAS"],
                              "release": table.release}
                break
    return out


def default_kernel() -> Any:
    """The kernel table the project imports (data/kernel/), or None when it is missing (then nothing is history)."""
    try:
        return load_kernel()
    except ReferenceDataError:
        return None


def boot_verdict_for_platform(reports: list[Mapping[str, Any]], platform: str) -> PlatformVerdict:
    findings = [f for i, rep in enumerate(reports) if (f := boot_finding(i, rep, platform))]
    return _aggregate(findings, reports, "boot", platform)


def quirk_sources(record: Mapping[str, Any], uas: Mapping[str, PlatformVerdict] | None = None) -> list[dict[str, Any]]:
    """One entry per USB ID of the quirk line, with where its flag letters came from: the platforms, kernels and
    reports of the counted observed/stated works-with-quirk findings on Linux platforms (never hearsay, never a
    report blamed on something else or fixed since), so a page can say "Linux PC, kernel 6.6, 1 report"."""
    reports = record.get("reports", [])
    uas = uas or {name: verdict_for_platform(list(reports), name) for name in PLATFORMS}
    all_ids = [f"{u['vid']}:{u['pid']}" for u in record.get("usb_ids", [])]
    by_id: dict[str, dict[str, Any]] = {}
    for name, verdict in uas.items():
        if not PLATFORMS[name]["linux"]:
            continue
        for finding in verdict.findings:
            report = reports[finding.report]
            if (finding.outcome != "works-with-quirk" or not finding.counted or finding.strength == "hearsay"
                    or not report.get("quirks")):
                continue
            for usb_id in [report["usb_id"]] if report.get("usb_id") else all_ids:
                entry = by_id.setdefault(usb_id, {"usb_id": usb_id, "flags": set(), "platforms": [], "reports": [],
                                                  "kernels": set(), "failure_shown": False})
                entry["flags"].update(report["quirks"])
                if name not in entry["platforms"]:
                    entry["platforms"].append(name)
                entry["reports"].append(finding.report)
                entry["failure_shown"] = entry["failure_shown"] or finding.failure_shown
                if report.get("kernel"):
                    entry["kernels"].add(report["kernel"])
    order = list(PLATFORMS)
    result = []
    for usb_id in sorted(by_id):
        entry = by_id[usb_id]
        platforms = sorted(entry["platforms"], key=order.index)
        kernels = sorted(entry["kernels"])
        n = len(set(entry["reports"]))
        where = ", ".join(PLATFORMS[p]["label"] for p in platforms)
        if kernels:
            where += f", kernel {', '.join(kernels)}"
        where += f", {n} report{'s' if n != 1 else ''}"
        flags = "".join(sorted(entry["flags"]))
        result.append({"usb_id": usb_id, "flags": flags, "entry": f"{usb_id}:{flags}", "platforms": platforms,
                       "reports": sorted(set(entry["reports"])), "kernels": kernels, "where": where,
                       "failure_shown": entry["failure_shown"]})
    return result


def quirk_entries(record: Mapping[str, Any], uas: Mapping[str, PlatformVerdict] | None = None) -> list[str]:
    """`vid:pid:flags` entries for usb-storage.quirks= (quirk_sources says where each came from)."""
    return [source["entry"] for source in quirk_sources(record, uas)]


@dataclass
class AdapterVerdict:
    uas: dict[str, PlatformVerdict]
    boot: dict[str, PlatformVerdict]
    listing: str | None
    reasons: list[str]
    quirk_entries: list[str]
    quirk_sources: list[dict[str, Any]] = field(default_factory=list)
    unplaced: list[int] = field(default_factory=list)   # reports from a host counted on no platform
    disagreements: list[dict[str, Any]] = field(default_factory=list)  # both sides of each mixed verdict

    @property
    def unplaced_text(self) -> str | None:
        """What the reports counted on no platform are, in words (the product page shows them)."""
        if not self.unplaced:
            return None
        return (f"{plural(len(self.unplaced), 'report')} from a Raspberry Pi whose model the source does not give: shown "
                "with the reports, counted on no platform (the Pi 4 and Pi 5 differ, and a Pi is not a Linux PC)")

    @property
    def quirk_line(self) -> str | None:
        return "usb-storage.quirks=" + ",".join(self.quirk_entries) if self.quirk_entries else None

    def quirk_entries_for(self, platforms: Iterable[str]) -> list[str]:
        """The entries that reports on these platforms needed."""
        wanted = set(platforms)
        return [s["entry"] for s in self.quirk_sources if wanted & set(s["platforms"])]

    @property
    def advice(self) -> dict[str, Any]:
        """Which quirk line to offer, and for whom, decided once (pages print it). scope: "none" (no report
        needed one), "pi" (a Pi 4 or Pi 5 report needed it), "elsewhere-pi-works" (needed on another platform
        while UAS works without a quirk on a Pi), or "elsewhere" (needed on another platform; no Pi verdict)."""
        if not self.quirk_sources:
            return {"scope": "none", "text": "No report in the database needed a usb-storage.quirks entry for this adapter."}
        on_pi = self.quirk_entries_for(LIST_PLATFORMS)
        elsewhere = [s for s in self.quirk_sources if not set(s["platforms"]) & set(LIST_PLATFORMS)]
        where = "; ".join(f"{s['entry']}: {s['where']}" for s in self.quirk_sources)
        if on_pi:
            pis = [short_platform(p) for p in LIST_PLATFORMS if self.quirk_entries_for([p])]
            return {"scope": "pi", "platforms": [p for p in LIST_PLATFORMS if self.quirk_entries_for([p])],
                    "text": f"The line reports on a {' and a '.join(pis)} used to make this adapter work ({where}).",
                    "qualified": any(not s["failure_shown"] for s in self.quirk_sources)}
        works_on = [p for p in LIST_PLATFORMS if self.uas[p].verdict == "works" and self.uas[p].confidence != "likely"]
        others = ", ".join(dict.fromkeys(PLATFORMS[p]["label"] for s in elsewhere for p in s["platforms"]))
        if works_on:
            works_on_text = " and ".join(short_platform(p) for p in works_on)
            return {"scope": "elsewhere-pi-works", "platforms": works_on,
                    "text": (f"On a {works_on_text} UAS works without a quirk, so nothing to add there. On a {others} a report "
                             f"needed this line ({where}); use it only if yours shows the same trouble.")}
        return {"scope": "elsewhere", "platforms": [],
                "text": (f"Only {others} reports needed this line ({where}); no Raspberry Pi report yet shows "
                         "whether a Pi needs it.")}

    def readings(self, report_count: int) -> list[dict[str, Any]]:
        """Per report, what the engine read from it: its UAS and boot findings, their strength, depth and link,
        and whether and why they count — so a page can show each report's part in the verdict."""
        out: list[dict[str, Any]] = [{} for _ in range(report_count)]
        for kind, per_platform in (("uas", self.uas), ("boot", self.boot)):
            for verdict in per_platform.values():
                unverified = set(verdict.unverified)
                slow = set(verdict.set_aside_at_480m)
                for f in verdict.findings:
                    status = "counted"
                    if not f.counted:
                        status = "fixed" if f.why_not_counted == "fixed" else "not-counted"
                    elif f.report in unverified:
                        status = "set-aside"
                    elif f.report in slow:
                        status = "set-aside-480m"
                    reading: dict[str, Any] = {"outcome": f.outcome, "strength": f.strength, "status": status,
                               "why": f.why_not_counted, "link": f.link, "link_from": f.link_from,
                               "link_text": link_words(f.link, f.link_from, f.port), "port": f.port}
                    if kind == "uas":
                        reading["depth"] = f.depth
                        reading["depth_text"] = f.describe()
                        if f.outcome == "works-with-quirk":
                            reading["failure_shown"] = f.failure_shown
                    out[f.report][kind] = reading
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "uas": {name: v.as_dict() for name, v in self.uas.items()},
            "boot": {name: v.as_dict() for name, v in self.boot.items()},
            "list": self.listing,
            "reasons": self.reasons,
            "quirk_entries": self.quirk_entries,
            "quirk_sources": self.quirk_sources,
            "quirk_line": self.quirk_line,
            "advice": self.advice,
            "unplaced": {"reports": self.unplaced, "text": self.unplaced_text},
            "disagreements": self.disagreements,
        }


# Back-compatible name for templates and tests that used the private helper.
_short_platform = short_platform
PENDING_WHY = {"bound": "UAS binds without a quirk on {where}, not yet tried under load",
               "slow-only": "UAS works without a quirk on {where}, but only seen at 480M (USB 2 speed)",
               "pending": "UAS works without a quirk on {where}, but no report shows it used at 5 Gbit/s or faster"}


def _on_usb3(v: PlatformVerdict) -> str:
    """" from a USB 3 port" when every deciding failure was on one (a negotiated 5 Gbit/s link or a stated USB 3
    port), so a reason never blames the product for what only its USB 3 connection does."""
    deciding = v.deciding
    if deciding and all(f.superspeed or f.port == "usb3" for f in deciding):
        return " from a USB 3 port" if v.kind == "boot" else " on USB 3"
    return ""


# What most often tells two Pi reports that disagree apart (the report fields that record it), in this order.
DIFFERENCE_FIELDS = (("bootloader", "bootloader"), ("port", "port"), ("connection", "power (how it was connected)"),
                     ("link", "USB link"), ("kernel", "kernel"), ("bcd_device", "bcdDevice (firmware revision)"),
                     ("firmware", "adapter firmware"))
EXPLAIN_DISAGREEMENT = {
    True: ("The reports do not say what differed. What most often explains it on a Pi: the bootloader (EEPROM) "
           "version, the port (USB 2 or USB 3), and power (a powered hub, a Y-cable or the Pi's own port)"),
    False: ("The reports do not say what differed. What most often explains it: the port or controller, power (a "
            "powered hub or the computer's own port), the kernel and the adapter's firmware (bcdDevice)"),
}


def _fact(report: Mapping[str, Any], key: str) -> str | None:
    if key == "link":
        link, link_from = report_link(report)
        return link if link_from in ("stated", "evidence") else None
    value = report.get(key)
    return str(value) if value else None


def disagreement(verdict: PlatformVerdict, reports: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """For a verdict whose strong reports point in opposite directions (mixed): both sides (each outcome in words,
    with its reports) and what may explain the difference — the bootloader, port, power, link, kernel or firmware
    where the sides' reports differ, else a sentence naming what most often does. None for any other verdict."""
    if verdict.verdict != "mixed" or verdict.confidence == "likely":
        return None
    words = BOOT_VERDICT_TEXT if verdict.kind == "boot" else VERDICT_TEXT
    shorts = BOOT_VERDICT_SHORT if verdict.kind == "boot" else VERDICT_SHORT
    sides: list[dict[str, Any]] = []
    for outcome, numbers in sorted(verdict.classes.items(), key=lambda kv: (RANK[kv[0]], kv[0])):
        facts = {key: sorted({v for n in numbers if (v := _fact(reports[n], key))}) for key, _ in DIFFERENCE_FIELDS}
        sides.append({"outcome": outcome, "short": shorts[outcome], "text": words[outcome], "reports": numbers,
                      "facts": {k: v for k, v in facts.items() if v}})
    differences, one_sided = [], []
    for key, label in DIFFERENCE_FIELDS:
        values = [tuple(side["facts"].get(key, ())) for side in sides]
        said = [f"{', '.join(v)} ({side['short'].lower()})" for side, v in zip(sides, values, strict=True) if v]
        if all(values) and len(set(values)) > 1:
            differences.append(f"{label}: " + " against ".join(said))  # each side states it, and they differ
        elif any(values) and not all(values):
            one_sided.append(f"{label} {'; '.join(said)}")
    where = short_platform(verdict.platform)
    question = "boot" if verdict.kind == "boot" else "UAS"
    if differences:
        explain = "The sides differ in " + "; in ".join(differences) + "."
    else:
        explain = EXPLAIN_DISAGREEMENT[bool(PLATFORMS[verdict.platform]["pi"])] + "."
    if one_sided:
        explain += " Stated by one side only: " + "; ".join(one_sided) + "."
    return {"platform": verdict.platform, "kind": verdict.kind, "label": f"{where} {question}",
            "sides": sides, "differences": differences, "explain": explain}


# Where a product stands on one platform (platform_standing), best first: the sections of a what-to-buy page, and
# what the lists are rolled up from (list_for), so the two never place a product differently.
STANDINGS = ("recommended", "pending", "disagree", "other", "avoid")


def uas_failed(v: PlatformVerdict) -> bool:
    """On observed or stated evidence: a quirk shown to be needed, or UAS broken (errors, cause isolated or not)."""
    return v.confidence == "confirmed" and (v.verdict == "broken"
                                            or (v.verdict == "works-with-quirk" and v.grade != "failure-not-shown"))


def boot_failed(v: PlatformVerdict | None) -> bool:
    """On observed or stated evidence: it does not boot, or boots only some of the time."""
    return v is not None and v.confidence == "confirmed" and v.verdict in ("fails", "intermittent")


def disputed(v: PlatformVerdict | None) -> bool:
    """Strong reports point in opposite directions (a success against a failure)."""
    return v is not None and v.confidence == "disputed" and v.verdict == "mixed"


def against(v: PlatformVerdict) -> bool:
    """Some counted report on the platform, of any strength, says it needs a quirk, is broken or has no UAS."""
    return any(f.counted and f.outcome in ("broken", "works-with-quirk", "no-uas") for f in v.findings)


def platform_standing(uas: PlatformVerdict, boot: PlatformVerdict | None = None) -> str:
    """Where a product stands on one platform (STANDINGS), the one rule the what-to-buy pages and the lists share:
    avoid: it failed there (a quirk shown to be needed, broken UAS) or, unless recommended, it does not boot there
    (or only sometimes); recommended: UAS used at 5 Gbit/s or faster without a quirk and nothing against it there
    (booting is a column, not a gate); disagree: strong reports there point in opposite directions; pending: UAS
    works there, not yet recommended, nothing against it; other: the rest (unverified reports, no UAS, a quirk whose
    need is not shown, reports that reach no verdict, booting only)."""
    if uas_failed(uas):
        return "avoid"
    if uas.recommended and not against(uas):
        return "recommended"
    if boot_failed(boot):
        return "avoid"
    if disputed(uas) or disputed(boot):
        return "disagree"
    if uas.pending and not against(uas):
        return "pending"
    return "other"


def list_for(uas: Mapping[str, PlatformVerdict], boot: Mapping[str, PlatformVerdict]) -> tuple[str | None, list[str]]:
    """Naughty, nice, disagree, pending (or none), rolled up from the Pi 4 and Pi 5 standings (platform_standing),
    with the reasons in words (rule 8): naughty when it failed on a Pi (UAS first: a product recommended on one Pi
    is not made naughty by a failed boot on the other); nice when recommended on a Pi and nothing on either Pi
    says otherwise; disagree when reports on a Pi point in opposite directions (never naughty by that alone);
    pending when it works on a Pi, not yet recommended, nothing against it on either Pi."""
    standing = {name: platform_standing(uas[name], boot[name]) for name in LIST_PLATFORMS}
    naughty: list[str] = []
    disputes: list[str] = []
    boot_reasons: list[str] = []
    for name in LIST_PLATFORMS:
        v, b, where = uas[name], boot[name], short_platform(name)
        if uas_failed(v) and v.verdict == "works-with-quirk":
            naughty.append(f"needs a usb-storage quirk on {where}{_on_usb3(v)}" + (f" — {v.link_note}" if v.link_note else ""))
        elif uas_failed(v):
            naughty.append(f"UAS errors on {where} (cause not isolated)" if v.grade == "cause-not-isolated"
                           else f"UAS is broken on {where}")
        elif disputed(v):
            disputes.append(f"{where} UAS reports disagree")
        if boot_failed(b):
            boot_reasons.append({"fails": f"does not boot a {where}{_on_usb3(b)}",
                                 "intermittent": f"boots a {where} only some of the time{_on_usb3(b)}"}[b.verdict]
                                + (f" — {b.link_note}" if b.link_note else ""))
        elif disputed(b):
            disputes.append(f"{where} boot reports disagree" + (f" — {b.link_note}" if b.link_note else ""))
    if naughty:
        return "naughty", naughty + boot_reasons + disputes
    nothing_against = not any(against(uas[name]) for name in LIST_PLATFORMS)
    recommended = [name for name in LIST_PLATFORMS if standing[name] == "recommended"]
    if recommended and nothing_against:
        return "nice", [f"UAS works without a quirk on {' and '.join(short_platform(n) for n in recommended)}, "
                        "used at 5 Gbit/s or faster"]
    if any(standing[name] == "avoid" for name in LIST_PLATFORMS):
        return "naughty", boot_reasons + disputes
    if any(standing[name] == "disagree" for name in LIST_PLATFORMS):
        return "disagree", disputes
    pending = [name for name in LIST_PLATFORMS if standing[name] == "pending"]
    if pending and nothing_against:
        return "pending", [PENDING_WHY[uas[n].grade or "pending"].format(where=short_platform(n)) for n in pending]
    return None, []


_DEFAULT = object()


def adapter_verdict(record: Mapping[str, Any], kernel: Any = _DEFAULT) -> AdapterVerdict:
    """Every verdict of one product. `kernel`: the kernel table today's answers are checked against (default: the
    one the project imports; None: none), so a success on uas an older kernel gave is shown as history."""
    reports = list(record.get("reports", []))
    history = kernel_history(record, default_kernel() if kernel is _DEFAULT else kernel)
    uas = {name: verdict_for_platform(reports, name, history) for name in PLATFORMS}
    boot = {name: boot_verdict_for_platform(reports, name) for name, spec in PLATFORMS.items() if spec["pi"]}
    listing, reasons = list_for(uas, boot)
    sources = quirk_sources(record, uas)
    unplaced = [i for i, report in enumerate(reports) if report.get("host") in UNPLACED_HOSTS]
    disagreements = [d for name in PLATFORMS for v in (uas[name], boot.get(name)) if v
                     and (d := disagreement(v, reports))]
    return AdapterVerdict(uas, boot, listing, reasons, [s["entry"] for s in sources], sources, unplaced, disagreements)



def verdict_as_plain(verdict: AdapterVerdict) -> tuple:
    """An adapter's verdicts as plain values (tuples, lists, dicts, text), which the content cache keeps
    (records/cache.py: marshal, reading an entry runs no code); `verdict_from_plain` makes the same verdicts again."""
    def platform(v: PlatformVerdict) -> tuple:
        return (v.verdict, v.kind, v.confidence, [astuple(f) for f in v.findings], v.platform, v.about)
    return ({name: platform(v) for name, v in verdict.uas.items()}, {name: platform(v) for name, v in verdict.boot.items()},
            verdict.listing, verdict.reasons, verdict.quirk_entries, verdict.quirk_sources, verdict.unplaced,
            verdict.disagreements)


def verdict_from_plain(plain: Any) -> AdapterVerdict:
    """The verdicts `verdict_as_plain` gave these values for (a TypeError or ValueError for anything else)."""
    def platform(values: Any) -> PlatformVerdict:
        verdict, kind, confidence, findings, name, about = values
        return PlatformVerdict(verdict, kind, confidence, [Finding(*f) for f in findings], name, about)
    uas, boot, listing, reasons, entries, sources, unplaced, disagreements = plain
    return AdapterVerdict({n: platform(v) for n, v in uas.items()}, {n: platform(v) for n, v in boot.items()},
                          listing, reasons, entries, sources, unplaced, disagreements)

def merge_quirk_entries(entries: Iterable[str]) -> dict[str, str]:
    """`vid:pid` -> united, sorted flag letters of every entry naming it."""
    flags_by_id: dict[str, set] = {}
    for entry in entries:
        vid, pid, flags = entry.split(":")
        flags_by_id.setdefault(f"{vid}:{pid}", set()).update(flags)
    return {k: "".join(sorted(v)) for k, v in sorted(flags_by_id.items())}


def combined_quirk_line(verdicts: Iterable[AdapterVerdict], exclude_ids: Iterable[str] = ()) -> str | None:
    """One usb-storage.quirks= line for many adapters; an ID named twice gets the union of its flags. IDs in
    `exclude_ids` (shared with a product known to work) are left out."""
    skip = set(exclude_ids)
    merged = merge_quirk_entries(e for v in verdicts for e in v.quirk_entries)
    entries = [f"{k}:{flags}" for k, flags in merged.items() if k not in skip]
    return "usb-storage.quirks=" + ",".join(entries) if entries else None


def summary_line(verdict: AdapterVerdict) -> str:
    """One sentence a reader gets before the details: the list it is on and why, or the Pi verdicts."""
    if verdict.listing == "naughty":
        bases = [v.basis_text for name in LIST_PLATFORMS for v in (verdict.uas[name], verdict.boot[name])
                 if v.verdict in ("works-with-quirk", "broken", "mixed", "fails", "intermittent") and v.confidence != "likely"]
        return "On the naughty list: " + "; ".join(verdict.reasons) + (f" ({bases[0]})" if bases else "") + "."
    if verdict.listing == "nice":
        best = next(verdict.uas[n] for n in LIST_PLATFORMS if verdict.uas[n].recommended)
        return f"On the nice list: {verdict.reasons[0]} ({best.basis_text})."
    if verdict.listing == "pending":
        first = next(verdict.uas[n] for n in LIST_PLATFORMS if verdict.uas[n].pending)
        return f"Pending more reports: {'; '.join(verdict.reasons)} ({first.basis_text})."
    parts = []
    for name in LIST_PLATFORMS:
        uas, boot = verdict.uas[name], verdict.boot[name]
        if uas.verdict == "untested" and boot.verdict == "untested" and not (uas.about or boot.about):
            continue
        if uas.verdict != "untested":
            text = f"{PLATFORMS[name]['label']}: {uas.text} ({uas.basis_text})"
        elif boot.verdict != "untested":
            text = f"{PLATFORMS[name]['label']}: no UAS verdict"
        else:
            text = f"{PLATFORMS[name]['label']}: {uas.about}"
        if boot.verdict != "untested":
            text += f"; booting: {boot.text}"
        parts.append(text)
    if parts:
        return ". ".join(parts) + "."
    tested = [PLATFORMS[name]["label"] for name, v in verdict.uas.items() if v.verdict != "untested"]
    if tested:
        return "No Raspberry Pi 4 or Pi 5 reports yet; reports exist for " + ", ".join(tested) + "."
    return "No reports with a verdict yet."


def quirk_value_length(line: str | None) -> int:
    """Characters after `usb-storage.quirks=`: what the kernel's 128-byte parameter must hold."""
    return len(line.split("=", 1)[1]) if line else 0


def quirk_line_fits(line: str | None) -> bool:
    return quirk_value_length(line) <= QUIRKS_PARAM_MAX_CHARS


def usb_id_verdict(verdicts: Mapping[str, AdapterVerdict]) -> dict[str, Any]:
    """The verdict for a USB ID that several products share: per platform, the products' verdict when every
    tested product agrees, else "depends on the product" with each product's own verdict."""
    result: dict[str, Any] = {}
    for name in PLATFORMS:
        tested = {aid: v.uas[name] for aid, v in verdicts.items() if v.uas[name].verdict != "untested"}
        # Hearsay is listed per product but does not make the ID "depend on the product".
        outcomes = {v.verdict for v in tested.values() if v.confidence != "likely"} or {v.verdict for v in tested.values()}
        if not tested:
            state = "untested"
        elif len(outcomes) == 1:
            state = outcomes.pop()
        else:
            state = "depends"
        result[name] = {
            "verdict": state,
            "short": "Depends on the product" if state == "depends" else VERDICT_SHORT[state],
            "tone": "warn" if state == "depends" else TONE[state],
            "icon": ICON["warn" if state == "depends" else TONE[state]],
            "products": {aid: {"verdict": v.verdict, "short": v.short, "basis_text": v.basis_text, "tone": v.tone,
                               "grade": v.grade}
                         for aid, v in sorted(tested.items())},
        }
    return result
