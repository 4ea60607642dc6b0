"""Links: one check for every web address the tools accept, in records (each field whose schema pattern asks for
https, and links in notes) and in the issue bot (the source link, an adapter page address)."""
import re
from collections.abc import Iterable

from ..problems import Finding
from ..schema import load_schema
from . import rule

# A host name as browsers and Python read it alike: ASCII labels of letters, digits and inner hyphens.
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")


def url_problem(url: str, hosts: Iterable[str] = ()) -> tuple[str, str] | None:
    """What is wrong with `url` as a link a reader will follow, as (message, fix), or None when it is fine:
    https only; no user name before the host (`https://github.com@evil.example/` goes to evil.example); no
    backslash (browsers read it as `/`, Python does not, so the two disagree on the host); an ASCII host, so
    look-alike letters cannot pass for another site; and, when `hosts` is given, one of those hosts (with its
    port, if it has one)."""
    if not url.startswith("https://"):
        return f"`{url[:60]}` is not an https link", "give the page's https:// address"
    if "\\" in url:
        return (f"`{url[:60]}` holds a backslash, which browsers read as `/`",
                "write the address with forward slashes only, as the browser's address bar shows it")
    authority = re.split(r"[/?#]", url[len("https://"):], maxsplit=1)[0]
    if "@" in authority:
        user, _, real = authority.rpartition("@")
        return (f"`{url[:60]}` leads to `{real[:40]}`: `{user[:40]}@` before it is a user name, not the site",
                "give the page's own address, as the browser's address bar shows it")
    host, _, port = authority.partition(":")
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels) \
            or (port and not re.fullmatch(r"[0-9]{1,5}", port)):
        return (f"`{url[:60]}` has no plain host name (`{authority[:40]}`)",
                "give an address whose host is ASCII letters, digits, dots and hyphens (xn-- form for other scripts)")
    wanted = [h.lower() for h in hosts]
    if wanted and authority.lower() not in wanted:
        return (f"`{url[:60]}` is on `{authority[:40]}`, not on {' or '.join(f'`{h}`' for h in wanted)}",
                f"give the address of the page on {wanted[0]}")
    return None


def _link_fields(value, schema, path=()):
    """(path, text) of each string whose schema pattern asks for an https link."""
    if isinstance(value, str) and str(schema.get("pattern", "")).startswith("^https://"):
        yield path, value
    elif isinstance(value, dict):
        properties = schema.get("properties", {})
        for key, child in value.items():
            if key in properties:
                yield from _link_fields(child, properties[key], path + (key,))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, child in enumerate(value):
            yield from _link_fields(child, schema["items"], path + (index,))


# What the schema already refuses (not https, or blanks), so it is reported once, by the schema.
_SCHEMA_LINK = re.compile(r"https://\S+")


@rule("url-safe", "links are https addresses that lead where they read: no user name before the host, no backslash, "
      "an ASCII host", kinds=("adapter", "chipset", "distribution"),
      example="reports[0].source.url: `https://github.com@evil.example/x` leads to `evil.example/x`: `github.com@` "
              "before it is a user name, not the site — give the page's own address")
def url_safe(record, ctx):
    for path, url in _link_fields(record.data, load_schema(record.kind)):
        found = url_problem(url) if _SCHEMA_LINK.fullmatch(url) else None
        if found:
            yield Finding(path, *found)
