"""text-safe: one set of invisible characters, refused in every field of every record."""
import sys
import unicodedata

import pytest

from helpers import adapter, rule_hits
from uasdb.records.rules.text import INVISIBLE

HIDDEN = [
    ("zero width space", "tor\u200bvalds"),
    ("zero width non-joiner", "tor\u200cvalds"),
    ("zero width joiner", "tor\u200dvalds"),
    ("word joiner", "tor\u2060valds"),
    ("soft hyphen", "tor\u00advalds"),
    ("hangul filler", "torvalds\u3164"),
    ("hangul choseong filler", "\u115ftorvalds"),
    ("halfwidth hangul filler", "torvalds\uffa0"),
    ("tag characters", "torvalds\U000e0068\U000e0069"),
    ("cancel tag", "torvalds\U000e007f"),
    ("byte-order mark inside", "tor\ufeffvalds"),
    ("right-to-left override", "tor\u202evalds"),
    ("escape", "tor\x1b[2Jvalds"),
]


@pytest.mark.parametrize("name, text", HIDDEN, ids=[h[0] for h in HIDDEN])
@pytest.mark.parametrize("field", ["name", "author", "notes", "evidence"])
def test_invisible_characters_are_refused_in_any_field(check_records, name, text, field):
    record = {"name": adapter(name=text), "notes": adapter(notes=text),
              "author": adapter(report={"source": {"url": "https://example.org/t/1", "author": text}}),
              "evidence": adapter(report={"evidence": {"dmesg": "usb 2-1: new\n" + text}})}[field]
    hits = rule_hits(check_records([record]), "text-safe")
    assert hits == [{"name": "name", "notes": "notes", "author": "reports[0].source.author",
                     "evidence": "reports[0].evidence.dmesg"}[field]]


@pytest.mark.parametrize("text", ["Ünïcödé ✓ — “quotes”", "non\u00a0breaking space", "日本語の名前", "emoji 🔌"])
def test_visible_text_in_any_script_passes(check_records, text):
    assert rule_hits(check_records([adapter(name=text)]), "text-safe") == []


def test_the_message_names_the_character():
    from uasdb.records.database import Record
    from uasdb.records.loader import Loaded
    from uasdb.records.rules.text import text_safe
    (finding,) = text_safe(Record("adapter", Loaded("x.yaml", data={"name": "tor\u200cvalds"})), None)
    assert finding.message == "invisible character U+200C ZERO WIDTH NON-JOINER at position 4"


def test_the_set_covers_every_format_character_python_knows():
    """Written out for speed and review; a newer Unicode's format (Cf) characters must be added to it."""
    missing = [f"U+{c:04X}" for c in range(sys.maxunicode + 1)
               if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp") and chr(c) not in "\t\n"
               and not INVISIBLE.match(chr(c))]
    assert missing == []
