"""How the site names a record's drive interface and vendor: one label per drive_interface, one spelling per
vendor (filters, tables, what to buy)."""
from __future__ import annotations

from collections.abc import Iterable

# How the site names each `drive_interface` (filters, tables, what to buy).
DRIVE_LABELS = {"sata": "SATA", "nvme": "NVMe", "msata": "mSATA", "m2-sata": "M.2 SATA",
                "nvme-sata": "M.2 NVMe or SATA", "pata": "PATA (IDE)",
                "sata-pata": "SATA or PATA (IDE)", None: "Not stated"}
_VENDOR_SUFFIXES = (".com", " inc.", " inc", " ltd.", " ltd", " co.", " gmbh", ",")


def vendor_key(name: str) -> str:
    """What makes two vendor spellings one vendor: case, and a trailing .com, Inc., Ltd. or GmbH."""
    key = name.casefold().strip()
    changed = True
    while changed:
        changed = False
        for suffix in _VENDOR_SUFFIXES:
            if key.endswith(suffix):
                key, changed = key[: -len(suffix)].strip(), True
    return key


def vendor_display_names(vendors: Iterable[str | None]) -> dict[str, str]:
    """Each spelling in the records -> the one the site shows for its vendor: the spelling most records use
    (ties: the one with more capitals, as brands such as NATEC and ORICO write themselves), so filters and
    tables list "StarTech.com" and "StarTech", or "Natec" and "NATEC", once."""
    counts: dict[str, dict[str, int]] = {}
    for name in vendors:
        if name:
            group = counts.setdefault(vendor_key(name), {})
            group[name] = group.get(name, 0) + 1
    labels = {}
    for group in counts.values():
        best = max(sorted(group), key=lambda n: (group[n], sum(c.isupper() for c in n)))
        for name in group:
            labels[name] = best
    return labels
