import pytest

from helpers import adapter, rule_hits


def test_shared_id_is_a_warning_on_both(check_records):
    problems = check_records([adapter(), adapter(id="other-box")])
    shared = [p for p in problems if p.rule == "shared-usb-id"]
    assert len(shared) == 2 and all(p.severity == "warning" for p in shared)
    assert "also listed by other-box" in shared[0].message or "also listed by acme-box" in shared[0].message


def test_shared_id_does_not_fail_validation(check_records):
    problems = check_records([adapter(), adapter(id="other-box")])
    assert [p for p in problems if p.severity == "error"] == []


def test_report_names_an_unlisted_id(check_records):
    problems = check_records([adapter(report={"usb_id": "174c:55aa"})])
    assert rule_hits(problems, "report-usb-id-listed") == ["reports[0].usb_id"]


def test_id_listed_twice(check_records):
    problems = check_records([adapter(usb_ids=[{"vid": "152d", "pid": "0578"}, {"vid": "152d", "pid": "0578"}])])
    assert rule_hits(problems, "usb-id-unique-in-record") == ["usb_ids[1]"]


def shown(**evidence):
    return adapter(report={"evidence": evidence})


EVIDENCE_ID_CASES = [
    ("the record's own ID", shown(lsusb="Bus 002 Device 002: ID 152d:0578 JMicron Technology Corp."), []),
    ("an ID the record lacks", shown(lsusb="Bus 002 Device 009: ID 174c:5106 ASMedia Technology Inc. ASM1051 SATA 3Gb/s bridge"),
     ["reports[0].evidence.lsusb"]),
    ("dmesg's idVendor/idProduct", shown(dmesg="usb 2-2: New USB device found, idVendor=174c, idProduct=5106, bcdDevice= 1.00\n"),
     ["reports[0].evidence.dmesg"]),
    ("usb-storage's quirk line", shown(dmesg="usb-storage 4-5:1.0: Quirks match for vid 152d pid 0567: 5000000\n"),
     ["reports[0].evidence.dmesg"]),
    ("the probe's bridge ID", shown(probe='* 111.8GB "X" SSD as /dev/sda: behind ASMedia bridge (174c:55aa), Driver=uas, 5Gbps'),
     ["reports[0].evidence.probe"]),
    ("upper-case hex is the same ID", shown(lsusb="Bus 002 Device 002: ID 152D:0578 JMicron"), []),
    # Hubs and root hubs are on every bus; the output itself says which lines they are.
    ("root hubs", shown(lsusb="Bus 002 Device 001: ID 1d6b:0003 Linux Foundation 3.0 root hub"), []),
    ("a hub lsusb names", shown(lsusb="Bus 001 Device 002: ID 2109:3431 VIA Labs, Inc. Hub\n"
                                      "Bus 002 Device 002: ID 152d:0578 JMicron Technology Corp."), []),
    ("a hub in lsusb -tv", shown(lsusb_t="|__ Port 2: Dev 6, If 0, Class=Hub, Driver=hub/3p, 5000M\n    ID 0bc2:ab45 Seagate RSS LLC\n"
                                         "    |__ Port 1: Dev 7, If 0, Class=Mass Storage, Driver=uas, 5000M\n        ID 152d:0578 JMicron\n"),
     []),
    ("a hub dmesg announces", shown(dmesg="usb 2-1: New USB device found, idVendor=0bc2, idProduct=ab45, bcdDevice= 1.00\n"
                                          "hub 2-1:1.0: USB hub found\n"), []),
    # A storage device whose name says Hub (Seagate's Backup Plus Hub) is judged by its Class= line.
    ("a mass-storage device under a hub still counts", shown(lsusb_t="|__ Port 2: Dev 6, If 0, Class=Hub, Driver=hub/3p, 5000M\n"
                                                                     "    ID 0bc2:ab45 Seagate RSS LLC\n"
                                                                     "    |__ Port 1: Dev 7, If 0, Class=Mass Storage, Driver=uas, 5000M\n"
                                                                     "        ID 0bc2:ab38 Seagate RSS LLC Backup Plus Hub BK\n"
                                                                     "    |__ Port 2: Dev 8, If 0, Class=Mass Storage, Driver=uas, 5000M\n"
                                                                     "        ID 174c:55aa ASMedia\n"),
     ["reports[0].evidence.lsusb_t"]),
]


@pytest.mark.parametrize("name,record,expected", EVIDENCE_ID_CASES, ids=[c[0] for c in EVIDENCE_ID_CASES])
def test_evidence_usb_id_listed(check_records, name, record, expected):
    assert rule_hits(check_records([record]), "evidence-usb-id-listed") == expected


def test_evidence_id_is_a_warning_that_names_the_ids(check_records):
    record = shown(lsusb="Bus 002 Device 009: ID 174c:5106 ASMedia\nBus 002 Device 010: ID 0bda:9210 Realtek\n"
                         "Bus 002 Device 011: ID 174c:5106 ASMedia")
    [problem] = [p for p in check_records([record]) if p.rule == "evidence-usb-id-listed"]
    assert problem.severity == "warning"
    assert problem.message == "the output shows 174c:5106, 0bda:9210, which are not in this record's usb_ids"


def test_class_line_outranks_a_name_that_says_hub(check_records):
    record = shown(lsusb_t="|__ Port 1: Dev 7, If 0, Class=Mass Storage, Driver=uas, 5000M\n"
                           "    ID 0bc2:ab38 Seagate RSS LLC Backup Plus Hub BK\n")
    [problem] = [p for p in check_records([record]) if p.rule == "evidence-usb-id-listed"]
    assert "0bc2:ab38" in problem.message
