"""Text the site renders: no invisible characters that reorder, split or hide it, line breaks only where text is prose."""
import re
import unicodedata

from ..problems import Finding
from . import rule

# Every character a reader cannot see but a program still reads, in one set:
# - the C0 and C1 controls and DEL (tab and newline are judged separately, by field);
# - Unicode's format characters (category Cf): bidirectional controls that make text read differently from what it
#   is ("Trojan Source"), zero-width space, joiners and non-joiners, word joiner, soft hyphen, the byte-order mark,
#   invisible operators, and the tag characters that spell hidden text;
# - line and paragraph separators (U+2028, U+2029; NEL U+0085 is a C1 control), which some YAML readers and
#   JavaScript take for line breaks;
# - the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), letters that draw as blanks, and the whole tag block
#   (U+E0000-U+E007F), its unassigned code points included.
# One set for every field of every record and every answer the issue bot reads (issue.py imports it). No field
# needs an exception today: the real data holds none of these. tests/rules/test_text.py checks the set against
# Python's Unicode tables, so a newer Unicode's format characters cannot slip through unnoticed.
INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160"
    "\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]")
# Fields whose text may run over several lines: prose and pasted command output.
MULTI_LINE = {"notes", "chipset_note", "how_to_update", "lsusb", "lsusb_t", "lsusb_v", "dmesg", "probe", "note"}


def _strings(value, path=()):
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _strings(child, path + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _strings(child, path + (index,))


def character_name(character: str) -> str:
    """`U+200B ZERO WIDTH SPACE`: the code point, and the name when Unicode gives one."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" {name}" if name else "")


@rule("text-safe", "text has no invisible characters (controls, Unicode format characters such as zero-width or "
      "bidirectional ones, fillers, tags, line separators); line breaks only in notes and evidence",
      kinds=("adapter", "chipset"),
      example='name: invisible character U+202E RIGHT-TO-LEFT OVERRIDE at position 9 — delete it (retype the text if you pasted it)')
def text_safe(record, ctx):
    for path, text in _strings(record.data):
        found = INVISIBLE.search(text)
        if found:
            yield Finding(path, f"invisible character {character_name(found.group(0))} at position {found.start() + 1}",
                          "delete it (retype the text if you pasted it); it can hide text or change how the text reads")
            continue
        field = next((p for p in reversed(path) if isinstance(p, str)), "")
        if "\n" in text.rstrip("\n") and field not in MULTI_LINE:
            yield Finding(path, "a line break inside a one-line field",
                          "write it on one line; longer explanations go in `notes`")
        elif "\t" in text and field not in MULTI_LINE:
            yield Finding(path, "a tab character inside the text", "replace it with a space")
