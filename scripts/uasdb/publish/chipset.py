"""The chipset page's model (/api/v1/chipsets/<id>.json); /api/v1/chipsets.json lists every chipset."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..records.vocabulary import FOCUS_PLATFORMS, LIST_PLATFORMS, PLATFORM_SHORT, PLATFORMS
from ..verdicts.engine import TONE
from .facets import facets, slug
from .labels import DRIVE_LABELS

KERNEL_KEYS = ("kernel", "kernel_groups", "kernel_by_itself", "kernel_runtime", "smartctl", "smart_blocked")


def chipset_entries(chipsets: Mapping[str, Mapping[str, Any]], adapters: Sequence[Mapping[str, Any]],
                    verdict_by_id: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The catalog's chipsets, in id order: each record with its adapters' ids, its labels and how its adapters
    fare per platform (chipset_platform_summary)."""
    by_chipset: dict[str, list[str]] = {}
    for adapter in adapters:
        if adapter.get("chipset"):
            by_chipset.setdefault(adapter["chipset"], []).append(adapter["id"])
    chipset_list = []
    for chipset_id in sorted(chipsets):
        entry = dict(chipsets[chipset_id])
        entry["adapters"] = by_chipset.get(chipset_id, [])
        # `uas` left out of a chipset record means no source says: show "unknown", never "no".
        entry["uas_label"] = {True: "yes", False: "no", None: "unknown"}[entry.get("uas")]
        entry["drive_label"] = DRIVE_LABELS[entry["drive_interface"]]
        entry["platform_summary"] = chipset_platform_summary([verdict_by_id[i] for i in entry["adapters"]])
        chipset_list.append(entry)
    return chipset_list


def model(chipset: Mapping[str, Any], catalog: Mapping[str, Any], rows: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The chipset as the catalog has it, plus `page`: its adapters' rows and, per USB ID, what Linux does with
    it. A check that looks at the device (ASMedia's) is explained in full at the first ID that has one; later
    IDs link to that (`explain`: true, "above" or false)."""
    usb = []
    explained = False
    for usb_id in chipset.get("usb_ids", []):
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        slot = catalog["usb"].get(key)
        if slot is None:
            continue
        probes = any(check.get("decided_by") for check in slot.get("kernel_runtime") or [])
        usb.append(dict({k: slot.get(k) for k in KERNEL_KEYS}, key=key, vid=slot["vid"], pid=slot["pid"],
                        explain="above" if explained else True))
        explained = explained or probes
    uas = {"yes": "with UAS", "no": "without UAS (usb-storage only)"}.get(chipset["uas_label"], "UAS support not known")
    count = len(chipset["adapters"])
    summary = (f"{chipset['maker']} USB to {chipset['drive_label']} bridge, {uas}; "
               f"{count} adapter{'' if count == 1 else 's'} in the database.")
    return dict(chipset, page={"summary": summary, "rows": [rows[i] for i in chipset["adapters"]], "usb": usb})


# The chipset list's filters: who makes the chip, and whether it speaks UAS (the record's `uas`, as `uas_label`).
UAS = {"yes": "With UAS", "no": "Without UAS", "unknown": "Not known"}


def index(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """/api/v1/chipsets.json: every chipset as the catalog has it, with what the list's filters match (`facets`)."""
    return [dict(c, facets={"maker": [slug(c["maker"])], "uas": [c["uas_label"]]}) for c in catalog["chipsets"]]


def index_filters(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    makers = {slug(m): m for m in sorted({r["maker"] for r in rows}, key=str.casefold)}
    return facets([r["facets"] for r in rows], [("maker", "Maker", makers), ("uas", "UAS", UAS)])


# How a chipset's adapters fare: (singular, plural) verb phrases per bucket, worst first (the tone follows it).
# A bucket is a verdict word refined by its grade and confidence (_fare_bucket).
_FARE = {"broken": ("has broken UAS", "have broken UAS"), "mixed": ("has mixed reports", "have mixed reports"),
         "works-with-quirk": ("needs a quirk", "need a quirk"),
         "errors": ("had UAS errors of unclear cause", "had UAS errors of unclear cause"),
         "no-uas": ("has no UAS", "have no UAS"),
         "fixed": ("had trouble a later release fixed", "had trouble a later release fixed"),
         "quirk-applied": ("works with a quirk whose need is not shown", "work with a quirk whose need is not shown"),
         "unverified": ("has only unverified reports", "have only unverified reports"),
         "pending": ("works, pending more reports", "work, pending more reports"),
         "works": ("works, used at 5 Gbit/s", "work, used at 5 Gbit/s")}
_BOOT_FARE = {"fails": ("does not boot", "do not boot"), "intermittent": ("boots only sometimes", "boot only sometimes"),
              "mixed": ("has mixed boot reports", "have mixed boot reports"),
              "works-with-workaround": ("boots with a workaround", "boot with a workaround"),
              "fixed": ("had a boot failure a later release fixed", "had a boot failure a later release fixed"),
              "unverified": ("has only unverified boot reports", "have only unverified boot reports"),
              "works": ("boots", "boot")}
_FARE_TONE = {"broken": "bad", "mixed": "warn", "works-with-quirk": "warn", "errors": "warn", "no-uas": "meh",
              "fixed": "meh", "quirk-applied": "meh", "unverified": "meh", "pending": "fair", "works": "good",
              "fails": "bad", "intermittent": "warn", "works-with-workaround": "warn"}
# The one or two words a compact count shows ("2 need quirk"), per bucket.
_FARE_WORD = {"works": "recommended", "pending": "pending", "works-with-quirk": "need quirk", "broken": "broken",
              "mixed": "mixed", "errors": "errors", "no-uas": "no UAS", "fixed": "fixed", "quirk-applied": "quirk applied",
              "unverified": "unverified"}
_BOOT_FARE_WORD = {"works": "boot", "works-with-workaround": "workaround", "intermittent": "sometimes", "fails": "no boot",
                   "mixed": "mixed", "fixed": "fixed", "unverified": "unverified"}
# Buckets a buyer avoids: the "trouble" count that sorts the chipset table.
_TROUBLE = frozenset({"broken", "mixed", "works-with-quirk", "errors", "fails", "intermittent"})
SUMMARY_PLATFORMS = FOCUS_PLATFORMS


def _fare_bucket(pv: Any) -> str:
    if pv.verdict == "untested":
        return "untested"
    if pv.confidence == "likely":
        return "unverified"
    if pv.kind == "uas" and pv.verdict == "works":
        return "works" if pv.recommended else "pending"
    return {"failure-not-shown": "quirk-applied", "cause-not-isolated": "errors"}.get(pv.grade or "", pv.verdict)


def _fare(verdicts: list[Any], fare: dict[str, tuple[str, str]], noun: tuple[str, str],
          words: dict[str, str]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for pv in verdicts:
        bucket = _fare_bucket(pv)
        counts[bucket] = counts.get(bucket, 0) + 1
    untested = counts.pop("untested", 0)
    tested = sum(counts.values())
    parts = [f"{counts[w]} {fare[w][counts[w] != 1]}" for w in fare if counts.get(w)]
    if tested:
        first = parts[0].split(" ", 1)
        text = f"{first[0]} of {tested} {noun[tested != 1]} {first[1]}" + "".join(f", {p}" for p in parts[1:])
    else:
        text = f"no {noun[0]}"
    if untested and tested:
        text += f"; {untested} not tested"
    worst = next((w for w in fare if counts.get(w)), None)
    badges = [{"count": counts[w], "word": words[w], "tone": _FARE_TONE[w]} for w in fare if counts.get(w)]
    return {"counts": dict(counts, untested=untested), "tested": tested, "text": text, "badges": badges,
            "tone": _FARE_TONE[worst] if worst else TONE["untested"],
            "trouble": sum(n for w, n in counts.items() if w in _TROUBLE)}


def chipset_platform_summary(verdicts: list[Any]) -> list[dict[str, Any]]:
    """Per platform, how the chipset's adapters fare with UAS ("1 of 2 tested adapters needs a quirk, 1 works,
    pending more reports"; tested ones only, the untested counted apart) and, on a Pi, with booting, so a
    chipset page opens with the answer and the chipset table can sort by trouble."""
    rows = []
    for name in SUMMARY_PLATFORMS:
        row = dict(_fare([v.uas[name] for v in verdicts], _FARE, ("tested adapter", "tested adapters"), _FARE_WORD),
                   platform=name, label=PLATFORMS[name]["label"], short=PLATFORM_SHORT[name])
        if name in LIST_PLATFORMS:
            row["boot"] = _fare([v.boot[name] for v in verdicts], _BOOT_FARE,
                               ("adapter with a boot report", "adapters with a boot report"), _BOOT_FARE_WORD)
            row["trouble"] += row["boot"]["trouble"]
        rows.append(row)
    return rows
