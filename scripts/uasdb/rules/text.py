"""Text the site renders: no invisible characters that reorder or split it, line breaks only where text is prose."""
import re

from ..problems import Finding
from . import rule

# Bidirectional controls (they can make text read differently from what it is: "Trojan Source"), line and
# paragraph separators and NEL (some YAML readers and JavaScript treat them as line breaks), the byte-order mark
# and the remaining C0/C1 controls. Tab and newline are handled separately.
INVISIBLE = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029\u0085\ufeff"
                       "\x00-\x08\x0b-\x1f\x7f\x80-\x84\x86-\x9f]")
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


def _name(character: str) -> str:
    return f"U+{ord(character):04X}"


@rule("text-safe", "text has no bidirectional controls, line separators or control characters; "
      "line breaks only in notes and evidence", kinds=("adapter", "chipset"),
      example='name: invisible character U+202E at position 9 — delete it (retype the text if you pasted it)')
def text_safe(record, ctx):
    for path, text in _strings(record.data):
        found = INVISIBLE.search(text)
        if found:
            yield Finding(path, f"invisible character {_name(found.group(0))} at position {found.start() + 1}",
                          "delete it (retype the text if you pasted it); it can change how the text reads or splits lines")
            continue
        field = next((p for p in reversed(path) if isinstance(p, str)), "")
        if "\n" in text.rstrip("\n") and field not in MULTI_LINE:
            yield Finding(path, "a line break inside a one-line field",
                          "write it on one line; longer explanations go in `notes`")
        elif "\t" in text and field not in MULTI_LINE:
            yield Finding(path, "a tab character inside the text", "replace it with a space")
