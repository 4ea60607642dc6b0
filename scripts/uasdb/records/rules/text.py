"""Text the site renders: no invisible characters that reorder, split or hide it, line breaks only where text is prose."""
import unicodedata

from ...probe.common import INVISIBLE as _SHARED_INVISIBLE
from ..problems import Finding
from . import rule

# The one text-safety set (controls, format characters, separators, fillers, tags, noncharacters), shared with the
# issue bot (issue.py) and the probe's output (probe/common.py, where it is defined and explained). No field needs
# an exception today: the real data holds none of these.
INVISIBLE = _SHARED_INVISIBLE
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
      kinds=("adapter", "chipset", "distribution"),
      example='name: invisible character U+202E RIGHT-TO-LEFT OVERRIDE at position 9 — delete it (retype the text if you pasted it)')
def text_safe(record, ctx):
    # (Values the schema refused as too long never reach a rule: database._without_too_long.)
    for path, text in _strings(record.data):
        found = INVISIBLE.search(text)
        if found:
            yield Finding(path, f"invisible character {character_name(found.group(0))} at position {found.start() + 1}",
                          "delete it (retype the text if you pasted it); it can hide text or change how the text reads")
            continue
        field = next((p for p in reversed(path) if isinstance(p, str)), "")
        if text and not text.strip():
            yield Finding(path, "the text is only blanks", "write the value, or remove the field if it is unknown")
        elif "\n" in text.rstrip("\n") and field not in MULTI_LINE:
            yield Finding(path, "a line break inside a one-line field",
                          "write it on one line; longer explanations go in `notes`")
        elif "\t" in text and field not in MULTI_LINE:
            yield Finding(path, "a tab character inside the text", "replace it with a space")
