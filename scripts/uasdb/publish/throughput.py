"""An adapter's throughput chart: every figure of its reports in panels (sequential MB/s, 4K random MB/s, IOPS),
each sequential bar measured against the USB link it crossed."""
from __future__ import annotations

from typing import Any

from ..records.vocabulary import HOST_TITLES, HOST_USB_LINK

# How the site names each `host` of the schema's enum.
HOST_LABELS = HOST_TITLES

_TEST_LABELS = {"seq-read": ("sequential", "read"), "seq-write": ("sequential", "write"),
                "rand4k-read": ("4K random", "read"), "rand4k-write": ("4K random", "write")}
_DRIVER_LABELS = {"uas": "UAS", "usb-storage": "usb-storage", None: "driver not stated"}
MIB = 1.048576  # MiB/s -> MB/s
# What a USB link can carry, in MB/s, after its line coding: USB 2's 480 Mbit/s signalling rate, 8b/10b on 5 Gbit/s,
# 128b/132b on 10 and 20 Gbit/s. Protocol overhead keeps real transfers below these; nothing can exceed them.
LINK_LIMITS = {"480M": (60.0, "USB 2 (480 Mbit/s)"), "5000M": (500.0, "5 Gbit/s"),
               "10000M": (1212.1, "10 Gbit/s"), "20000M": (2424.2, "20 Gbit/s")}
USB2_LIMIT = LINK_LIMITS["480M"][0]


def link_ceiling(report: dict[str, Any], value_mbps: float) -> dict[str, Any] | None:
    """The link limit a sequential figure is measured against: the link the report states, else the host's own
    ports when the board fixes them (a Pi 3's are USB 2 only; a figure above USB 2's limit on a Pi 4 or Pi 5 can
    only have come over its 5 Gbit/s ports). None when the link cannot be known."""
    link = report.get("link_speed")
    if link is None:
        link = HOST_USB_LINK.get(report.get("host") or "")
        if link is not None and link != "480M" and value_mbps <= USB2_LIMIT:
            return None  # a Pi 4 or Pi 5 figure this low may come from a USB 2 port
    if link not in LINK_LIMITS:
        return None
    limit, label = LINK_LIMITS[link]
    return {"link": link, "limit": limit, "label": label, "stated": "link_speed" in report}


def throughput_chart(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every throughput figure of every report, grouped into chart panels (sequential MB/s, 4K random MB/s,
    4K random IOPS). MiB/s is converted to MB/s so one panel has one scale; `fraction` is the bar length."""
    panels: dict[tuple, dict[str, Any]] = {}
    for number, report in enumerate(record.get("reports", []), start=1):
        for figure in report.get("throughput", []):
            kind, op = _TEST_LABELS[figure["test"]]
            unit = "IOPS" if figure["unit"] == "IOPS" else "MB/s"
            value = figure["value"] * MIB if figure["unit"] == "MiB/s" else figure["value"]
            driver = figure.get("driver") or report.get("driver")
            panel = panels.setdefault((kind, unit), {"title": f"{kind[0].upper()}{kind[1:]} ({unit})", "kind": kind,
                                                      "unit": unit, "bars": []})
            drive = report.get("drive") or {}
            panel["bars"].append({
                "test": figure["test"], "op": op, "driver": driver or "unknown", "driver_label": _DRIVER_LABELS[driver],
                # Like is compared with like only when the reader sees what produced each bar.
                "host": report.get("host"), "host_label": HOST_LABELS.get(report.get("host"), "host not stated"),
                "drive_label": drive.get("model") or drive.get("type") or "drive not stated",
                "value": round(value, 1), "as_reported": f"{figure['value']:g} {figure['unit']}",
                "tool": figure.get("tool"), "note": figure.get("note"), "report": number,
            })
            if kind == "sequential" and unit == "MB/s":
                ceiling = link_ceiling(report, value)
                if ceiling:
                    panel["bars"][-1]["ceiling"] = dict(ceiling, share=round(100 * value / ceiling["limit"]))
    result = []
    for key in sorted(panels, key=lambda k: (k[0] != "sequential", k[1] == "IOPS")):
        panel = panels[key]
        # The scale takes in each bar's link limit, so the limit marks fit in the panel.
        panel["max"] = max(max(bar["value"], bar.get("ceiling", {}).get("limit", 0)) for bar in panel["bars"])
        order = {"uas": 0, "usb-storage": 1, "unknown": 2}
        hosts = list(HOST_LABELS)
        # Like next to like: bars grouped by host, then reads before writes, UAS before usb-storage.
        panel["bars"].sort(key=lambda b: (hosts.index(b["host"]) if b["host"] in hosts else len(hosts),
                                          b["op"] != "read", order[b["driver"]], b["report"]))
        for bar in panel["bars"]:
            bar["fraction"] = round(bar["value"] / panel["max"], 4) if panel["max"] else 0
            if "ceiling" in bar:
                bar["ceiling"]["fraction"] = round(bar["ceiling"]["limit"] / panel["max"], 4)
        result.append(panel)
    return result
