"""The export says which distribution already ships a quirk entry, per USB ID, per adapter and in its own API file."""
import json

import pytest

from uasdb.publish.common import HOST_LABELS
from uasdb.publish.distributions import change_label, distribution_facts, with_distributions
from uasdb.publish.usb import _usb_slot


def _distribution(dist_id, name, hosts, entries):
    return {"id": dist_id, "name": name, "file": f"https://example.com/{dist_id}/cmdline.txt", "hosts": hosts,
            "seen": {"date": "2026-01-01"},
            "entries": [{"vid": vid, "pid": pid, "flags": flags, "added_in": url, "added_on": "2024-05-06",
                         "reason": "Test entry."} for vid, pid, flags, url in entries]}


@pytest.fixture()
def site():
    adapters = [{"id": "box", "usb_ids": [{"vid": "174c", "pid": "55aa"}, {"vid": "152d", "pid": "0567"}]}]
    usb = {"174c:55aa": _usb_slot({"vid": "174c", "pid": "55aa"}), "152d:0567": _usb_slot({"vid": "152d", "pid": "0567"})}
    dists = [
        _distribution("zeta-os", "Zeta OS", ["pi4"], [("174c", "55aa", "u", "https://github.com/z/os/pull/12")]),
        _distribution("alpha-os", "Alpha OS", ["pi3", "pi4", "pi5"],
                      [("174c", "55aa", "u", "https://github.com/a/os/commit/0123456789abcdef0123456789abcdef01234567"),
                       ("0bc2", "2322", "u", "https://github.com/a/os/issues/7")]),
    ]
    facts = distribution_facts(dists, HOST_LABELS)
    for key in facts:
        vid, pid = key.split(":")
        usb.setdefault(key, _usb_slot({"vid": vid, "pid": pid}))
    site = {"adapters": adapters, "usb": usb, "counts": {}}
    return with_distributions(site, dists, facts)


@pytest.mark.parametrize("url, label", [
    ("https://github.com/home-assistant/operating-system/pull/1864", "PR #1864"),
    ("https://github.com/home-assistant/operating-system/pull/1864/files", "PR #1864"),
    ("https://github.com/getumbrel/umbrel-os/issues/42", "issue #42"),
    ("https://github.com/a/b/commit/f58c959e69d7288680dfa950918500b87d9b942a", "commit f58c959"),
    ("https://example.com/changelog#2024", "the change"),
])
def test_change_label_names_the_pull_request_or_commit(url, label):
    assert change_label(url) == label


def test_each_id_lists_the_distributions_that_set_it_with_their_sentence(site):
    shipped = site["usb"]["174c:55aa"]["distributions"]
    assert [(d["name"], d["flags"], d["change"]) for d in shipped] == [("Alpha OS", "u", "commit 0123456"), ("Zeta OS", "u", "PR #12")]
    assert shipped[0]["sentence"] == ("Alpha OS already sets 174c:55aa:u on its Raspberry Pi 3, Raspberry Pi 4 and "
                                      "Raspberry Pi 5 images (since 2024-05-06).")
    assert shipped[1]["sentence"] == "Zeta OS already sets 174c:55aa:u on its Raspberry Pi 4 images (since 2024-05-06)."
    assert site["usb"]["152d:0567"]["distributions"] == []


def test_an_id_only_a_distribution_lists_gets_its_own_usb_page(site):
    slot = site["usb"]["0bc2:2322"]
    assert (slot["vid"], slot["pid"], slot["adapters"]) == ("0bc2", "2322", [])
    assert [d["change"] for d in slot["distributions"]] == ["issue #7"]


def test_adapters_carry_what_distributions_set_for_their_ids(site):
    box = site["adapters"][0]
    assert [(d["usb_id"], d["id"]) for d in box["distributions"]] == [("174c:55aa", "alpha-os"), ("174c:55aa", "zeta-os")]
    assert list(site["distribution_ids"]) == ["174c:55aa", "0bc2:2322"]
    assert [d["id"] for d in site["distributions"]] == ["alpha-os", "zeta-os"]
    assert site["counts"]["distributions"] == 2


def test_real_home_assistant_list_reaches_the_api(real_catalog):
    tmp_path = real_catalog.export_dir
    api = json.loads((tmp_path / "static" / "api" / "v1" / "distributions.json").read_text(encoding="utf-8"))["result"]
    assert "home-assistant-os" in [d["id"] for d in api["distributions"]]
    usb = json.loads((tmp_path / "api" / "v1" / "usb" / "174c" / "55aa.json").read_text(encoding="utf-8"))["result"]
    haos = next(d for d in usb["distributions"] if d["id"] == "home-assistant-os")
    assert (haos["flags"], haos["change"], haos["url"]) == ("u", "PR #1864", "https://github.com/home-assistant/operating-system/pull/1864")
