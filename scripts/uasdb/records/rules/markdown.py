"""Free text is plain Markdown: no raw HTML, links only to https pages."""
import re

from ..problems import Finding
from . import rule
from .links import url_problem

HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(\s[^>]*)?/?>|<!--")
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)")
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]*:[^>\s]*)>")
# "[label]: target", a reference-style link definition, as CommonMark reads one: at the start of a line, also
# inside a block quote or a list item (`> `, `- `, `1. `); the label may hold backslash-escaped brackets and run
# over lines (never a blank one); the target may sit on the next line, bare or in <angle brackets>.
LINK_DEFINITION = re.compile(r"^(?:[ \t]*(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t\n])))*[ \t]*"
                             r"\[(?:\\.|[^\\\[\]\n]|\n(?![ \t]*\n))+\]:[ \t]*(?:\n[ \t]*)?(?:<([^<>\n]*)>|(\S+))", re.M)
# A link within the site: a path from its root (never `//host` or `/\host`, which browsers take for another site).
SITE_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9._~%/-]*(?:[?#][A-Za-z0-9._~%/=&-]*)?|#[A-Za-z0-9._-]*")
# Hugo shortcodes ({{< … >}}, {{% … %}}) and template actions would run when the site renders the text.
TEMPLATE_DELIMITER = re.compile(r"\{\{[<%/-]|\{\{\s*[.$]")


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
        tag = HTML_TAG.search(AUTOLINK.sub("", text))
        if tag:
            yield Finding(field, f"raw HTML `{tag.group(0)[:30]}` in text", "write plain Markdown; put code in `backticks`")
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
