"""Free text is plain Markdown: no raw HTML, links only to https pages."""
import re

from ..problems import Finding
from . import rule
from .links import url_problem

# The start of an HTML tag (`<a`, `</div`) or comment; `html_tag` finds where the tag ends. A single pattern
# (`<a(\s[^>]*)?>`) read on from every `<a ` to the end of the text: 16,000 of them took 44 s.
TAG_START = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*|<!--")
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)")
# A CommonMark autolink: a scheme of 2 to 32 characters, a colon, then anything but blanks, controls, `<` and `>`
# (without `<` in that class, each `<a:` was read on to the end of the text: 16,000 of them took 39 s).
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\x00-\x20]*)>")
# "[label]: target", a reference-style link definition, as CommonMark reads one: at the start of a line, also
# inside a block quote or a list item (`> `, `- `, `1. `); the label may hold backslash-escaped brackets and run
# over lines (never a blank one); the target may sit on the next line, bare or in <angle brackets>.
LINK_DEFINITION = re.compile(r"^(?:[ \t]*(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t\n])))*[ \t]*"
                             r"\[(?:\\.|[^\\\[\]\n]|\n(?![ \t]*\n))+\]:[ \t]*(?:\n[ \t]*)?(?:<([^<>\n]*)>|(\S+))", re.M)
# A link within the site: a path from its root (never `//host` or `/\host`, which browsers take for another site).
SITE_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9._~%/-]*(?:[?#][A-Za-z0-9._~%/=&-]*)?|#[A-Za-z0-9._-]*")
# Hugo shortcodes ({{< … >}}, {{% … %}}) and template actions would run when the site renders the text.
TEMPLATE_DELIMITER = re.compile(r"\{\{[<%/-]|\{\{\s*[.$]")


def html_tag(text: str):
    """The first raw HTML tag or comment in `text` (as text, or None): a tag name right after `<` or `</`, then
    `>` or `/>`, or a blank and anything up to the next `>`. One pass: the next `>` is looked for once for all
    the tag starts before it."""
    next_close = -1
    for start in TAG_START.finditer(text):
        end = start.end()
        if start.group(0) == "<!--":
            return start.group(0)
        rest = text[end:end + 2]
        if rest.startswith(">") or rest == "/>":
            return text[start.start():end + rest.index(">") + 1]
        if rest[:1].isspace():
            if next_close < end:
                next_close = text.find(">", end)
                if next_close == -1:
                    return None  # no `>` after this start, so none after any later one either
            return text[start.start():next_close + 1]
    return None


def _texts(record):
    for key in ("notes", "chipset_note", "kernel_behaviour", "firmware_notes"):
        if isinstance(record.data.get(key), str):
            yield (key,), record.data[key]
    for index, report in enumerate(record.data.get("reports", [])):
        if isinstance(report.get("notes"), str):
            yield ("reports", index, "notes"), report["notes"]
    for index, firmware in enumerate(record.data.get("firmware", [])):
        for key in ("notes", "how_to_update"):
            if isinstance(firmware.get(key), str):
                yield ("firmware", index, key), firmware[key]


@rule("markdown-safe", "notes contain no raw HTML and link only to https pages", kinds=("adapter", "chipset"),
      example='raw HTML `<img src=x onerror=alert(1)>` in text — write plain Markdown')
def markdown_safe(record, ctx):
    for field, text in _texts(record):
        tag = html_tag(AUTOLINK.sub("", text))
        if tag:
            yield Finding(field, f"raw HTML `{tag[:30]}` in text", "write plain Markdown; put code in `backticks`")
        delimiter = TEMPLATE_DELIMITER.search(text)
        if delimiter:
            yield Finding(field, f"`{delimiter.group(0)}` starts a Hugo shortcode or template action",
                          "remove it; to show braces, put them in `backticks` with a space: `{ {`")
        definitions = [angled or bare for angled, bare in LINK_DEFINITION.findall(text)]
        for target in dict.fromkeys(LINK_TARGET.findall(text) + AUTOLINK.findall(text) + definitions):
            if SITE_PATH.fullmatch(target):
                continue
            if not target.lower().startswith("https://"):
                yield Finding(field, f"link to `{target[:40]}` is not https", "link only to https:// pages")
                continue
            found = url_problem(target)
            if found:
                yield Finding(field, f"link: {found[0]}", found[1])
