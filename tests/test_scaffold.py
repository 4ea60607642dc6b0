import datetime

import pytest

from uasdb.ingest.scaffold import parse_usb_id, scaffold_text, slugify


@pytest.mark.parametrize("text", ["152d:0578", "152D:0578", "152d0578", "0x152d 0x0578", " 152d:0578 "])
def test_usb_id_spellings(text):
    assert parse_usb_id(text) == ("152d", "0578")


@pytest.mark.parametrize("text", ["152d:578", "152d-0578", "xyz", "152d:0578:u"])
def test_not_usb_ids(text):
    assert parse_usb_id(text) is None


def test_slug():
    assert slugify('Sabrent EC-SSHD 2.5" Enclosure!') == "sabrent-ec-sshd-2-5-enclosure"


def test_scaffold_prefills_known_chipset_and_mentions_sharing():
    chipset = {"id": "jms578", "name": "JMS578"}
    record_id, text = scaffold_text("152d", "0578", "Acme Box", [chipset], ["other-box"], datetime.date(2026, 1, 2))
    assert record_id == "acme-box"
    assert "chipset: jms578" in text and "already listed by: other-box" in text
    assert 'vid: "152d"' in text and 'date: "2026-01-02"' in text


def test_scaffold_without_name_uses_the_id():
    record_id, text = scaffold_text("abcd", "1234", None, [], [], datetime.date(2026, 1, 2))
    assert record_id == "unknown-abcd-1234" and "chipset:" not in text
