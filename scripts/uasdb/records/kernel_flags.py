"""The usb-storage.quirks= letter table, and plain words for the kernel's US_FL_* flags.

The letters are not written here: they come from the generated kernel file
(data/kernel/linux-X.Y.yaml, made by `uasdb import-kernel`), the one source of truth.
`QUIRK_LETTERS` stays importable for older callers; it is read on first use.
"""
from __future__ import annotations

from .reference import load_kernel

# What each flag makes Linux do, in a few plain words (ours, not the kernel's comments).
FLAG_PLAIN: dict[str, str] = {
    "ALWAYS_SYNC": "always flushes the drive cache",
    "BAD_SENSE": "reads at most 18 bytes of error details",
    "BROKEN_FUA": "does not use forced-unit-access writes",
    "BULK32": "sends 32-byte command blocks",
    "BULK_IGNORE_TAG": "ignores mismatched transfer tags",
    "CAPACITY_HEURISTICS": "trims an odd sector count by one",
    "CAPACITY_OK": "trusts the reported capacity",
    "FIX_CAPACITY": "corrects a capacity that is one sector too big",
    "FIX_INQUIRY": "answers the identity query itself",
    "GO_SLOW": "pauses after each command",
    "IGNORE_DEVICE": "leaves the device to another driver",
    "IGNORE_RESIDUE": "ignores the transfer byte counts the device reports",
    "IGNORE_UAS": "falls back to usb-storage",
    "INITIAL_READ10": "retries the first read",
    "MAX_SECTORS_240": "caps transfers at 240 sectors",
    "MAX_SECTORS_64": "caps transfers at 64 sectors (32 KiB)",
    "MAX_SECTORS_MIN": "caps transfers at the smallest size",
    "NEEDS_CAP16": "asks for the capacity with the 16-byte command",
    "NEED_OVERRIDE": "marks the table entry as required",
    "NOT_LOCKABLE": "does not lock removable media",
    "NO_ATA_1X": "blocks ATA pass-through, so SMART via `smartctl -d sat` fails",
    "NO_READ_CAPACITY_16": "does not use the 16-byte capacity command",
    "NO_READ_DISC_INFO": "does not ask for disc information",
    "NO_REPORT_LUNS": "does not ask for the list of logical units",
    "NO_REPORT_OPCODES": "does not ask which commands the bridge supports",
    "NO_SAME": "does not use WRITE SAME",
    "NO_WP_DETECT": "skips the write-protect test",
    "SANE_SENSE": "reads more than 18 bytes of error details",
    "SCM_MULT_TARG": "talks to several targets behind one SCM bridge",
    "SENSE_AFTER_SYNC": "asks for error details after a cache flush",
    "SINGLE_LUN": "uses only the first logical unit",
    "WRITE_CACHE": "assumes the write cache is on",
}


def quirk_letters() -> dict[str, str]:
    """letter -> flag name, e.g. {'u': 'IGNORE_UAS', ...}, from the newest imported kernel."""
    return dict(load_kernel().letters)


def flag_text(flag: str) -> str:
    """`IGNORE_UAS (falls back to usb-storage)`; the bare name for a flag without plain words."""
    plain = FLAG_PLAIN.get(flag)
    return f"{flag} ({plain})" if plain else flag


def __getattr__(name: str):
    if name == "QUIRK_LETTERS":
        return quirk_letters()
    raise AttributeError(name)
