"""The adapter page's model (scripts/uasdb/publish/adapter.py): what the product page shows about the chip inside and
about records that may be the same product."""
from uasdb.publish.adapter import chip_unknown


def test_an_unknown_chip_invites_the_owner_to_look_with_the_products_own_id():
    invite = chip_unknown({"id": "x", "usb_ids": [{"vid": "31db", "pid": "9210"}]})
    assert invite["commands"][0] == "lsusb -v -d 31db:9210"
    assert any(c.startswith("python3 probe.py") for c in invite["commands"])
    assert "iProduct" in invite["text"]


def test_without_one_usb_id_the_invitation_lists_every_device():
    assert chip_unknown({"id": "x"})["commands"][0] == "lsusb -v"
    two = {"id": "x", "usb_ids": [{"vid": "152d", "pid": "0578"}, {"vid": "152d", "pid": "0579"}]}
    assert chip_unknown(two)["commands"][0] == "lsusb -v"


def test_a_known_chip_needs_no_invitation():
    assert chip_unknown({"id": "x", "chipset": "jms578", "usb_ids": [{"vid": "152d", "pid": "0578"}]}) is None
