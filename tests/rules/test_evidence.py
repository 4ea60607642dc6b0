"""evidence-one-boot: a dmesg block whose clock or device numbering starts over joins two boots."""
import pytest

from helpers import adapter, rule_hits

ATTACH = """\
[  242.281897] usb 2-1: new SuperSpeed Gen 1 USB device number 38 using xhci_hcd
[  242.318941] scsi host2: uas
"""
AFTER_REBOOT = """\
[    7.084970] usb 2-1: Device not responding to setup address.
[    7.292813] usb 2-1: device not accepting address 2, error -71
"""


def with_dmesg(text):
    return adapter(report={"driver": None, "uas": None, "evidence": {"dmesg": text}})


CASES = [
    ("one boot, clock counts up", ATTACH, []),
    ("a reboot's lines after the attach", ATTACH + AFTER_REBOOT, ["reports[0].evidence.dmesg"]),
    ("two boots in order still restart the clock", AFTER_REBOOT + "[    1.000000] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n",
     ["reports[0].evidence.dmesg"]),
    ("stamps after a syslog prefix", "Sep 21 19:40:22 pi kernel: [   76.581569] usb 1-1: reset\n"
                                     "Sep 21 19:40:23 pi kernel: [   12.000000] usb 1-1: reset\n", ["reports[0].evidence.dmesg"]),
    ("syslog clock going back", "Aug 28 18:47:09 [kernel] usb 4-5: new SuperSpeed USB device number 8 using xhci_hcd\n"
                                "Aug 27 19:00:47 [kernel] usb 4-5: New USB device found\n", ["reports[0].evidence.dmesg"]),
    ("syslog across new year", "Dec 31 23:59:59 host kernel: usb 1-1: reset\nJan  1 00:00:01 host kernel: usb 1-1: reset\n", []),
    ("ISO journal stamps going back", "2024-05-02T10:00:00 kernel: a\n2024-05-01T10:00:00 kernel: b\n", ["reports[0].evidence.dmesg"]),
    ("dmesg -H deltas say nothing", "[  +0.218808] usb 5-1: device not accepting address 2, error -62\n"
                                    "[  +0.206932] usb 5-1: device not accepting address 3, error -62\n", []),
    # Without time stamps, device numbers restarting on a bus give the reboot away.
    ("device numbers restart without stamps", "usb 2-1: new SuperSpeed USB device number 38 using xhci_hcd\nscsi host2: uas\n"
                                               "usb 2-1: device not accepting address 2, error -71\n", ["reports[0].evidence.dmesg"]),
    ("device numbers per bus", "usb 2-1: new SuperSpeed USB device number 38 using xhci_hcd\n"
                               "usb 1-1: new high-speed USB device number 2 using xhci_hcd\n", []),
    ("a reset names an older number", "usb 2-2: new SuperSpeed USB device number 6 using xhci_hcd\n"
                                      "usb 2-1: reset SuperSpeed USB device number 4 using xhci_hcd\n", []),
    ("numbering wraps after 127", "usb 1-1: new high-speed USB device number 126 using xhci_hcd\n"
                                  "usb 1-1: new high-speed USB device number 3 using xhci_hcd\n", []),
    ("no stamps, no numbers: nothing to judge", "scsi host2: uas\nusb 2-1: Product: USB3.0 External HDD\n", []),
]


@pytest.mark.parametrize("name,dmesg,expected", CASES, ids=[c[0] for c in CASES])
def test_evidence_one_boot(check_records, name, dmesg, expected):
    assert rule_hits(check_records([with_dmesg(dmesg)]), "evidence-one-boot") == expected


def test_message_points_at_the_lines(check_records):
    [problem] = [p for p in check_records([with_dmesg(ATTACH + AFTER_REBOOT)]) if p.rule == "evidence-one-boot"]
    assert problem.message.startswith("line 3's time stamp [7.084970] is earlier than line 2's [242.318941]")
    assert "one report per boot" in problem.fix
