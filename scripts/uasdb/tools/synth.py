"""Deterministic synthetic datasets for benchmarks: many adapters that pass validation.

The records are made up on purpose (names say "Synthetic"); they never go into data/.
`uasdb synth --adapters 1000 --out DIR` writes DIR/data/{adapters,chipsets}/.
"""
from __future__ import annotations

import random
from pathlib import Path

import yaml

from ..records.loader import yaml12_value


class RecordDumper(yaml.SafeDumper):
    """PyYAML quotes what YAML 1.1 would misread; also quote what YAML 1.2 would (e.g. pid 26e8)."""


def _represent_str(dumper, text):
    style = "'" if yaml12_value(text) != text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


RecordDumper.add_representer(str, _represent_str)

CHIPSETS = [("jms578", "JMS578", "JMicron", "sata"), ("asm1153e", "ASM1153E", "ASMedia", "sata"),
            ("rtl9210b", "RTL9210B", "Realtek", "nvme-sata"), ("asm2362", "ASM2362", "ASMedia", "nvme"),
            ("vl716", "VL716", "VIA Labs", "sata")]
HOSTS = ["pi4", "pi4", "pi4", "pi5", "pi400", "cm4", "linux-x86_64", "macos", "pi3b-plus"]
KINDS = ["enclosure", "cable-adapter", "dock", "portable-ssd"]
TESTS = ["seq-read", "seq-write", "rand4k-read", "rand4k-write"]


def _report(rng: random.Random, index: int) -> dict:
    host = rng.choice(HOSTS)
    report: dict = {
        "date": f"{rng.randint(2019, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        "source": {"url": f"https://example.org/thread/{rng.randint(1, 10**6)}", "title": f"Report {index}"},
        "host": host,
        "os": rng.choice(["Raspberry Pi OS Bookworm", "Ubuntu 24.04", "macOS 14"]),
        "kernel": f"6.{rng.randint(1, 12)}.{rng.randint(0, 80)}",
        "link_speed": "480M" if host == "pi3b-plus" else "5000M",
    }
    if host == "pi3b-plus":
        report.update(driver="usb-storage", uas="host-no-uas")
    else:
        outcome = rng.choices(["works", "works-with-quirk", "broken"], [6, 3, 1])[0]
        report["uas"] = outcome
        report["driver"] = "usb-storage" if outcome == "works-with-quirk" else "uas"
        if outcome == "works-with-quirk":
            report["quirks"] = "u"
        if outcome == "broken":
            report["notes"] = "Resets under sustained writes; see the dmesg lines."
            report["evidence"] = {"dmesg": "uas_eh_abort_handler 0 uas-tag 1 inflight: CMD OUT"}
        if host in ("pi4", "pi400", "cm4", "pi5") and rng.random() < 0.5:
            report["boot"] = rng.choice(["works", "works", "fails"])
            if report["boot"] == "fails":
                report.setdefault("notes", "Boot timed out waiting for the drive.")
    ceiling = 40 if report["link_speed"] == "480M" else 400
    report["throughput"] = [{"tool": "fio", "test": test, "value": round(rng.uniform(5, ceiling), 1), "unit": "MB/s"}
                            for test in rng.sample(TESTS, 2)]
    return report


def adapter_record(rng: random.Random, index: int) -> dict:
    chip_id, chip_name, maker, interface = rng.choice(CHIPSETS)
    return {
        "id": f"synthetic-adapter-{index:05d}",
        "name": f"Synthetic {maker} {chip_name} {rng.choice(KINDS)} {index}",
        "vendor": f"Vendor{index % 97}",
        "model": f"SX-{index:05d}",
        "kind": rng.choice(KINDS),
        "drive_interface": "nvme" if interface == "nvme" else "sata",
        "usb_generation": "usb3-gen1",
        "chipset": chip_id,
        "usb_ids": [{"vid": "f0" + f"{index // 65536:02x}", "pid": f"{index % 65536:04x}"}],
        "notes": "Synthetic record for benchmarks.",
        "reports": [_report(rng, n) for n in range(rng.randint(3, 7))],
    }


def generate(out: Path, adapters: int, seed: int = 1) -> list[Path]:
    rng = random.Random(seed)
    written = []
    for kind, records in (("chipsets", [{"id": c[0], "name": c[1], "maker": c[2], "drive_interface": "nvme" if c[3] == "nvme" else "sata",
                                         "uas": True, "sources": ["https://example.org/chip"]} for c in CHIPSETS]),
                          ("adapters", (adapter_record(rng, i) for i in range(adapters)))):
        folder = out / "data" / kind
        folder.mkdir(parents=True, exist_ok=True)
        for record in records:
            path = folder / f"{record['id']}.yaml"
            text = f"# yaml-language-server: $schema=../../schema/{kind[:-1]}.schema.json\n"
            path.write_text(text + yaml.dump(record, Dumper=RecordDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
            written.append(path)
    return written
