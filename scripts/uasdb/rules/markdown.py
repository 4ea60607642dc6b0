"""Free text is plain Markdown: no raw HTML, links only to https pages."""
import re

from ..problems import Finding
from . import rule

HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(\s[^>]*)?/?>|<!--")
LINK_TARGET = re.compile(r"\]\(\s*<?([^)\s>]+)")
AUTOLINK = re.compile(r"<([A-Za-z][A-Za-z0-9+.-]*:[^>\s]*)>")
# "[label]: target" on a line of its own: a reference-style link definition.
LINK_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:[ \t]*<?([^\s>]+)", re.M)
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
        for target in LINK_TARGET.findall(text) + AUTOLINK.findall(text) + LINK_DEFINITION.findall(text):
            if not target.lower().startswith("https://") and not target.startswith(("/", "#")):
                yield Finding(field, f"link to `{target[:40]}` is not https", "link only to https:// pages")
