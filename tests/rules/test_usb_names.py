import pytest

from helpers import BASE_CHIPSET, adapter
from kernel_fixtures import findings, hits
from uasdb.records.rules.usb_names import names_agree


def with_id(vid, pid, **strings):
    return adapter(usb_ids=[dict({"vid": vid, "pid": pid}, **strings)])


def with_lsusb(line, vid="152d", pid="0567"):
    return adapter(usb_ids=[{"vid": vid, "pid": pid}], report={"evidence": {"lsusb": line}})


CASES = [
    ("registered vendor", "usb-vendor-known", with_id("152d", "0567"), []),
    ("vendor missing from usb.ids", "usb-vendor-known", with_id("abcd", "0001"), ["usb_ids[0].vid"]),
    ("maker string agrees", "usb-names-match", with_id("152d", "0567", manufacturer_string="JMicron"), []),
    ("maker string disagrees", "usb-names-match", with_id("152d", "0567", manufacturer_string="Realtek"), ["usb_ids[0].manufacturer_string"]),
    ("product string agrees", "usb-names-match", with_id("152d", "0567", product_string="JMS567"), []),
    ("one chip among several names", "usb-names-match", with_id("174c", "55aa", product_string="ASM1153E"), []),
    ("product string names another chip", "usb-names-match", with_id("152d", "0567", product_string="JMS578"), ["usb_ids[0].product_string"]),
    ("generic words say nothing", "usb-names-match", with_id("152d", "0567", product_string="USB 3.0 SATA Bridge"), []),
    ("product unknown to the trimmed usb.ids", "usb-names-match", with_id("152d", "9999", product_string="Anything"), []),
    ("lsusb line agrees", "usb-names-match",
     with_lsusb("Bus 002 Device 002: ID 152d:0567 JMicron Technology Corp. / JMicron USA Technology Corp. JMS567 SATA 6Gb/s bridge"), []),
    ("lsusb line names another maker", "usb-names-match",
     with_lsusb("Bus 002 Device 002: ID 152d:0567 Realtek Semiconductor Corp. RTL9210 M.2 NVME Adapter"), ["reports[0].evidence.lsusb"]),
    ("other devices on the bus are not checked", "usb-names-match",
     with_lsusb("Bus 002 Device 001: ID 2537:1068 Realtek hub\nBus 002 Device 002: ID 152d:0567 JMicron JMS567"), []),
]


@pytest.mark.parametrize("name,rule,record,expected", CASES, ids=[c[0] for c in CASES])
def test_usb_name_rules(name, rule, record, expected):
    assert hits(rule, record) == expected


def test_chipset_records_are_checked_too():
    chipset = dict(BASE_CHIPSET, usb_ids=[{"vid": "abcd", "pid": "0001"}])
    assert hits("usb-vendor-known", chipset, kind="chipset") == ["usb_ids[0].vid"]


def test_disagreement_is_shown_with_both_names_as_a_warning():
    [finding] = findings("usb-names-match", with_id("152d", "0567", manufacturer_string="Realtek"))
    assert finding.severity == "warning"
    assert finding.message == ("the device says it is made by `Realtek`, usb.ids names vendor 152d "
                               "`JMicron Technology Corp. / JMicron USA Technology Corp.`")


@pytest.mark.parametrize("a,b,agree", [
    ("RTL9210B-CG", "RTL9210 M.2 NVME Adapter", True),
    ("Seagate", "Seagate RSS LLC", True),
    ("ULT-Best", "Other World Computing", False),
    ("Generic", "Realtek Semiconductor Corp.", True),
    ("", "JMicron", True),
])
def test_names_agree(a, b, agree):
    assert names_agree(a, b) is agree
