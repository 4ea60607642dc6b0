"""Search is built from twins (scripts/uasdb/publish/search_index.py): Pagefind indexes a small page made from the
export for each adapter, chipset and what-to-buy page, not the page Hugo rendered. A result is only right if the twin
holds the words the reader finds on the page, so every rendered page's indexed part (its data-pagefind-body
elements, less what data-pagefind-ignore marks) is compared with its twin, word for word, on the fixture site and on
the real one: a template that adds indexed text the twin lacks, or a twin that adds words the page does not show,
fails here. A result's title and verdict line must be the page's heading and verdict line."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from uasdb.publish import search_index

pytestmark = pytest.mark.browser

# The text of an HTML page's indexed part as Pagefind reads a page: only what lies inside [data-pagefind-body] when
# the page has any (else the body), never what lies inside [data-pagefind-ignore]; block elements are word breaks
# (a <dt> next to a <dd>), inline ones are not. Chromium's own parser reads the HTML (Hugo leaves optional end tags
# out), through DOMParser, so nothing is rendered or run.
INDEXED_TEXT = r"""async ([urls, twins]) => {
  const INLINE = new Set(['A', 'ABBR', 'B', 'CODE', 'EM', 'I', 'KBD', 'MARK', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME']);
  const squeeze = (node) => (node ? node.textContent.replace(/\s+/g, ' ').trim() : null);
  const shown = {};
  const text = (source, url) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    // What a result shows beside its title and what the page shows: the heading and the verdict line.
    if (url) shown[url] = { title: squeeze(doc.querySelector('h1')), summary: squeeze(doc.querySelector('p.summary')) };
    for (const gone of doc.querySelectorAll('[data-pagefind-ignore], script, style, template')) gone.remove();
    const roots = doc.querySelectorAll('[data-pagefind-body]');
    const parts = [];
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      const block = !INLINE.has(node.nodeName);
      if (block) parts.push(' ');
      for (const child of node.childNodes) walk(child);
      if (block) parts.push(' ');
    };
    for (const root of roots.length ? roots : [doc.body]) walk(root);
    return parts.join('');
  };
  const pages = {};
  for (const url of urls) pages[url] = text(await (await fetch(url)).text(), url);
  const meta = twins.map((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    return Object.fromEntries([...doc.querySelectorAll('[data-pagefind-meta]')].map((m) => [m.dataset.pagefindMeta, squeeze(m)]));
  });
  return { pages, shown, twins: twins.map((t) => text(t)), meta };
}"""


def words(text: str) -> Counter:
    """Words as a search matches them: letters and digits, case folded; punctuation and spacing are not words."""
    return Counter(re.findall(r"[^\W_]+", text.casefold()))


def indexed_pages(public) -> list[str]:
    """The URL of every built page with an indexed part."""
    return sorted("/" + p.parent.relative_to(public).as_posix() + "/" for p in public.rglob("index.html")
                  if "data-pagefind-body" in p.read_text(encoding="utf-8"))


def check_twins(page, built) -> int:
    twins = search_index.twins(built.public.parent / "site" / "data" / "generated")
    urls = indexed_pages(built.public)
    assert urls == [t.url for t in twins], "every page with an indexed part has a twin, and no twin lacks its page"
    page.goto("/")
    got = page.evaluate(INDEXED_TEXT, [urls, [t.html for t in twins]])
    differ = []
    for twin, twin_text, meta in zip(twins, got["twins"], got["meta"], strict=True):
        on_page, in_twin = words(got["pages"][twin.url]), words(twin_text)
        if on_page != in_twin:
            differ.append(f"{twin.url}: on the page only {dict(on_page - in_twin)}, in the twin only {dict(in_twin - on_page)}")
        # The result's title is the page's heading; its verdict line is the one the page gives (after the list badge).
        shown = got["shown"][twin.url]
        if meta["title"] != shown["title"]:
            differ.append(f"{twin.url}: result titled {meta['title']!r}, page headed {shown['title']!r}")
        if (meta.get("verdict") is None) != (shown["summary"] is None) or not (shown["summary"] or "").endswith(meta.get("verdict") or ""):
            differ.append(f"{twin.url}: result verdict {meta.get('verdict')!r}, page says {shown['summary']!r}")
    assert not differ, "\n".join(differ[:20])
    return len(twins)


def test_every_twin_holds_the_words_of_its_pages_indexed_part(watched_page, site):
    assert check_twins(watched_page, site) > 10
    assert watched_page.problems == []


def test_every_twin_holds_the_words_of_its_pages_indexed_part_on_the_real_site(real_page, real_site):
    assert check_twins(real_page, real_site) > 300
    assert real_page.problems == []


def test_the_check_fails_on_a_page_word_the_twin_lacks(watched_page, site):
    """The comparison itself: a word a template added to the indexed part, and one it added inside an ignored
    part, read as they would be."""
    twin = next(t for t in search_index.twins(site.public.parent / "site" / "data" / "generated")
                if t.url.startswith("/adapters/"))
    watched_page.goto("/")
    added = twin.html.replace("</body>", "<p>Zebracode</p><p data-pagefind-ignore>Yakcode</p></body>")
    got = watched_page.evaluate(INDEXED_TEXT, [[], [twin.html, added]])
    assert got["meta"][0]["type"] == "Adapter" and got["meta"][0]["title"]
    assert words(got["twins"][1]) - words(got["twins"][0]) == Counter({"zebracode": 1})
