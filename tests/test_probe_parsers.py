"""The pasted-output parsers in probe.py, on real captured output (tests/fixtures/probe/captured/)."""
from __future__ import annotations

from pathlib import Path

import pytest

from uasdb import probe

CAPTURED = Path(__file__).resolve().parent / "fixtures" / "probe" / "captured"


def captured(name: str) -> str:
    return (CAPTURED / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("text, expected", [
    ("32.02", "3202"), (" 1.00", "0100"), ("2.05", "0205"), ("42.05", "4205"), ("ff.ff", "ffff"),
    ("1.0", None), ("", None), ("0x0100", None),
])
def test_bcd_device_as_the_schema_writes_it(text, expected):
    assert probe.bcd_from_dotted(text) == expected


@pytest.mark.parametrize("words, speed", [
    ("SuperSpeed Gen 1", "5000M"), ("SuperSpeed", "5000M"), ("high-speed", "480M"),
    ("SuperSpeed Plus Gen 2x1", "10000M"), ("SuperSpeed Plus Gen 2x2", "20000M"), ("full-speed", None),
    ("SuperSpeed Gen 1x1", "5000M"), ("SuperSpeed Gen 1x2", "10000M"), ("SuperSpeedPlus Gen 2", "10000M"),
    ("SuperSpeedPlus Gen 2x2", "20000M"), ("SuperSpeed Plus", "10000M"), ("SuperSpeedPlus", "10000M"),
])
def test_dmesg_speed_words(words, speed):
    assert probe.speed_from_text(words) == speed


def test_lsusb_t_from_a_pi4_article_with_its_prompt():
    tree = probe.parse_lsusb_tree(captured("seed-geerling-lsusb-t.txt"))
    assert [(i["bus"], i["class"], i["driver"], i["speed"]) for i in probe.storage_interfaces(tree)] == \
        [(2, "Mass Storage", "uas", "5000M")]


def test_mixed_paste_of_lsusb_and_lsusb_t_finds_both_bridges_and_both_drivers():
    text = captured("seed-comment-lsusb-two-bridges.txt")
    assert [(d["vid"], d["pid"]) for d in probe.parse_lsusb(text)] == [("152d", "0567"), ("174c", "55aa")]
    assert [i["driver"] for i in probe.storage_interfaces(probe.parse_lsusb_tree(text))] == ["uas", "usb-storage"]
    assert probe.find_usb_ids(text) == ["152d:0567", "174c:55aa"]


def test_drive_behind_the_usb2_hub_shows_480m():
    storage = probe.storage_interfaces(probe.parse_lsusb_tree(captured("seed-comment-lsusb-t-hub-480m.txt")))
    assert [(i["bus"], i["driver"], i["speed"]) for i in storage] == [(1, "uas", "480M")]


def test_lsusb_t_with_only_a_hub_and_usb_storage():
    tree = probe.parse_lsusb_tree(captured("rpi-linux-4498-lsusb-t.txt"))
    assert [(i["class"], i["driver"]) for i in tree] == [("Mass Storage", "usb-storage"), ("Hub", "hub/4p")]


def test_lsusb_v_reads_ids_firmware_strings_and_bulk_only_interface():
    (device,) = probe.parse_lsusb_verbose(captured("rpi-eeprom-194-lsusb-v.txt"))
    assert (device["vid"], device["pid"], device["bcd_device"]) == ("152d", "0578", "3202")
    assert (device["manufacturer"], device["product"]) == ("JMicron", "External Disk 3.0")
    assert device["interfaces"] == [{"alt": 0, "class": 8, "protocol": 80}]
    assert device["offers_uas"] is False


def test_lsusb_v_negotiated_speed_and_a_capture_cut_before_the_protocol():
    (device,) = probe.parse_lsusb_verbose(captured("smartmontools-617-lsusb-v.txt"))
    assert (device["pid"], device["bcd_device"], device["speed"]) == ("0586", "4205", "10000M")
    assert device["offers_uas"] is None  # the protocol line is missing: unknown, not "no"


def test_lsusb_v_without_root_has_no_strings():
    (device,) = probe.parse_lsusb_verbose(captured("rpi-linux-4498-lsusb-v.txt"))
    assert (device["vid"], device["pid"], device["bcd_device"]) == ("152d", "0567", "0205")
    assert device["manufacturer"] is None and device["product"] is None


def test_lsusb_v_uas_alternate_setting():
    (device,) = probe.parse_lsusb_verbose(captured("tobetter-5-lsusb-v-uas-altsetting.txt"))
    assert device["offers_uas"] is True


def test_lsusb_v_reads_what_the_kernel_tells_bridges_apart_by():
    """MaxPower (bMaxPower) and bcdUSB from real captures; 0 mA and the largest MaxStreams are kept as numbers."""
    (jms578,) = probe.parse_lsusb_verbose(captured("rpi-eeprom-194-lsusb-v.txt"))
    (jms567,) = probe.parse_lsusb_verbose(captured("rpi-linux-4498-lsusb-v.txt"))
    assert (jms578["max_power_ma"], jms567["max_power_ma"]) == (896, 8)
    (asmedia,) = probe.parse_lsusb_verbose(
        "Bus 002 Device 002: ID 174c:55aa ASMedia\n  bcdUSB               3.00\n  iSerial                 3 1234ABCD\n"
        "    MaxPower                0mA\n      bAlternateSetting       1\n      bInterfaceClass         8 Mass Storage\n"
        "      bInterfaceProtocol     98 \n        MaxStreams             16\n        MaxStreams             32\n")
    assert (asmedia["max_power_ma"], asmedia["max_streams"], asmedia["bcd_usb"], asmedia["serial"]) == (0, 32, "0300", "1234ABCD")


@pytest.mark.parametrize("hostile", [
    "  iProduct 2 x" + " " * 400_000 + "y\n",                  # a field whose text is a long run of blanks
    (" " * 1000 + "\n") * 1000,                                # a megabyte of lines of spaces
    "usb 1-1: Product: a" + " " * 400_000 + "b\n",             # dmesg string with the same run
    "  bAlternateSetting x\n  bInterfaceProtocol \u0663\n",  # not digits (U+0663 is an Arabic-Indic three)
])
def test_hostile_pastes_parse_in_linear_time_without_error(hostile):
    """A backtracking pattern took minutes on these; each must take about as long as reading it."""
    import time
    started = time.perf_counter()
    probe.parse_lsusb_verbose(hostile)
    probe.parse_dmesg(hostile)
    assert time.perf_counter() - started < 2.0


def test_plain_lsusb_is_not_mistaken_for_lsusb_v():
    assert probe.parse_lsusb_verbose(captured("seed-comment-lsusb-two-bridges.txt")) == []


def test_dmesg_kernel_refuses_uas_and_binds_usb_storage():
    parsed = probe.parse_dmesg(captured("rpi-linux-3070-dmesg-blacklisted.txt"))
    device = parsed["devices"]["2-1"]
    assert (device["vid"], device["pid"], device["bcd_device"], device["speed"]) == ("152d", "0578", "3202", "5000M")
    assert (device["driver"], device["uas_refused"], device["kernel_quirks"]) == ("usb-storage", "blacklisted", "1800000")
    assert device["product"] == "JMS579"
    assert parsed["events"] == []


def test_dmesg_uas_host_is_credited_to_the_device_enumerated_before_it():
    device = probe.parse_dmesg(captured("rpi-eeprom-361-dmesg-uas.txt"))["devices"]["2-1"]
    assert (device["driver"], device["bcd_device"], device["manufacturer"]) == ("uas", "0100", "JMicron")
    hub_port = probe.parse_dmesg(captured("tobetter-5-dmesg-uas.txt"))["devices"]["4-1.1"]
    assert (hub_port["vid"], hub_port["pid"], hub_port["driver"]) == ("152d", "3562", "uas")


def test_dmesg_fragment_without_the_device_lines_yields_no_device():
    parsed = probe.parse_dmesg(captured("seed-comment-dmesg-uas.txt"))
    assert parsed["devices"] == {}
    assert "[55287.666914] scsi host0: uas" in parsed["lines"]


@pytest.mark.parametrize("line, kind", [
    ("[ 100.1] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd", "reset"),
    # The kernel gave up on a command: an abort, counted with timeouts; the reset round that may follow is a reset.
    ("[ 100.2] sd 0:0:0:0: [sda] tag#2 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD", "timeout"),
    ("[ 100.2] scsi host0: uas_eh_device_reset_handler start", "reset"),
    ("[ 100.3] blk_update_request: I/O error, dev sda, sector 2048", "io-error"),
    ("[ 100.4] usb 2-1: USB disconnect, device number 2", "disconnect"),
    ("[ 100.5] hwmon hwmon1: Undervoltage detected!", "power"),
])
def test_dmesg_trouble_kinds(line, kind):
    assert [e["kind"] for e in probe.parse_dmesg(line)["events"]] == [kind]


def test_ioreg_from_the_mac_article_shows_the_uas_driver():
    (device,) = probe.parse_ioreg(captured("seed-ioreg-uas.txt"))
    assert (device["name"], device["location"], device["driver"]) == ("ASM1153E", 0x14500000, "uas")


def test_ioreg_with_properties_and_the_bot_driver():
    text = (' +-o Drive@01130000  <class IOUSBHostDevice, id 0x1>\n'
            '  |   "idVendor" = 5421\n  |   "idProduct" = 1400\n  |   "bcdDevice" = 12802\n'
            '  +-o IOUSBMassStorageDriver  <class IOUSBMassStorageDriver, id 0x2>\n')
    (device,) = probe.parse_ioreg(text)
    assert (device["vid"], device["pid"], device["bcd_device"], device["driver"]) == ("152d", "0578", "3202", "usb-storage")


def test_system_profiler_entry_with_its_disk():
    entries = probe.parse_system_profiler(captured("system-profiler-android.txt"))
    android = [e for e in entries if e["bsd_names"]]
    assert [(e["vid"], e["pid"], e["bcd_device"], e["speed"], e["location"], e["bsd_names"]) for e in android] == \
        [("19d2", "ffb0", "ffff", "480M", 0x14200000, ["disk2"])]
    assert {e["product"] for e in entries} == {"BRCM20702 Hub", "Bluetooth USB Host Controller", "Android"}


def test_macos_join_keeps_storage_and_says_when_ioreg_has_no_match():
    joined = probe.join_macos(probe.parse_ioreg(captured("seed-ioreg-uas.txt")),
                              probe.parse_system_profiler(captured("system-profiler-android.txt")))
    assert [(e["vid"], e["pid"], e["driver"], e["in_ioreg"]) for e in joined] == [("19d2", "ffb0", None, False)]


def test_vcgencmd_bootloader_version():
    assert probe.parse_vcgencmd_bootloader(captured("ironsheep-91-vcgencmd-bootloader-version.txt")) == \
        ("2023-01-11", "8ba17717fbcedd4c3b6d4bce7e50c7af4155cba9")


@pytest.mark.parametrize("name, ids", [
    ("seed-comment-jms578-lsusb.txt", ["152d:0578"]),
    ("rpi-linux-3070-dmesg-blacklisted.txt", ["152d:0578"]),
    ("system-profiler-android.txt", ["0a5c:4500", "05ac:828f", "19d2:ffb0"]),
    ("seed-geerling-lsusb-t.txt", []),
])
def test_find_usb_ids_in_any_paste(name, ids):
    assert probe.find_usb_ids(captured(name)) == ids


def test_every_capture_parses_without_error():
    for path in sorted(CAPTURED.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        probe.find_usb_ids(text)
        probe.parse_lsusb_tree(text)
        probe.parse_ioreg(text)
