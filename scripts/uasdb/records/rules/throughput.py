"""Throughput figures must fit through the negotiated USB link and through the bridge chip's drive-side link."""
from ..problems import Finding
from . import rule

# Ceilings in MB/s: a little above the best real-world figures for each link,
# so only impossible numbers (typos, cached reads, wrong units) are caught.
LINK_CEILING_MBPS = {"480M": 45, "5000M": 450, "10000M": 1100, "20000M": 2200}
TO_MBPS = {"MB/s": 1.0, "MiB/s": 1.048576}


@rule("throughput-plausible", "throughput fits the negotiated link speed",
      example='300 MB/s is more than a 480M link carries (about 45 MB/s at best) — check the unit and the link speed')
def throughput_plausible(record, ctx):
    for index, report in enumerate(record.data.get("reports", [])):
        ceiling = LINK_CEILING_MBPS.get(report.get("link_speed"))
        if ceiling is None:
            continue
        for m_index, measure in enumerate(report.get("throughput", [])):
            factor = TO_MBPS.get(measure.get("unit"))
            value = measure.get("value")
            if factor is None or not isinstance(value, (int, float)):
                continue
            if value * factor > ceiling:
                yield Finding(("reports", index, "throughput", m_index, "value"),
                              f"{value} {measure['unit']} is more than a {report['link_speed']} link carries (about {ceiling} MB/s at best)",
                              "check the unit and the link speed (`lsusb -t`), and that the figure was not from cache")


# What each drive-side link carries in MB/s after line coding: SATA sends 10 bits per byte (8b/10b), so
# 6 Gbit/s is 600 MB/s; PCIe 3.0 and 4.0 send 130 bits per 128 (8 and 16 GT/s per lane). These are the links'
# own ceilings, above anything a real bridge reaches, so only figures the chip cannot carry are caught.
DRIVE_LINK_MBPS = {"sata-1.5g": 150, "sata-3g": 300, "sata-6g": 600,
                   "pcie3-x1": 985, "pcie3-x2": 1969, "pcie3-x4": 3938, "pcie4-x4": 7877}
DRIVE_LINK_NAMES = {"sata-1.5g": "SATA 1.5 Gb/s", "sata-3g": "SATA 3 Gb/s", "sata-6g": "SATA 6 Gb/s",
                    "pcie3-x1": "PCIe 3.0 x1", "pcie3-x2": "PCIe 3.0 x2", "pcie3-x4": "PCIe 3.0 x4",
                    "pcie4-x4": "PCIe 4.0 x4"}
SEQUENTIAL_TESTS = ("seq-read", "seq-write")
NVME_DRIVES = ("nvme-ssd",)


def _links_for_drive(links, drive_type):
    """The links a drive of this type goes through: PCIe for NVMe, SATA for the rest, all when the type is unknown."""
    if drive_type is None:
        return list(links)
    wanted = "pcie" if drive_type in NVME_DRIVES else "sata"
    return [link for link in links if link.startswith(wanted)]


@rule("throughput-within-chip", "sequential throughput fits through the bridge chip's drive-side link (`drive_links` of its chipset record)",
      example="440 MB/s is more than the asm1051's drive side carries (SATA 3 Gb/s, about 300 MB/s) — check the figure "
              "(cached reads, a RAID of several drives, the unit) and the record's `chipset`")
def throughput_within_chip(record, ctx):
    chip = record.data.get("chipset")
    links = ctx.chipset_links.get(chip) if isinstance(chip, str) else None
    if not links:
        return
    for index, report in enumerate(record.data.get("reports", [])):
        usable = [link for link in _links_for_drive(links, (report.get("drive") or {}).get("type")) if link in DRIVE_LINK_MBPS]
        if not usable:
            continue
        fastest = max(usable, key=DRIVE_LINK_MBPS.__getitem__)
        ceiling = DRIVE_LINK_MBPS[fastest]
        for m_index, measure in enumerate(report.get("throughput", [])):
            factor = TO_MBPS.get(measure.get("unit"))
            value = measure.get("value")
            if measure.get("test") not in SEQUENTIAL_TESTS or factor is None or not isinstance(value, (int, float)):
                continue
            if value * factor > ceiling:
                yield Finding(("reports", index, "throughput", m_index, "value"),
                              f"{value} {measure['unit']} is more than the {chip}'s drive side carries "
                              f"({DRIVE_LINK_NAMES[fastest]}, about {ceiling} MB/s)",
                              "check the figure (cached reads, a RAID of several drives, the unit) and the record's `chipset`")
