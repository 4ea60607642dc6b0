"""The words the site's search knows, for its "did you mean" and for putting a named chip's or vendor's pages first.

Pagefind matches whole words and their prefixes only, so "sabrant" or "samsng t7" find nothing useful. The export
writes this small file (/search/vocabulary.json); site/assets/js/search-words.js corrects each unknown word of a
query to the nearest of these within one or two edits, and reads `chips` and `vendors` to lead with their pages.

  {"words": ["USB", "enclosure", …],          every word of product names, vendors, models and chips, most used first
   "chips": {"jms583": ["JMS583", "jms583"]},  a chip's name, lower-cased -> its name (the search's chipset filter) and id
   "vendors": {"startech.com": "StarTech.com"}} a vendor spelling, lower-cased -> the vendor as the vendor filter names it
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

# Where the export writes it (relative to its OUT folder; static/ is served at the site's root).
VOCABULARY_FILE = "static/search/vocabulary.json"
# A word: letters and digits, with inner dots, hyphens and plus signs kept ("EC-SSHD", "M.2", "StarTech.com").
_WORD = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.+-]*[A-Za-z0-9+])?")
# Not worth knowing: bare numbers ("3.0", "2") and the halves of a USB ID written in a name ("152d", "0578").
_NOT_A_WORD = re.compile(r"^(?:[0-9.]+|[0-9a-f]{4})$", re.I)
# The vendor filter's value for records that name none: not a vendor anyone types.
_NO_VENDOR = "Unbranded or unknown"
# Words people search this site for that no product name holds; known, so never "corrected" into a product word
# ("boot" is not a typo of "Book"). The site's verdict words and platform names are added from the export.
SITE_WORDS = "uas usb-storage quirk quirks boot booting trim smart firmware dmesg lsusb probe reset power hub speed chipset"


def words_of(text: str) -> list[str]:
    return [w for w in _WORD.findall(text or "") if len(w) >= 2 and not _NOT_A_WORD.match(w)]


def vocabulary(site: dict[str, Any]) -> dict[str, Any]:
    """The vocabulary of an export (`site` as export.build returns it)."""
    counts: Counter = Counter()
    spellings: dict[str, Counter] = {}

    def add(text: str) -> None:
        for word in words_of(text):
            counts[word.lower()] += 1
            spellings.setdefault(word.lower(), Counter())[word] += 1

    vendors: dict[str, str] = {}
    for adapter in site["adapters"]:
        for text in (adapter["name"], adapter.get("vendor"), adapter.get("vendor_label"), adapter.get("model")):
            add(text or "")
        label = adapter.get("vendor_label")
        if label and label != _NO_VENDOR:
            for spelling in {label, adapter.get("vendor") or label}:
                vendors.setdefault(spelling.lower(), label)
    chips: dict[str, list[str]] = {}
    for chip in site["chipsets"]:
        add(chip["name"])
        add(chip.get("maker", ""))
        chips[chip["name"].lower()] = [chip["name"], chip["id"]]
    for text in [SITE_WORDS, *site.get("verdict_short", {}).values(), *site.get("boot_verdict_short", {}).values(),
                 *(p.get("label", "") for p in site.get("platforms", {}).values()), *site.get("host_labels", {}).values()]:
        add(text)
    # Most used first, so a tie between two corrections goes to the commoner word; each in its commonest spelling.
    ordered = sorted(counts, key=lambda w: (-counts[w], w))
    words = [max(sorted(spellings[w]), key=lambda s: spellings[w][s]) for w in ordered]
    return {"words": words, "chips": dict(sorted(chips.items())), "vendors": dict(sorted(vendors.items()))}
