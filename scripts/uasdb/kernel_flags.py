"""The usb-storage.quirks= letter table (Documentation/admin-guide/kernel-parameters.txt, Linux 6.12)."""

QUIRK_LETTERS = {
    "a": "SANE_SENSE", "b": "BAD_SENSE", "c": "FIX_CAPACITY", "d": "NO_READ_DISC_INFO",
    "e": "NO_READ_CAPACITY_16", "f": "NO_REPORT_OPCODES", "g": "MAX_SECTORS_240",
    "h": "CAPACITY_HEURISTICS", "i": "IGNORE_DEVICE", "j": "NO_REPORT_LUNS", "k": "NO_SAME",
    "l": "NOT_LOCKABLE", "m": "MAX_SECTORS_64", "n": "INITIAL_READ10", "o": "CAPACITY_OK",
    "p": "WRITE_CACHE", "r": "IGNORE_RESIDUE", "s": "SINGLE_LUN", "t": "NO_ATA_1X",
    "u": "IGNORE_UAS", "w": "NO_WP_DETECT", "y": "ALWAYS_SYNC",
}
