"""Throughput figures must fit through the negotiated link."""
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
