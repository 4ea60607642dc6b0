"""The one place where reports become verdicts. The site, the API and the CLI only render these.

The rule, in words (CONTRIBUTING.md repeats it):

1. A report speaks for a platform through its host: Pi 4 (Pi 4, Pi 400, CM4),
   Pi 5 (Pi 5, Pi 500, CM5), Pi 3 and older (Pi 3, 3B+, Zero 2, older), Linux PC,
   macOS, Windows.
2. A report is *credible against* the adapter only if its failure is not blamed
   on something else (`blamed_on` power, cable, hub, drive, host or software).
   Such reports are still shown; they just do not count.
3. Each credible report's `uas` outcome gives one class: works, works-with-quirk,
   broken, no-uas (the adapter lacks UAS). On Pi 3 and older, whose host has no
   UAS, `host-no-uas` means "works over usb-storage" unless it logged errors or
   disconnects. Elsewhere `host-no-uas` says nothing about the adapter.
4. The platform verdict is `untested` with no class, the class itself when all
   credible reports agree, and `mixed` when they disagree. Never averaged.
5. Booting is judged the same way from `boot` (works, works-with-workaround,
   fails; disagreement is `mixed`).
6. Lists: **nice** when the Pi 4 UAS verdict is `works` and the Pi 4 boot verdict
   is `works`; **naughty** when the Pi 4 UAS verdict is `works-with-quirk`,
   `broken` or `mixed`, or the Pi 4 boot verdict is `fails` or `mixed`.
   Otherwise on neither list.
7. The quirk line gathers the flag letters of every credible works-with-quirk
   report on a Linux platform and applies them to the USB IDs those reports name
   (all of the adapter's IDs when a report names none).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional

PLATFORMS: Dict[str, Dict[str, Any]] = {
    "pi4": {"label": "Raspberry Pi 4", "hosts": ("pi4", "pi400", "cm4"), "linux": True, "pi": True},
    "pi5": {"label": "Raspberry Pi 5", "hosts": ("pi5", "pi500", "cm5"), "linux": True, "pi": True},
    "pi3": {"label": "Raspberry Pi 3 and older", "hosts": ("pi3", "pi3b-plus", "pi-zero-2", "pi-older"), "linux": True, "pi": True, "no_uas_host": True},
    "linux": {"label": "Linux PC", "hosts": ("linux-x86_64", "linux-arm64"), "linux": True, "pi": False},
    "macos": {"label": "macOS", "hosts": ("macos",), "linux": False, "pi": False},
    "windows": {"label": "Windows", "hosts": ("windows",), "linux": False, "pi": False},
}
HOST_PLATFORM = {host: name for name, spec in PLATFORMS.items() for host in spec["hosts"]}
# drivers/usb/storage/usb.c: `static char quirks[128]` — a longer value is refused whole ("string parameter too long").
QUIRKS_PARAM_MAX_CHARS = 127
NOT_THE_ADAPTER = frozenset({"power", "cable", "hub", "drive", "host", "software"})

UAS_VERDICTS = ("works", "works-with-quirk", "no-uas", "broken", "mixed", "untested")
BOOT_VERDICTS = ("works", "works-with-workaround", "fails", "mixed", "untested")
VERDICT_TEXT = {
    "works": "UAS works, no quirk needed",
    "works-with-quirk": "works only with a quirk",
    "no-uas": "works, but the adapter has no UAS (slower usb-storage)",
    "broken": "broken",
    "mixed": "reports disagree",
    "untested": "no reports yet",
}
BOOT_VERDICT_TEXT = {
    "works": "boots from it",
    "works-with-workaround": "boots only with a workaround",
    "fails": "does not boot from it",
    "mixed": "reports disagree",
    "untested": "no boot reports yet",
}
# Short words for badges; the long texts above explain them.
VERDICT_SHORT = {
    "works": "Works", "works-with-quirk": "Needs quirk", "no-uas": "No UAS", "broken": "Broken",
    "mixed": "Mixed", "untested": "Untested",
}
BOOT_VERDICT_SHORT = {
    "works": "Boots", "works-with-workaround": "Boots with workaround", "fails": "Does not boot",
    "mixed": "Mixed", "untested": "Untested",
}


@dataclass
class PlatformVerdict:
    verdict: str
    counted: List[int] = field(default_factory=list)      # report indices that decided it
    discounted: List[int] = field(default_factory=list)   # reports shown but blamed on something else
    classes: Dict[str, List[int]] = field(default_factory=dict)

    def as_dict(self) -> Dict[str, Any]:
        return {"verdict": self.verdict, "counted": self.counted, "discounted": self.discounted, "classes": self.classes}


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

    def as_dict(self) -> Dict[str, Any]:
        return {
            "uas": {name: v.as_dict() for name, v in self.uas.items()},
            "boot": {name: v.as_dict() for name, v in self.boot.items()},
            "list": self.listing,
            "reasons": self.reasons,
            "quirk_entries": self.quirk_entries,
            "quirk_line": self.quirk_line,
        }


def is_credible(report: Mapping[str, Any]) -> bool:
    """A report counts against the adapter unless its failure is blamed on something else."""
    return report.get("blamed_on") not in NOT_THE_ADAPTER


def uas_class(report: Mapping[str, Any], platform: str) -> Optional[str]:
    """What one report says about UAS on `platform`, or None when it says nothing."""
    outcome = report.get("uas")
    if outcome is None:
        return None
    if outcome == "host-no-uas":
        if not PLATFORMS[platform].get("no_uas_host"):
            return None
        return "broken" if report.get("stability") in ("errors", "disconnects") else "works"
    return {"works": "works", "works-with-quirk": "works-with-quirk", "broken": "broken", "device-no-uas": "no-uas"}[outcome]


def _aggregate(classes: Dict[str, List[int]], counted: List[int], discounted: List[int]) -> PlatformVerdict:
    if not classes:
        verdict = "untested"
    elif len(classes) == 1:
        verdict = next(iter(classes))
    else:
        verdict = "mixed"
    return PlatformVerdict(verdict, sorted(counted), sorted(discounted), {k: sorted(v) for k, v in sorted(classes.items())})


def verdict_for_platform(reports: List[Mapping[str, Any]], platform: str) -> PlatformVerdict:
    classes: Dict[str, List[int]] = {}
    counted: List[int] = []
    discounted: List[int] = []
    for index, report in enumerate(reports):
        if HOST_PLATFORM.get(report.get("host")) != platform:
            continue
        cls = uas_class(report, platform)
        if cls is None:
            continue
        if not is_credible(report):
            discounted.append(index)
            continue
        classes.setdefault(cls, []).append(index)
        counted.append(index)
    return _aggregate(classes, counted, discounted)


def boot_verdict_for_platform(reports: List[Mapping[str, Any]], platform: str) -> PlatformVerdict:
    classes: Dict[str, List[int]] = {}
    counted: List[int] = []
    discounted: List[int] = []
    for index, report in enumerate(reports):
        if HOST_PLATFORM.get(report.get("host")) != platform or "boot" not in report:
            continue
        if not is_credible(report):
            discounted.append(index)
            continue
        classes.setdefault(report["boot"], []).append(index)
        counted.append(index)
    return _aggregate(classes, counted, discounted)


def quirk_entries(record: Mapping[str, Any]) -> List[str]:
    """`vid:pid:flags` entries for usb-storage.quirks=, from credible works-with-quirk reports on Linux hosts."""
    all_ids = [f"{u['vid']}:{u['pid']}" for u in record.get("usb_ids", [])]
    flags_by_id: Dict[str, set] = {}
    for report in record.get("reports", []):
        platform = HOST_PLATFORM.get(report.get("host"))
        if report.get("uas") != "works-with-quirk" or not report.get("quirks") or not is_credible(report):
            continue
        if platform is None or not PLATFORMS[platform]["linux"]:
            continue
        for usb_id in [report["usb_id"]] if report.get("usb_id") else all_ids:
            flags_by_id.setdefault(usb_id, set()).update(report["quirks"])
    return [f"{usb_id}:{''.join(sorted(flags))}" for usb_id, flags in sorted(flags_by_id.items())]


def list_for(uas_pi4: str, boot_pi4: str) -> tuple:
    reasons: List[str] = []
    if uas_pi4 == "works-with-quirk":
        reasons.append("needs a usb-storage quirk on Pi 4")
    elif uas_pi4 == "broken":
        reasons.append("UAS is broken on Pi 4")
    elif uas_pi4 == "mixed":
        reasons.append("Pi 4 UAS reports disagree")
    if boot_pi4 == "fails":
        reasons.append("does not boot a Pi 4")
    elif boot_pi4 == "mixed":
        reasons.append("Pi 4 boot reports disagree")
    if reasons:
        return "naughty", reasons
    if uas_pi4 == "works" and boot_pi4 == "works":
        return "nice", ["UAS works on Pi 4 without quirks and it boots"]
    return None, []


def adapter_verdict(record: Mapping[str, Any]) -> AdapterVerdict:
    reports = list(record.get("reports", []))
    uas = {name: verdict_for_platform(reports, name) for name in PLATFORMS}
    boot = {name: boot_verdict_for_platform(reports, name) for name, spec in PLATFORMS.items() if spec["pi"]}
    listing, reasons = list_for(uas["pi4"].verdict, boot["pi4"].verdict)
    return AdapterVerdict(uas, boot, listing, reasons, quirk_entries(record))


def combined_quirk_line(verdicts: Iterable[AdapterVerdict]) -> Optional[str]:
    """One usb-storage.quirks= line for many adapters; an ID named twice gets the union of its flags."""
    flags_by_id: Dict[str, set] = {}
    for verdict in verdicts:
        for entry in verdict.quirk_entries:
            vid, pid, flags = entry.split(":")
            flags_by_id.setdefault(f"{vid}:{pid}", set()).update(flags)
    if not flags_by_id:
        return None
    return "usb-storage.quirks=" + ",".join(f"{k}:{''.join(sorted(v))}" for k, v in sorted(flags_by_id.items()))


def summary_line(verdict: AdapterVerdict) -> str:
    """One sentence a reader gets before the details: the list it is on and why, or the Pi 4 verdicts."""
    if verdict.listing == "naughty":
        return "On the naughty list: " + "; ".join(verdict.reasons) + "."
    if verdict.listing == "nice":
        return "On the nice list: UAS works on a Raspberry Pi 4 without quirks and it boots a Pi 4."
    uas_pi4, boot_pi4 = verdict.uas["pi4"].verdict, verdict.boot["pi4"].verdict
    if uas_pi4 == "untested" and boot_pi4 == "untested":
        tested = [PLATFORMS[name]["label"] for name, v in verdict.uas.items() if v.verdict != "untested"]
        if tested:
            return "No Raspberry Pi 4 reports yet; reports exist for " + ", ".join(tested) + "."
        return "No reports with a verdict yet."
    return f"Raspberry Pi 4: {VERDICT_TEXT[uas_pi4]}; booting: {BOOT_VERDICT_TEXT[boot_pi4]}."


def quirk_value_length(line: Optional[str]) -> int:
    """Characters after `usb-storage.quirks=`: what the kernel's 128-byte parameter must hold."""
    return len(line.split("=", 1)[1]) if line else 0


def quirk_line_fits(line: Optional[str]) -> bool:
    return quirk_value_length(line) <= QUIRKS_PARAM_MAX_CHARS
