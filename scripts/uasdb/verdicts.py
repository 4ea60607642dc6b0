"""The one place where reports become verdicts. The site, the API and the CLI only render these.

The rule, in words (CONTRIBUTING.md repeats it with worked examples):

1. Platforms. A report speaks for the platform of its host: Pi 4 (Pi 4, Pi 400, CM4), Pi 5 (Pi 5, Pi 500,
   CM5), Pi 3 and older (their USB host has no UAS), Linux PC, macOS, Windows.
2. What a report shows. Its UAS finding comes from the outcome it states (`uas`) or, when it states none,
   from its evidence: the driver (`driver`, or `Driver=` in `lsusb -t`, `scsi hostN: uas` in dmesg, the
   probe's output) and trouble (`stability` errors or disconnects; aborts, resets, I/O errors or hung tasks
   in `evidence.dmesg`). `uas` bound and running clean is *works*; `uas` with trouble is *broken*; a
   usb-storage binding with quirk letters is *works-with-quirk*. A Pi 3 or older host yields "usb-storage
   (this Pi has no UAS)", which says nothing about the adapter.
3. Evidence strength. *observed*: output that shows the driver or the failure is attached or quoted
   (`lsusb -t`, dmesg, probe). *stated*: the reporter names the driver or the quirk. *hearsay*: an outcome
   with neither ("works fine", "known good").
4. Credibility and time. A failure blamed on power, cable, hub, drive, host or software is shown but not
   counted. A failure a later release fixed (`fixed_in`) is shown as "fixed since" that version and not
   counted against the product today; the report's successes still count.
5. Platform verdict. Counted observed/stated findings decide it: one class when they agree, *mixed* when
   they disagree. With none, hearsay decides it, shown as "likely" and never as a bare verdict. Hearsay that
   disagrees with observed/stated findings is listed, not counted. Only fixed failures: *fixed*.
6. Boot verdicts (Pi 4, Pi 5, Pi 3B+/3 with USB boot enabled) the same way from `boot`.
7. Lists. Nice: UAS works without a quirk on a Pi 4 or Pi 5 on observed or stated evidence, and no counted
   report on those platforms says otherwise. Naughty: on observed or stated evidence the Pi 4 or Pi 5 UAS
   verdict is works-with-quirk, broken or mixed, or (when not nice) the Pi 4 or Pi 5 boot verdict is fails or
   mixed. Booting is a column of the nice list, not a gate.
8. Quirk line. The flag letters of counted works-with-quirk findings (never hearsay) on Linux platforms,
   applied to the USB ID the report names (all of the adapter's IDs when it names none).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .vocabulary import PLATFORMS as VOCABULARY_PLATFORMS

# Platforms and their hosts come from the schema (vocabulary.py): label, member hosts, Linux or not, Pi or not,
# `no_uas_host` when none of its hosts can do UAS, `boot_hosts` when only some can boot from USB.
PLATFORMS: Dict[str, Dict[str, Any]] = VOCABULARY_PLATFORMS
HOST_PLATFORM = {host: name for name, spec in PLATFORMS.items() for host in spec["hosts"]}
# The platforms whose verdicts decide the lists: the Pi models the site is for.
LIST_PLATFORMS = ("pi4", "pi5")
# drivers/usb/storage/usb.c: `static char quirks[128]` — a longer value is refused whole ("string parameter too long").
QUIRKS_PARAM_MAX_CHARS = 127
NOT_THE_ADAPTER = frozenset({"power", "cable", "hub", "drive", "host", "software"})

EVIDENCE_CLASSES = {
    "observed": "output that shows the driver or the failure (lsusb -t, dmesg, probe) is attached or quoted",
    "stated": "the reporter names the driver or the quirk they used",
    "hearsay": "an outcome with no driver, quirk or output behind it (\"works fine\", \"known good\")",
}
STRENGTH_RANK = {"observed": 3, "stated": 2, "hearsay": 1}

UAS_VERDICTS = ("works", "works-with-quirk", "no-uas", "broken", "mixed", "fixed", "host-no-uas", "untested")
BOOT_VERDICTS = ("works", "works-with-workaround", "intermittent", "fails", "mixed", "fixed", "untested")
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
    "fails": "Does not boot",
    "mixed": "Mixed", "fixed": "Fixed", "untested": "Untested",
}
LIKELY_SHORT = {
    "works": "Likely works", "works-with-quirk": "Likely needs quirk", "no-uas": "Likely no UAS",
    "broken": "Reported broken", "mixed": "Unverified, disagree", "works-with-workaround": "Likely boots with workaround",
    "fails": "Reported not to boot", "boots": "Likely boots",
    "intermittent": "Reported to boot sometimes",
}
# Badge colour (the CSS classes tone-*), decided here so templates and scripts only print it. "meh" is neutral;
# a verdict resting on hearsay alone is always "meh", whatever it says.
TONE = {"works": "good", "works-with-quirk": "warn", "works-with-workaround": "warn", "no-uas": "meh",
        "host-no-uas": "meh", "broken": "bad", "fails": "bad", "intermittent": "warn", "mixed": "warn", "fixed": "meh", "untested": "none"}
ICON = {"good": "✓", "warn": "!", "meh": "–", "bad": "✗", "none": "?"}
# Sort order of tables, best first; a hearsay verdict sorts after the same verdict on evidence.
RANK = {"works": 1, "works-with-workaround": 3, "works-with-quirk": 3, "no-uas": 4, "host-no-uas": 4, "fixed": 5,
        "mixed": 6, "intermittent": 6, "broken": 7, "fails": 7, "untested": 9}

# dmesg lines that mean trouble on the storage link (uas.c error handlers, hub resets, block-layer errors).
TROUBLE_IN_DMESG = re.compile(
    r"uas_eh_(?:abort|device_reset)_handler|uas_zap_pending|\breset (?:SuperSpeed|high-speed|full-speed)"
    r"|I/O error|\btask abort\b|blocked for more than \d+ seconds|rejecting I/O to offline device|device offlined",
    re.IGNORECASE)
_DRIVER_IN_LSUSB_T = re.compile(r"Class=Mass Storage, Driver=(uas|usb-storage)\b")
_DRIVER_IN_DMESG = re.compile(r"scsi host\d+: (uas|usb-storage)\b")
_UAS_IGNORED_IN_DMESG = re.compile(r"UAS is (?:ignored|blacklisted) for this device")
# `uasdb probe` prints "interface 2-1:1.0: class 08 protocol 62 driver uas …" for each storage interface.
_DRIVER_IN_PROBE = re.compile(r"\binterface \S+: class 08 protocol \d+ driver (uas|usb-storage)\b")


@dataclass(frozen=True)
class Finding:
    """What one report shows about one question (UAS or boot) on its platform."""
    report: int
    outcome: str                   # a UAS or boot class
    strength: str                  # observed, stated or hearsay
    counted: bool                  # False when blamed on something else or superseded by a fix
    why_not_counted: Optional[str] = None   # "blamed-on-<x>" or "fixed"
    date: str = ""


def evidence_driver(report: Mapping[str, Any]) -> Optional[str]:
    """The driver the attached output shows, if it shows one."""
    evidence = report.get("evidence") or {}
    for key, pattern in (("lsusb_t", _DRIVER_IN_LSUSB_T), ("probe", _DRIVER_IN_PROBE), ("dmesg", _DRIVER_IN_DMESG)):
        found = {m.group(1) for m in pattern.finditer(evidence.get(key) or "")}
        if len(found) == 1:
            return found.pop()
    if _UAS_IGNORED_IN_DMESG.search(evidence.get("dmesg") or ""):
        return "usb-storage"
    return None


def dmesg_trouble(report: Mapping[str, Any]) -> List[str]:
    """The dmesg lines of a report that show link trouble."""
    dmesg = (report.get("evidence") or {}).get("dmesg") or ""
    return [line.strip() for line in dmesg.splitlines() if TROUBLE_IN_DMESG.search(line)]


def has_trouble(report: Mapping[str, Any]) -> bool:
    return report.get("stability") in ("errors", "disconnects") or bool(dmesg_trouble(report))


def effective_driver(report: Mapping[str, Any]) -> Optional[str]:
    return report.get("driver") or evidence_driver(report)


def evidence_strength(report: Mapping[str, Any]) -> str:
    """observed / stated / hearsay for what a report says about UAS (EVIDENCE_CLASSES)."""
    if evidence_driver(report) or dmesg_trouble(report) or (report.get("evidence") or {}).get("probe"):
        return "observed"
    if report.get("driver") or report.get("quirks"):
        return "stated"
    return "hearsay"


def boot_strength(report: Mapping[str, Any]) -> str:
    """A boot outcome is the reporter's own statement; attached output makes it observed."""
    evidence = report.get("evidence") or {}
    return "observed" if evidence.get("probe") or evidence.get("dmesg") or evidence.get("lsusb_t") else "stated"


def uas_outcome(report: Mapping[str, Any], platform: str) -> Optional[str]:
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


def _why_not_counted(report: Mapping[str, Any], outcome: str) -> Optional[str]:
    blamed = report.get("blamed_on")
    if blamed in NOT_THE_ADAPTER and outcome not in ("works", "host-no-uas"):
        return f"blamed-on-{blamed}"  # a success still counts when the report blames a failure elsewhere
    if report.get("fixed_in") and _is_failure(outcome):
        return "fixed"
    return None


def uas_finding(index: int, report: Mapping[str, Any], platform: str) -> Optional[Finding]:
    if HOST_PLATFORM.get(report.get("host")) != platform:
        return None
    outcome = uas_outcome(report, platform)
    if outcome is None:
        return None
    strength = "observed" if outcome == "host-no-uas" and evidence_driver(report) else evidence_strength(report)
    if outcome == "host-no-uas" and strength == "hearsay":
        strength = "stated"  # the host's lack of UAS is a fact about the host, not a claim about the adapter
    why = _why_not_counted(report, outcome)
    return Finding(index, outcome, strength, why is None, why, str(report.get("date", "")))


def boot_finding(index: int, report: Mapping[str, Any], platform: str) -> Optional[Finding]:
    spec = PLATFORMS[platform]
    if not spec["pi"] or report.get("host") not in spec.get("boot_hosts", spec["hosts"]) or "boot" not in report:
        return None
    outcome = report["boot"]
    why = _why_not_counted(report, outcome)
    return Finding(index, outcome, boot_strength(report), why is None, why, str(report.get("date", "")))


@dataclass
class PlatformVerdict:
    verdict: str
    kind: str = "uas"                                       # uas or boot
    confidence: str = "none"                                # confirmed, likely, disputed, none
    findings: List[Finding] = field(default_factory=list)

    @cached_property
    def deciding(self) -> List[Finding]:
        """The findings that decided the verdict: counted observed/stated ones, else counted hearsay."""
        counted = [f for f in self.findings if f.counted]
        strong = [f for f in counted if f.strength != "hearsay"]
        return strong or counted

    @property
    def counted(self) -> List[int]:
        return sorted(f.report for f in self.deciding)

    @property
    def discounted(self) -> List[int]:
        return sorted(f.report for f in self.findings if not f.counted and f.why_not_counted != "fixed")

    @property
    def superseded(self) -> List[int]:
        return sorted(f.report for f in self.findings if f.why_not_counted == "fixed")

    @property
    def unverified(self) -> List[int]:
        """Hearsay set aside because observed/stated findings decide: listed, not counted."""
        deciding = {f.report for f in self.deciding}
        return sorted(f.report for f in self.findings if f.counted and f.report not in deciding)

    @property
    def disagreeing(self) -> List[int]:
        """The set-aside hearsay whose outcome differs from the verdict's."""
        outcomes = {f.outcome for f in self.deciding}
        unverified = set(self.unverified)
        return sorted(f.report for f in self.findings if f.report in unverified and f.outcome not in outcomes)

    @property
    def classes(self) -> Dict[str, List[int]]:
        classes: Dict[str, List[int]] = {}
        for f in self.deciding:
            classes.setdefault(f.outcome, []).append(f.report)
        return {k: sorted(v) for k, v in sorted(classes.items())}

    @property
    def strength(self) -> Optional[str]:
        deciding = self.deciding
        return max((f.strength for f in deciding), key=STRENGTH_RANK.__getitem__) if deciding else None

    @property
    def basis(self) -> Dict[str, Any]:
        deciding = self.deciding
        years = sorted(f.date[:4] for f in deciding if f.date)
        return {"reports": len(deciding), "strongest": self.strength,
                "first": years[0] if years else None, "last": years[-1] if years else None}

    @property
    def fixed(self) -> List[Dict[str, Any]]:
        """Failures later fixed, one entry per component and version (reports carry `fixed_in`)."""
        return self._fixed

    _fixed: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def short(self) -> str:
        words = BOOT_VERDICT_SHORT if self.kind == "boot" else VERDICT_SHORT
        if self.confidence == "likely":
            key = "boots" if (self.kind, self.verdict) == ("boot", "works") else self.verdict
            return LIKELY_SHORT.get(key, words[self.verdict])
        return words[self.verdict]

    @property
    def text(self) -> str:
        words = BOOT_VERDICT_TEXT if self.kind == "boot" else VERDICT_TEXT
        sentence = words[self.verdict]
        if self.confidence == "likely":
            sentence += " — unverified: no report names the driver or shows output"
        if self.fixed:
            sentence += "; " + "; ".join(f"fixed since {f['component']} {f['version']}" for f in self.fixed)
        return sentence

    @property
    def basis_text(self) -> str:
        basis = self.basis
        if not basis["reports"]:
            return "fixed: " + ", ".join(f"{f['component']} {f['version']}" for f in self.fixed) if self.fixed else "no reports"
        noun = "report" if basis["reports"] == 1 else "reports"
        if basis["strongest"] == "hearsay":
            parts = [f"{basis['reports']} unverified {noun}"]
        else:
            parts = [f"{basis['reports']} {noun}", basis["strongest"]]
        if basis["first"]:
            parts.append(basis["first"] if basis["first"] == basis["last"] else f"{basis['first']}–{basis['last']}")
        return " · ".join(parts)

    @property
    def tone(self) -> str:
        return "meh" if self.confidence == "likely" else TONE[self.verdict]

    def as_dict(self) -> Dict[str, Any]:
        return {"verdict": self.verdict, "short": self.short, "badge": self.short, "text": self.text,
                "tone": self.tone, "icon": ICON[self.tone],
                "rank": RANK[self.verdict] + (1 if self.confidence == "likely" else 0),
                "confidence": self.confidence, "strength": self.strength, "basis": self.basis,
                "basis_text": self.basis_text, "counted": self.counted, "discounted": self.discounted,
                "superseded": self.superseded, "unverified": self.unverified, "disagreeing": self.disagreeing, "classes": self.classes, "fixed": self.fixed}


def _fixed_entries(reports: Sequence[Mapping[str, Any]], findings: Iterable[Finding]) -> List[Dict[str, Any]]:
    entries: Dict[Tuple[str, str], Dict[str, Any]] = {}
    for f in findings:
        if f.why_not_counted == "fixed":
            fix = reports[f.report]["fixed_in"]
            entry = entries.setdefault((fix["component"], fix["version"]),
                                       {"component": fix["component"], "version": fix["version"], "url": fix["url"],
                                        "reports": []})
            entry["reports"].append(f.report)
    return [entries[k] for k in sorted(entries)]


def _aggregate(findings: List[Finding], reports: Sequence[Mapping[str, Any]], kind: str) -> PlatformVerdict:
    verdict = PlatformVerdict("untested", kind, "none", findings)
    verdict._fixed = _fixed_entries(reports, findings)
    deciding = verdict.deciding
    outcomes = {f.outcome for f in deciding}
    if not outcomes:
        verdict.verdict = "fixed" if verdict.fixed else "untested"
        verdict.confidence = "confirmed" if verdict.fixed else "none"
        return verdict
    verdict.verdict = outcomes.pop() if len(outcomes) == 1 else "mixed"
    if verdict.strength == "hearsay":
        verdict.confidence = "likely"
    else:
        verdict.confidence = "disputed" if verdict.verdict == "mixed" else "confirmed"
    return verdict


def verdict_for_platform(reports: List[Mapping[str, Any]], platform: str) -> PlatformVerdict:
    findings = [f for i, rep in enumerate(reports) if (f := uas_finding(i, rep, platform))]
    return _aggregate(findings, reports, "uas")


def boot_verdict_for_platform(reports: List[Mapping[str, Any]], platform: str) -> PlatformVerdict:
    findings = [f for i, rep in enumerate(reports) if (f := boot_finding(i, rep, platform))]
    return _aggregate(findings, reports, "boot")


def quirk_entries(record: Mapping[str, Any], uas: Optional[Mapping[str, PlatformVerdict]] = None) -> List[str]:
    """`vid:pid:flags` entries for usb-storage.quirks=, from counted observed/stated works-with-quirk findings on
    Linux platforms (never hearsay, never a report blamed on something else or fixed since)."""
    reports = record.get("reports", [])
    uas = uas or {name: verdict_for_platform(list(reports), name) for name in PLATFORMS}
    all_ids = [f"{u['vid']}:{u['pid']}" for u in record.get("usb_ids", [])]
    flags_by_id: Dict[str, set] = {}
    for name, verdict in uas.items():
        if not PLATFORMS[name]["linux"]:
            continue
        for finding in verdict.findings:
            report = reports[finding.report]
            if (finding.outcome != "works-with-quirk" or not finding.counted or finding.strength == "hearsay"
                    or not report.get("quirks")):
                continue
            for usb_id in [report["usb_id"]] if report.get("usb_id") else all_ids:
                flags_by_id.setdefault(usb_id, set()).update(report["quirks"])
    return [f"{usb_id}:{''.join(sorted(flags))}" for usb_id, flags in sorted(flags_by_id.items())]


@dataclass
class AdapterVerdict:
    uas: Dict[str, PlatformVerdict]
    boot: Dict[str, PlatformVerdict]
    listing: Optional[str]
    reasons: List[str]
    quirk_entries: List[str]

    @property
    def quirk_line(self) -> Optional[str]:
        return "usb-storage.quirks=" + ",".join(self.quirk_entries) if self.quirk_entries else None

    def readings(self, report_count: int) -> List[Dict[str, Any]]:
        """Per report, what the engine read from it: its UAS and boot findings, their strength, and whether and
        why they count — so a page can show each report's part in the verdict."""
        out: List[Dict[str, Any]] = [{} for _ in range(report_count)]
        for kind, per_platform in (("uas", self.uas), ("boot", self.boot)):
            for verdict in per_platform.values():
                unverified = set(verdict.unverified)
                for f in verdict.findings:
                    status = "counted"
                    if not f.counted:
                        status = "fixed" if f.why_not_counted == "fixed" else "not-counted"
                    elif f.report in unverified:
                        status = "set-aside"
                    out[f.report][kind] = {"outcome": f.outcome, "strength": f.strength, "status": status,
                                           "why": f.why_not_counted}
        return out

    def as_dict(self) -> Dict[str, Any]:
        return {
            "uas": {name: v.as_dict() for name, v in self.uas.items()},
            "boot": {name: v.as_dict() for name, v in self.boot.items()},
            "list": self.listing,
            "reasons": self.reasons,
            "quirk_entries": self.quirk_entries,
            "quirk_line": self.quirk_line,
        }


def _short_platform(name: str) -> str:
    return PLATFORMS[name]["label"].replace("Raspberry ", "")


def list_for(uas: Mapping[str, PlatformVerdict], boot: Mapping[str, PlatformVerdict]) -> Tuple[Optional[str], List[str]]:
    """Nice or naughty (or neither) from the Pi 4 and Pi 5 verdicts, with the reasons in words."""
    naughty: List[str] = []
    for name in LIST_PLATFORMS:
        v = uas[name]
        if v.confidence == "likely":
            continue  # hearsay never lists a product
        where = _short_platform(name)
        if v.verdict == "works-with-quirk":
            naughty.append(f"needs a usb-storage quirk on {where}")
        elif v.verdict == "broken":
            naughty.append(f"UAS is broken on {where}")
        elif v.verdict == "mixed":
            naughty.append(f"{where} UAS reports disagree")
    boot_reasons = []
    for name in LIST_PLATFORMS:
        v = boot[name]
        if v.confidence in ("confirmed", "disputed") and v.verdict in ("fails", "intermittent", "mixed"):
            boot_reasons.append({"fails": f"does not boot a {_short_platform(name)}",
                                 "intermittent": f"boots a {_short_platform(name)} only some of the time",
                                 "mixed": f"{_short_platform(name)} boot reports disagree"}[v.verdict])
    if naughty:
        return "naughty", naughty + boot_reasons
    confirmed = [name for name in LIST_PLATFORMS if uas[name].verdict == "works" and uas[name].confidence == "confirmed"]
    against = [f for name in LIST_PLATFORMS for f in uas[name].findings
               if f.counted and f.outcome in ("broken", "works-with-quirk", "no-uas")]
    if confirmed and not against:
        return "nice", [f"UAS works without a quirk on {' and '.join(_short_platform(n) for n in confirmed)}"]
    if boot_reasons:
        return "naughty", boot_reasons
    return None, []


def adapter_verdict(record: Mapping[str, Any]) -> AdapterVerdict:
    reports = list(record.get("reports", []))
    uas = {name: verdict_for_platform(reports, name) for name in PLATFORMS}
    boot = {name: boot_verdict_for_platform(reports, name) for name, spec in PLATFORMS.items() if spec["pi"]}
    listing, reasons = list_for(uas, boot)
    return AdapterVerdict(uas, boot, listing, reasons, quirk_entries(record, uas))


def merge_quirk_entries(entries: Iterable[str]) -> Dict[str, str]:
    """`vid:pid` -> united, sorted flag letters of every entry naming it."""
    flags_by_id: Dict[str, set] = {}
    for entry in entries:
        vid, pid, flags = entry.split(":")
        flags_by_id.setdefault(f"{vid}:{pid}", set()).update(flags)
    return {k: "".join(sorted(v)) for k, v in sorted(flags_by_id.items())}


def combined_quirk_line(verdicts: Iterable[AdapterVerdict], exclude_ids: Iterable[str] = ()) -> Optional[str]:
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
        return f"On the nice list: {verdict.reasons[0]} ({verdict.uas['pi4' if verdict.uas['pi4'].verdict == 'works' else 'pi5'].basis_text})."
    parts = []
    for name in LIST_PLATFORMS:
        uas, boot = verdict.uas[name], verdict.boot[name]
        if uas.verdict == "untested" and boot.verdict == "untested":
            continue
        text = f"{PLATFORMS[name]['label']}: " + (f"{uas.text} ({uas.basis_text})" if uas.verdict != "untested"
                                                    else "UAS not reported yet")
        if boot.verdict != "untested":
            text += f"; booting: {boot.text}"
        parts.append(text)
    if parts:
        return ". ".join(parts) + "."
    tested = [PLATFORMS[name]["label"] for name, v in verdict.uas.items() if v.verdict != "untested"]
    if tested:
        return "No Raspberry Pi 4 or Pi 5 reports yet; reports exist for " + ", ".join(tested) + "."
    return "No reports with a verdict yet."


def quirk_value_length(line: Optional[str]) -> int:
    """Characters after `usb-storage.quirks=`: what the kernel's 128-byte parameter must hold."""
    return len(line.split("=", 1)[1]) if line else 0


def quirk_line_fits(line: Optional[str]) -> bool:
    return quirk_value_length(line) <= QUIRKS_PARAM_MAX_CHARS


def usb_id_verdict(verdicts: Mapping[str, AdapterVerdict]) -> Dict[str, Any]:
    """The verdict for a USB ID that several products share: per platform, the products' verdict when every
    tested product agrees, else "depends on the product" with each product's own verdict."""
    result: Dict[str, Any] = {}
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
            "products": {aid: {"verdict": v.verdict, "short": v.short, "basis_text": v.basis_text}
                         for aid, v in sorted(tested.items())},
        }
    return result
