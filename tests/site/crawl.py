"""A small link checker: follows every internal href/src from the home page and the sitemap over HTTP."""
from __future__ import annotations

import html.parser
import re
import urllib.error
import urllib.request
from urllib.parse import urldefrag, urljoin, urlparse


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            # The canonical link names the published site; every other link, alternates included, is followed.
            if attrs.get(name) and not (tag == "link" and attrs.get("rel") == "canonical"):
                self.links.append(attrs[name])
        if tag == "meta" and (attrs.get("http-equiv") or "").lower() == "refresh":
            target = re.search(r"url=(.+)$", attrs.get("content", ""), re.I)
            if target:
                self.links.append(target.group(1).strip())


def crawl(base: str, limit: int = 5000) -> tuple[dict[str, int], list[str], set[str]]:
    """Return (status per internal URL, list of 'page -> broken link' lines, pages visited)."""
    origin = urlparse(base).netloc
    start = [base + "/"]
    sitemap = urllib.request.urlopen(base + "/sitemap.xml").read().decode()
    start += re.findall(r"<loc>([^<]+)</loc>", sitemap)
    status: dict[str, int] = {}
    ids: dict[str, set[str]] = {}
    broken: list[str] = []
    fragments: list[tuple[str, str, str]] = []
    queue = [(url, "sitemap") for url in start]
    while queue and len(status) < limit:
        url, referrer = queue.pop()
        url, fragment = urldefrag(url)
        if fragment:
            fragments.append((referrer, url, fragment))
        if url in status:
            continue
        try:
            response = urllib.request.urlopen(url)
            status[url] = response.status
            body = response.read()
            kind = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status[url] = error.code
            broken.append(f"{referrer} -> {url} ({error.code})")
            continue
        if "text/html" not in kind:
            continue
        parser = _Links()
        parser.feed(body.decode("utf-8"))
        ids[url] = parser.ids
        for link in parser.links:
            target = urljoin(url, link)
            if urlparse(target).netloc == origin and urlparse(target).scheme in ("http", "https"):
                queue.append((target, url))
    for referrer, url, fragment in fragments:
        if url in ids and fragment not in ids[url]:
            broken.append(f"{referrer} -> {url}#{fragment} (no element with that id)")
    return status, broken, set(ids)


def one_page_per_layout(pages) -> list[str]:
    """The first page (in sorted order) of each layout: pages whose paths have the same depth under the same top
    section share a template (/adapters/<id>/, /usb/<vid>/<pid>/), so rendering one of each in a browser is enough
    once the crawl has fetched them all over HTTP."""
    chosen: dict[tuple[str, int], str] = {}
    for url in sorted(pages):
        parts = [part for part in urlparse(url).path.split("/") if part]
        key = (parts[0] if parts else "", len(parts))
        chosen.setdefault(key, url)
    return sorted(chosen.values())
