"""The export joins the linux-hardware.org table: a sentence per USB ID and the most wanted list."""
import pytest

from uasdb.publish.linuxhw import with_popularity, with_wanted
from uasdb.publish.usb import _usb_slot
from uasdb.records.reference import load_linuxhw

TABLE = {"source": "https://github.com/linuxhw/LsUSB/blob/" + "a" * 40 + "/README.md", "commit": "a" * 40,
         "read": "2026-11-23", "total_reports": 211516, "devices": [
             {"vid": "058f", "pid": "6387", "rank": 1, "computers": 2013, "name": "Transcend", "driver": "uas, us...",
              "drivers": ["uas"], "probe": "A525C8911B", "probe_url": "https://linux-hardware.org/?probe=A525C8911B"},
             {"vid": "174c", "pid": "55aa", "rank": 2, "computers": 996, "driver": "usb_sto...", "drivers": [],
              "probe": "3AB561BBE8", "probe_url": "https://linux-hardware.org/?probe=3AB561BBE8"},
             {"vid": "0bc2", "pid": "231a", "rank": 3, "computers": 269, "probe": "82B124D8C4",
              "probe_url": "https://linux-hardware.org/?probe=82B124D8C4"},
         ]}


@pytest.fixture()
def site():
    reported = dict(_usb_slot({"vid": "174c", "pid": "55aa"}), adapters=["some-box"])
    usb = {"174c:55aa": reported}
    for device in TABLE["devices"]:  # export.build makes a slot for every ID the table has
        usb.setdefault(f"{device['vid']}:{device['pid']}", _usb_slot(device))
    site = {"usb": usb, "lists": {}, "counts": {}}
    site = with_popularity(site, TABLE)
    # what with_reference and with_distributions would have added for 0bc2:231a
    site["usb"]["0bc2:231a"]["kernel"] = [{"flags": [{"name": "NO_WP_DETECT", "letter": "w"}]}]
    site["usb"]["0bc2:231a"]["distributions"] = [{"name": "Some OS"}]
    site["usb"]["0bc2:231a"]["smartctl"] = [{"device_type": "sat", "line": 1}, {"device_type": "sat", "line": 2}]
    return with_wanted(site)


@pytest.mark.parametrize("usb_id, sentence", [
    # "uas, us…" is a module list (uas.c matches every Bulk-Only disk), printed even for this USB 2 flash drive:
    # the sentence must not read as "it runs on uas".
    ("058f:6387", "Seen on 2,013 computers (linux-hardware.org, which lists the drivers as uas, us…). Linux offers every "
                  "USB disk to both uas and usb-storage, so that list does not say which one drives it."),
    ("174c:55aa", "Seen on 996 computers, driver usb_sto… (linux-hardware.org)."),
    ("0bc2:231a", "Seen on 269 computers (linux-hardware.org)."),   # no driver in the table: none claimed
])
def test_every_row_reaches_its_usb_slot_with_a_sentence(site, usb_id, sentence):
    assert site["usb"][usb_id]["linuxhw"]["sentence"] == sentence


def test_wanted_is_the_unreported_ids_most_common_first(site):
    wanted = site["lists"]["wanted"]
    assert [w["usb_id"] for w in wanted] == ["058f:6387", "0bc2:231a"]
    assert site["counts"]["wanted"] == 2
    assert site["usb"]["058f:6387"]["wanted"] is True and "wanted" not in site["usb"]["174c:55aa"]
    assert (wanted[1]["kernel_flags"], wanted[1]["distributions"], wanted[1]["smartctl_types"]) == (
        ["NO_WP_DETECT"], ["Some OS"], ["sat"])
    assert wanted[0]["smartctl_types"] == []
    assert wanted[0]["probe_url"] == "https://linux-hardware.org/?probe=A525C8911B"
    assert (wanted[0]["label"], wanted[0]["driver_text"]) == ("Transcend", "uas, us…")
    assert (wanted[1]["label"], wanted[1]["driver_text"]) == ("", "")


def test_source_is_named(site):
    assert site["linuxhw"]["name"] == "linux-hardware.org"
    assert (site["linuxhw"]["devices"], site["linuxhw"]["total_reports"]) == (3, 211516)


def test_real_table_loads_in_rank_order():
    devices = load_linuxhw()["devices"]
    assert [d["rank"] for d in devices] == list(range(1, len(devices) + 1))
    assert all(a["computers"] >= b["computers"] for a, b in zip(devices, devices[1:], strict=False))


@pytest.mark.parametrize("names, scope", [
    (("Flash Drive", "Transcend"), "flash drive"),
    (("", "Cruzer Glide 3.0"), "flash drive"),            # "Glide" is not "IDE"
    (("GL827L SD/MMC/MS Flash Card Reader", ""), "card reader"),
    (("", "E3372 LTE/UMTS/GSM HiLink..."), "phone, modem or virtual drive"),
    (("M6116 SATA Bridge", "M6116 SATA Bridge"), "disk"),
    (("My Passport (WD20NMVW)", "My Passport 25E1"), "disk"),
    (("", "MassStorageClass"), "disk"),                   # a name that says nothing stays with the disks
])
def test_wanted_ids_are_sorted_by_what_their_names_say(names, scope):
    from uasdb.publish.linuxhw import device_scope
    assert device_scope(*names) == scope
