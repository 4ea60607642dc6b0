"""What Linux, usb.ids and smartmontools already know, joined onto the export.

`with_reference(site)` returns the catalog export.build() makes with these joined on:
  usb[vid:pid].kernel           built-in table entries for the ID (flags with letters, bcdDevice range, strings, header:line)
  usb[vid:pid].kernel_runtime   uas-detect.h checks that add flags while probing
  usb[vid:pid].usbids           vendor and product names from usb.ids
  usb[vid:pid].smartctl         smartmontools' entries for the ID, first one is what smartctl uses
  usb                           gains every ID the kernel lists, with or without an adapter record
  adapters[].kernel             what Linux applies to the adapter's IDs, in words, and the quirk
                                line rewritten so it keeps the built-in flags a user entry would drop
  kernel, usbids, smartmontools versions and the quirk letter table; lists.kernel_only
  kernel.builtin                every built-in table entry by ID, compact, for the site's check page and
                                quirk builder (they work out what an entry replaces without one request per ID)
Nothing here decides a verdict; it only explains what the kernel does on its own.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..records.kernel_flags import FLAG_PLAIN, flag_text
from ..records.reference import (
    DriveDb,
    KernelEntry,
    KernelTable,
    RuntimeCheck,
    UsbIds,
    load_drivedb,
    load_kernel,
    load_usbids,
)
from ..verdicts.engine import QUIRKS_PARAM_MAX_CHARS

Span = tuple[str, str] | None


def flag_list(flags: Iterable[str], table: KernelTable) -> list[dict[str, Any]]:
    letter_of = table.letter_of
    return [{"name": f, "letter": letter_of.get(f), "plain": FLAG_PLAIN.get(f)} for f in flags]


def _entry_fields(entry: KernelEntry, table: KernelTable) -> dict[str, Any]:
    """What entry_json and builtin_json share about one table entry."""
    return {
        "letters": "".join(sorted(letter for letter in (table.letter_of.get(f) for f in entry.flags) if letter)),
        "bcd": {"min": entry.bcd_min, "max": entry.bcd_max},
        "every_bcd": entry.every_bcd,
        "condition": entry.condition,
        "vendor": entry.vendor,
        "product": entry.product,
        "source": f"{entry.file}:{entry.line}",
    }


def entry_json(entry: KernelEntry, table: KernelTable) -> dict[str, Any]:
    return {"usb_id": entry.usb_id, "flags": flag_list(entry.flags, table), **_entry_fields(entry, table),
            "file": entry.file, "line": entry.line}


def builtin_json(entry: KernelEntry, table: KernelTable) -> dict[str, Any]:
    """One table entry for kernel.json's `builtin` map: flag names only (their words are in `flag_plain`)."""
    return {"flags": list(entry.flags), **_entry_fields(entry, table)}


# What each device test of uas-detect.h says about the bridge, in our words, from the comment above the ASMedia
# test in drivers/usb/storage/uas-detect.h (the importer reads the tests; the chip names are only in that comment).
RUNTIME_STEP_CHIPS = {
    ("174c", "max_power_ma", "==", 0): "an ASM1153: it reports MaxPower 0 mA, where ASM105x bridges report 36 mA",
    ("174c", "speed_mbps", "<", 5000): "an ASM1051, assumed: below USB 3 there is no streams count to tell it from an ASM1053",
    ("174c", "max_streams", "==", 32): "possibly an ASM1051, which offers 32 streams (early ASM1053s offer 16)",
    ("174c", None, None, None): "an ASM1053, which has trouble with large transfers",
}


def runtime_steps(check: RuntimeCheck) -> list[dict[str, Any]]:
    """The device tests in order, each with the flags it adds and the chip it points to when the source names one."""
    steps = []
    for step in check.steps:
        when = step.get("when")
        key = (check.vid, when["field"], when["op"], when["value"]) if when else (check.vid, None, None, None)
        steps.append({"when": dict(when) if when else None, "flags": list(step["flags"]), "chip": RUNTIME_STEP_CHIPS.get(key)})
    return steps


def runtime_json(check: RuntimeCheck, table: KernelTable, usb_id: str) -> dict[str, Any]:
    return {
        "usb_id": usb_id,
        "flags": flag_list(check.flags, table),
        "decided_by": list(check.decided_by),
        "steps": runtime_steps(check),
        "strings": dict(check.strings),
        "unconditional": check.unconditional,
        # A check that names no product ID applies to every device of its vendor (the page says so).
        "every_of_vendor": not check.pids,
        "file": check.file,
        "line": check.line,
        "source": f"{check.file}:{check.line}",
    }


def _bcd_text(entry: KernelEntry) -> str:
    return "" if entry.every_bcd else f" (bcdDevice {entry.bcd_min}–{entry.bcd_max})"


def explain(table: KernelTable, usb_id: str, entries: list[KernelEntry], runtime: list[RuntimeCheck]) -> list[str]:
    """Plain sentences: what Linux does by itself for one ID. Identical entries in both headers
    (an ID in unusual_devs.h and unusual_uas.h) make one sentence naming both places."""
    grouped: dict[tuple, list[KernelEntry]] = {}
    for entry in entries:
        if entry.flags:
            grouped.setdefault((entry.bcd_min, entry.bcd_max, entry.flags, entry.condition), []).append(entry)
    lines = []
    for (_, _, flags, condition), same in grouped.items():
        where = f" when built with {condition}" if condition else ""
        sources = ", ".join(f"{e.file}:{e.line}" for e in same)
        lines.append(f"Linux {table.version} already applies to {usb_id}{_bcd_text(same[0])}{where}: "
                     + ", ".join(flag_text(f) for f in flags) + f" [{sources}]")
    for check in runtime:
        flags = ", ".join(flag_text(f) for f in check.flags)
        if check.unconditional:
            scope = f"every {check.vid} device" if not check.pids else usb_id
            lines.append(f"Linux {table.version} adds {flags} to {scope} when uas probes it [{check.file}:{check.line}]")
        elif check.strings:
            named = " and ".join(f"{k} string `{v}`" for k, v in check.strings)
            lines.append(f"Linux {table.version} adds {flags} to {usb_id} only for devices with {named} [{check.file}:{check.line}]")
        else:
            lines.append(f"Linux {table.version} looks at the device ({', '.join(check.decided_by)}) and may add "
                         + " or ".join(check.flags) + f" to {usb_id} [{check.file}:{check.line}]")
    return lines


def _relevant(table: KernelTable, vid: str, pid: str, span: Span) -> list[KernelEntry]:
    entries = [e for e in table.entries_for(vid, pid) if e.condition is None]
    return [e for e in entries if e.overlaps(*span)] if span else entries



# Where the code disagrees with kernel-parameters.txt, the code wins: the documentation calls NO_ATA_1X
# "uas only", but usb-storage's queuecommand refuses ATA(12)/ATA(16) under it too (scsiglue.c).
DRIVERS_FROM_CODE = {"NO_ATA_1X": "both"}


def letter_drivers(table: KernelTable, letter: str) -> str:
    """Which driver honours a quirk letter: "uas", "usb-storage" or "both"."""
    return DRIVERS_FROM_CODE.get(table.letters.get(letter, ""), table.letter_drivers.get(letter, "both"))


def preserve_builtin(table: KernelTable, quirk_entry: str, span: Span = None) -> dict[str, Any]:
    """A usb-storage.quirks entry replaces the built-in lettered flags of its ID: usb.c clears all
    of them before setting the user's letters. Return the entry with the letters that keep the
    ones that still matter. With `u` (IGNORE_UAS) the device runs on usb-storage, so flags the
    kernel documents as uas-only have no effect and are not added back."""
    vid, pid, letters = quirk_entry.split(":")
    entries = _relevant(table, vid, pid, span)
    replaced = set(table.user_entry_replaces)
    letter_of = table.letter_of
    builtin: list[str] = []
    for entry in entries:
        builtin.extend(f for f in entry.flags if f not in builtin)
    runtime = table.runtime_for(vid, pid)
    for check in runtime:
        if check.unconditional:
            builtin.extend(f for f in check.flags if f not in builtin)
    chosen = {table.letters[c] for c in letters if c in table.letters}
    dropped = [f for f in builtin if f in replaced and f in letter_of and f not in chosen]
    uas_off = "IGNORE_UAS" in chosen
    # With `u`, usb-storage drives the device: it sets flags from unusual_devs.h only (usual-tables.c), never
    # from unusual_uas.h or the uas probe checks, and ignores the uas-only ones. Anything else is moot.
    storage_flags = {f for e in entries if e.file.endswith("unusual_devs.h") for f in e.flags}
    no_effect = [f for f in dropped if uas_off and (letter_drivers(table, letter_of[f]) == "uas" or f not in storage_flags)]
    kept = [f for f in builtin if f not in replaced]
    runtime_replaced = sorted({f for c in runtime if not c.unconditional for f in c.flags if f in replaced and f not in chosen})
    restored = [f for f in dropped if f not in no_effect]
    preserving = "".join(sorted(set(letters) | {letter_of[f] for f in restored}))
    always = {f for e in entries if (e.covers(*span) if span else e.every_bcd) for f in e.flags}
    always |= {f for c in runtime if c.unconditional for f in c.flags}
    return {
        "entry": quirk_entry,
        "preserving": f"{vid}:{pid}:{preserving}",
        "dropped": dropped,                     # built-in lettered flags the entry clears
        "dropped_without_effect": no_effect,    # ...of which those usb-storage would not apply, moot once uas is off
        "kept": kept,                           # built-in flags without a letter: a user entry cannot clear them
        "restored": restored,                   # ...of which those the preserving entry adds back
        "runtime_replaced": runtime_replaced,   # flags uas-detect.h might pick that the entry overrides
        # True when those flags would do nothing anyway: `u` is set and each of them only matters to uas.
        "runtime_moot": uas_off and bool(runtime_replaced)
        and all(f in letter_of and letter_drivers(table, letter_of[f]) == "uas" for f in runtime_replaced),
        "bcd_dependent": any(not (e.covers(*span) if span else e.every_bcd) for e in entries),
        # True when Linux sets every flag of the entry by itself for every firmware: no line needed.
        "builtin_already": bool(chosen) and chosen <= always,
    }


def _span_of(adapter: dict[str, Any], vid: str, pid: str) -> Span:
    for usb_id in adapter.get("usb_ids", []):
        if usb_id["vid"] == vid and usb_id["pid"] == pid and usb_id.get("bcd_device"):
            return usb_id["bcd_device"]["min"], usb_id["bcd_device"]["max"]
    return None


def group_entries(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One ID's table entries (entry_json shape) that set the same flags for the same bcdDevice range and #if
    condition, as one fact with all its sources: an ID listed alike in unusual_uas.h and unusual_devs.h is one
    thing Linux does, said once. Entries without flags are left out; first-seen order."""
    groups: dict[tuple, dict[str, Any]] = {}
    for entry in entries:
        if not entry["flags"]:
            continue
        key = (tuple(f["name"] for f in entry["flags"]), entry["bcd"]["min"], entry["bcd"]["max"], entry["condition"])
        group = groups.setdefault(key, {"flags": entry["flags"], "bcd": entry["bcd"], "every_bcd": entry["every_bcd"],
                                        "condition": entry["condition"], "sources": []})
        group["sources"].append({"file": entry["file"], "line": entry["line"]})
    return list(groups.values())


def applies_by_itself(groups: list[dict[str, Any]], runtime: list[dict[str, Any]]) -> bool:
    """Whether Linux sets a flag for the ID with no build option and no device test: a table entry without an
    #if condition, or a uas-detect.h check that looks at nothing but the ID."""
    return any(g["condition"] is None for g in groups) or any(c["unconditional"] for c in runtime)


def smart_blocked(slot: dict[str, Any]) -> str | None:
    """How Linux blocks the ATA pass-through (NO_ATA_1X) that `smartctl -d sat` needs, for an ID whose first
    smartmontools entry is a SAT type: "table" (a table entry for every firmware, whatever the driver),
    "uas" (uas-detect.h, only under uas), or None."""
    first = (slot.get("smartctl") or [{}])[0]
    if not str(first.get("device_type") or "").startswith("sat"):
        return None
    if any(e["every_bcd"] and not e["condition"] and any(f["name"] == "NO_ATA_1X" for f in e["flags"])
           for e in slot.get("kernel", [])):
        return "table"
    if any(c["unconditional"] and any(f["name"] == "NO_ATA_1X" for f in c["flags"]) for c in slot.get("kernel_runtime", [])):
        return "uas"
    return None


def adapter_kernel(adapter: dict[str, Any], table: KernelTable) -> dict[str, Any]:
    builtin, runtime, summary = [], [], []
    groups: dict[str, list[dict[str, Any]]] = {}
    by_itself: dict[str, bool] = {}
    for usb_id in adapter.get("usb_ids", []):
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        span = _span_of(adapter, usb_id["vid"], usb_id["pid"])
        entries = _relevant(table, usb_id["vid"], usb_id["pid"], span) + \
            [e for e in table.entries_for(usb_id["vid"], usb_id["pid"]) if e.condition is not None]
        checks = table.runtime_for(usb_id["vid"], usb_id["pid"])
        entries_json = [entry_json(e, table) for e in entries]
        checks_json = [runtime_json(c, table, key) for c in checks]
        builtin.extend(entries_json)
        runtime.extend(checks_json)
        summary.extend(explain(table, key, entries, checks))
        groups[key] = group_entries(entries_json)
        by_itself[key] = applies_by_itself(groups[key], checks_json)
    quirks = []
    for entry in adapter["verdict"].get("quirk_entries", []):
        vid, pid, _ = entry.split(":")
        quirks.append(preserve_builtin(table, entry, _span_of(adapter, vid, pid)))
    preserving = [q["preserving"] for q in quirks]
    return {
        "version": table.version,
        "builtin": builtin,
        "builtin_groups": groups,
        "by_itself": by_itself,
        "runtime": runtime,
        "summary": summary,
        "quirk_entries": quirks,
        "quirk_entries_preserving_builtin": preserving,
        "quirk_line_preserving_builtin": "usb-storage.quirks=" + ",".join(preserving) if preserving else None,
    }


def uas_relevant_ids(table: KernelTable) -> set[str]:
    """IDs whose entries change how uas treats a device: anything in unusual_uas.h, IGNORE_UAS,
    and flags the kernel documents as mattering only under uas."""
    uas_flags = {table.letters[letter] for letter, drivers in table.letter_drivers.items() if drivers == "uas"} | {"IGNORE_UAS"}
    return {e.usb_id for e in table.entries if e.file.endswith("unusual_uas.h") or uas_flags & set(e.flags)}


def with_reference(site: Mapping[str, Any], table: KernelTable | None = None, usbids: UsbIds | None = None,
                  drivedb: DriveDb | None = None,
                  kernel_of: Callable[[dict[str, Any], KernelTable], dict[str, Any]] | None = None) -> dict[str, Any]:
    """The catalog with what Linux, usb.ids and smartmontools know joined on. `kernel_of(adapter, table)` stands in
    for `adapter_kernel` (the export's BuildCache passes one that remembers unchanged adapters)."""
    table = table or load_kernel()
    usbids = usbids or load_usbids()
    drivedb = drivedb or load_drivedb()
    usb = dict(site["usb"])
    for key in table.ids():
        vid, pid = key.split(":")
        usb.setdefault(key, {"vid": vid, "pid": pid, "adapters": [], "chipsets": []})
    slots = {}
    for key, slot in usb.items():
        vid, pid = slot["vid"], slot["pid"]
        kernel = [entry_json(e, table) for e in table.entries_for(vid, pid)]
        runtime = [runtime_json(c, table, key) for c in table.runtime_for(vid, pid)]
        groups = group_entries(kernel)
        joined = dict(slot, kernel=kernel, kernel_runtime=runtime,
                      kernel_summary=explain(table, key, table.entries_for(vid, pid), table.runtime_for(vid, pid)),
                      kernel_groups=groups, kernel_by_itself=applies_by_itself(groups, runtime),
                      usbids={"vendor": usbids.vendor(vid), "product": usbids.product(vid, pid)},
                      smartctl=[{k: v for k, v in e.items() if not k.startswith("_")} for e in drivedb.matches(vid, pid)])
        slots[key] = dict(joined, smart_blocked=smart_blocked(joined))
    usb = dict(sorted(slots.items()))
    adapters = [dict(adapter, kernel=(kernel_of or adapter_kernel)(adapter, table)) for adapter in site["adapters"]]

    lists = dict(site["lists"])
    naughty_ids = set(lists.get("naughty", []))
    combined: dict[str, set[str]] = {}
    # Left out: IDs shared with a product known to work, and IDs only another platform's reports needed.
    excluded = set(lists.get("naughty_excluded_ids", [])) | set(lists.get("naughty_elsewhere_ids", []))
    for adapter in adapters:
        for entry in adapter["kernel"]["quirk_entries_preserving_builtin"] if adapter["id"] in naughty_ids else []:
            vid, pid, letters = entry.split(":")
            combined.setdefault(f"{vid}:{pid}", set()).update(letters)
    if "naughty_quirk_entries" in lists:
        lists["naughty_quirk_entries"] = [
            dict(entry, entry_preserving_builtin=f"{entry['usb_id']}:{letters}" if letters else entry["entry"])
            for entry in lists["naughty_quirk_entries"]
            for letters in ["".join(sorted(combined.get(entry["usb_id"], set())))]]
    combined = {k: v for k, v in combined.items() if k not in excluded}
    lists["naughty_quirk_line_preserving_builtin"] = (
        "usb-storage.quirks=" + ",".join(f"{k}:{''.join(sorted(v))}" for k, v in sorted(combined.items())) if combined else None)
    recorded = {key for key, slot in usb.items() if slot["adapters"]}
    lists["kernel_only"] = sorted(uas_relevant_ids(table) - recorded)

    by_id = {key: table.entries_for(*key.split(":")) for key in sorted({e.usb_id for e in table.entries})}
    kernel_facts = {
        "version": table.version,
        "release": table.release,
        "letters": [{"letter": letter, "flag": flag, "drivers": letter_drivers(table, letter),
                     "plain": FLAG_PLAIN.get(flag)} for letter, flag in sorted(table.letters.items())],
        "user_entry_replaces": list(table.user_entry_replaces),
        # The longest usb-storage.quirks= value usb.c accepts (verdicts.QUIRKS_PARAM_MAX_CHARS); the JS reads it here.
        "quirks_value_max": QUIRKS_PARAM_MAX_CHARS,
        "runtime": [runtime_json(c, table, f"{c.vid}:{','.join(c.pids) or '*'}") for c in table.runtime],
        "entries": len(table.entries),
        "ids": len(table.ids()),
        "builtin": {key: [builtin_json(e, table) for e in entries] for key, entries in by_id.items()},
        # The same entries as group_entries words them on ID pages (flags by name, sources as file:line), so the
        # check page only picks the groups that cover a pasted bcdDevice.
        "groups": {key: [{**group, "flags": [f["name"] for f in group["flags"]],
                          "sources": [f"{s['file']}:{s['line']}" for s in group["sources"]]}
                         for group in group_entries([entry_json(e, table) for e in entries])]
                   for key, entries in by_id.items()},
        "flag_plain": {flag: FLAG_PLAIN[flag] for flag in sorted(FLAG_PLAIN)},
    }
    counts = dict(site.get("counts", {}), usb_ids=len(usb), kernel_ids=len(table.ids()), kernel_only=len(lists["kernel_only"]))
    return dict(site, usb=usb, adapters=adapters, lists=lists, kernel=kernel_facts, usbids={"version": usbids.version},
                smartmontools={"drivedb_version": drivedb.version}, counts=counts)
