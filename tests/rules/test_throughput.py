import pytest

from helpers import BASE_CHIPSET, adapter, rule_hits


def measured(link, value, unit="MB/s"):
    return adapter(report={"link_speed": link, "throughput": [{"tool": "hdparm", "test": "seq-read", "value": value, "unit": unit}]})


CASES = [
    ("usb3 realistic", measured("5000M", 417), []),
    ("usb3 impossible", measured("5000M", 520), ["reports[0].throughput[0].value"]),
    ("usb2 realistic", measured("480M", 38), []),
    ("usb2 impossible", measured("480M", 120), ["reports[0].throughput[0].value"]),
    ("MiB/s converted", measured("480M", 43, "MiB/s"), ["reports[0].throughput[0].value"]),
    ("gen2 fine", measured("10000M", 980), []),
    ("IOPS not compared", measured("480M", 5000, "IOPS"), []),
    ("no link speed, no check", adapter(report={"throughput": [{"test": "seq-read", "value": 900, "unit": "MB/s"}]}), []),
]


@pytest.mark.parametrize("name,record,expected", CASES, ids=[c[0] for c in CASES])
def test_throughput_plausible(check_records, name, record, expected):
    assert rule_hits(check_records([record]), "throughput-plausible") == expected


SATA_3G_CHIP = dict(BASE_CHIPSET, drive_links=["sata-3g"])
DUAL_CHIP = dict(BASE_CHIPSET, id="rtl9210b", name="RTL9210B", maker="Realtek", drive_interface="nvme-sata",
                 drive_links=["pcie3-x2", "sata-6g"])


def through_chip(value, unit="MB/s", test="seq-read", drive_type=None, chipset="jms578", link="5000M"):
    report = {"link_speed": link, "throughput": [{"tool": "other", "test": test, "value": value, "unit": unit}]}
    if drive_type:
        report["drive"] = {"type": drive_type}
    return adapter(chipset=chipset, report=report)


CHIP_CASES = [
    # A SATA 3 Gb/s bridge carries about 300 MB/s after 8b/10b coding, whatever the USB link could do.
    ("fits a 3 Gb/s bridge", through_chip(280), [SATA_3G_CHIP], []),
    ("more than a 3 Gb/s bridge carries", through_chip(440, drive_type="sata-ssd"), [SATA_3G_CHIP],
     ["reports[0].throughput[0].value"]),
    ("MiB/s converted before comparing", through_chip(290, "MiB/s"), [SATA_3G_CHIP], ["reports[0].throughput[0].value"]),
    ("writes too", through_chip(320, test="seq-write"), [SATA_3G_CHIP], ["reports[0].throughput[0].value"]),
    ("random IOPS are not a transfer rate", through_chip(9000, "IOPS", "rand4k-read"), [SATA_3G_CHIP], []),
    ("chip without drive_links is not judged", through_chip(440), [BASE_CHIPSET], []),
    ("no chipset, no check", adapter(chipset=None, report={"throughput": [{"test": "seq-read", "value": 440, "unit": "MB/s"}]}),
     [SATA_3G_CHIP], []),
    # A dual bridge: an NVMe drive goes through its PCIe link, a SATA drive through its SATA link.
    ("NVMe drive through the PCIe side", through_chip(980, drive_type="nvme-ssd", chipset="rtl9210b", link="10000M"),
     [DUAL_CHIP], []),
    ("SATA drive limited by the SATA side", through_chip(700, drive_type="m2-sata-ssd", chipset="rtl9210b", link="10000M"),
     [DUAL_CHIP], ["reports[0].throughput[0].value"]),
    ("unknown drive: the fastest link", through_chip(980, chipset="rtl9210b", link="10000M"), [DUAL_CHIP], []),
]


@pytest.mark.parametrize("name,record,chipsets,expected", CHIP_CASES, ids=[c[0] for c in CHIP_CASES])
def test_throughput_within_chip(check_records, name, record, chipsets, expected):
    assert rule_hits(check_records([record], chipsets), "throughput-within-chip") == expected


def test_message_names_the_link_and_its_ceiling(check_records):
    problems = check_records([through_chip(440)], [SATA_3G_CHIP])
    message = next(p.message for p in problems if p.rule == "throughput-within-chip")
    assert "SATA 3 Gb/s" in message and "300 MB/s" in message


def test_every_link_the_schema_allows_has_a_ceiling():
    """The vocabulary lives in the schema, the numbers in the rule: a new link needs both."""
    import json

    from helpers import REPO
    from uasdb.records.rules.throughput import DRIVE_LINK_MBPS, DRIVE_LINK_NAMES
    schema = json.loads((REPO / "schema" / "chipset.schema.json").read_text(encoding="utf-8"))
    allowed = set(schema["properties"]["drive_links"]["items"]["enum"])
    assert allowed == set(DRIVE_LINK_MBPS) == set(DRIVE_LINK_NAMES)


def test_adapter_checked_alone_still_sees_its_chip(tmp_path):
    """`uasdb validate data/adapters/x.yaml` reads the chip's links from data/chipsets/ beside it."""
    from helpers import TODAY, write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [through_chip(440)], [SATA_3G_CHIP])
    problems = check([data / "adapters" / "acme-box.yaml"], today=TODAY).problems
    assert rule_hits(problems, "throughput-within-chip") == ["reports[0].throughput[0].value"]
