"""The search vocabulary: every word of product names, vendors, models and chips, most used first in its commonest
spelling, the chips and vendors the search leads with, and the site's own words; small enough to fetch at once."""
import json

from uasdb.publish.search_vocabulary import SITE_WORDS, vocabulary, words_of

SITE = {
    "adapters": [
        {"name": "Sabrent EC-SSHD USB 3.0 to 2.5\" SATA adapter cable (152d:0578)", "vendor": "Sabrent",
         "vendor_label": "Sabrent", "model": "EC-SSHD"},
        {"name": "SABRENT USB 3.1 enclosure", "vendor": "SABRENT", "vendor_label": "Sabrent"},
        {"name": "StarTech.com S2510BMU33 enclosure", "vendor": "StarTech", "vendor_label": "StarTech.com",
         "model": "S2510BMU33"},
        {"name": "Unbranded USB 3.0 SATA cable", "vendor_label": "Unbranded or unknown"},
    ],
    "chipsets": [{"id": "lucidport-usb300", "name": "USB300", "maker": "LucidPort"},
                 {"id": "jms578", "name": "JMS578", "maker": "JMicron"}],
    "verdict_short": {"works-with-quirk": "Needs quirk"}, "boot_verdict_short": {"fails": "Does not boot"},
    "platforms": {"pi4": {"label": "Raspberry Pi 4"}}, "host_labels": {"pi5": "Raspberry Pi 5"},
}


def test_words_keep_model_punctuation_and_drop_numbers_and_id_halves():
    assert words_of('Sabrent EC-SSHD USB 3.0 to 2.5" M.2 (152d:0578) StarTech.com') == \
        ["Sabrent", "EC-SSHD", "USB", "to", "M.2", "StarTech.com"]


def test_vocabulary_lists_words_most_used_first_in_their_commonest_spelling():
    v = vocabulary(SITE)
    words = v["words"]
    assert words[:2] == ["Sabrent", "USB"]  # six times (names, vendors, labels), then three
    assert "SABRENT" not in words  # one entry per word, spelled as most records do
    for word in ("EC-SSHD", "JMS578", "USB300", "JMicron", "LucidPort", "quirk", "boot", "Raspberry"):
        assert word in words, word
    assert not {"152d", "0578", "3.0", "2.5"} & set(words)
    assert set(SITE_WORDS.split()) <= {w.lower() for w in words}


def test_chips_and_vendors_map_to_the_search_filters_values():
    v = vocabulary(SITE)
    assert v["chips"] == {"jms578": ["JMS578", "jms578"], "usb300": ["USB300", "lucidport-usb300"]}
    assert v["vendors"] == {"sabrent": "Sabrent", "startech": "StarTech.com", "startech.com": "StarTech.com"}


def test_the_real_vocabulary_is_small(real_catalog):
    """It is fetched with the first search: at most 16 KB (8.2 KB, 3.7 KB gzipped, for 255 adapters in 2026-11)."""
    site = real_catalog.site
    text = json.dumps(vocabulary(site), ensure_ascii=False, separators=(",", ":"))
    assert len(text.encode()) < 16_000
    assert len(vocabulary(site)["chips"]) == len(site["chipsets"])
