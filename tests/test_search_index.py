"""The search index is built from the export's twins (publish/search_index.py), and Pagefind runs only when the words
it indexes changed: a build after an edit that changes no indexed word keeps the index it has, one after an edit
that does rebuilds it. (That each twin holds its page's words: tests/site/test_site_search_twins.py.)"""
from __future__ import annotations

import gzip
import html
import json
import shutil
from pathlib import Path

import pytest

from uasdb.paths import REPO_ROOT
from uasdb.publish import search_index
from uasdb.publish.export import export_tree

SITE_DATA = REPO_ROOT / "tests" / "fixtures" / "site-data"


def indexed_content(cache: Path) -> dict[str, str]:
    """Each indexed URL's text, as the written index holds it."""
    pages = {}
    for fragment in (cache / "pagefind" / "fragment").glob("*.pf_fragment"):
        page = json.loads(gzip.decompress(fragment.read_bytes()).removeprefix(b"pagefind_dcd"))
        pages[page["url"]] = page["content"]
    return pages


def stamps(cache: Path) -> dict[str, int]:
    return {str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_pagefind_runs_only_when_indexed_words_change(tmp_path, monkeypatch):
    data, out, cache = tmp_path / "data", tmp_path / "out", tmp_path / "cache"
    monkeypatch.chdir(tmp_path)  # so a stray ./pagefind would show
    shutil.copytree(SITE_DATA, data)
    record = data / "adapters" / "fixture-nice-sata.yaml"

    def export_and_index() -> bool:
        assert export_tree(out, [data]) is not None
        return search_index.build(out, cache)

    assert export_and_index() is True
    assert "/adapters/fixture-nice-sata/" in indexed_content(cache)
    assert not (tmp_path / "pagefind").exists(), "the index is written to the cache only"
    before = stamps(cache)
    assert export_and_index() is False, "nothing changed: Pagefind must not run"
    assert stamps(cache) == before

    # A report's note is on the page but outside its indexed part: the twins are the same, the index is kept.
    text = record.read_text(encoding="utf-8")
    edited = text.replace("notes: Synthetic report for the site tests.", "notes: Synthetic report, reworded.")
    assert edited != text
    record.write_text(edited, encoding="utf-8")
    assert export_and_index() is False
    assert stamps(cache) == before

    # The product's own notes are indexed: the index is rebuilt and finds the new word.
    text = edited.replace("A synthetic enclosure that works everywhere.", "A synthetic Quokkabridge enclosure.")
    assert text != edited
    record.write_text(text, encoding="utf-8")
    assert export_and_index() is True
    assert "Quokkabridge" in indexed_content(cache)["/adapters/fixture-nice-sata/"]
    assert (cache / "twins.sha256").read_text(encoding="utf-8").strip() == search_index.digest(search_index.twins(out))

    # A product removed leaves the index with it (the twins folder kept from the last build holds no stale page).
    (data / "adapters" / "fixture-nvme.yaml").unlink()
    assert export_and_index() is True
    pages = indexed_content(cache)
    assert "/adapters/fixture-nvme/" not in pages and "/adapters/fixture-nice-sata/" in pages


def test_install_refuses_a_cache_without_an_index(tmp_path, capsys):
    assert search_index.main(["install", "--cache", str(tmp_path / "none"), "--public", str(tmp_path / "public")]) == 1
    assert "no search index built here" in capsys.readouterr().err


def shown(markdown: str) -> str:
    """markdown_text's paragraph as text."""
    out = search_index.markdown_text(markdown)
    assert out.startswith("<p>") and out.endswith("</p>")
    return html.unescape(out[3:-4])


def test_markdown_twins_hold_what_the_page_shows_not_link_targets_or_tags():
    """As goldmark renders record Markdown through the site's hooks: link text without its target (even one with
    parentheses), autolinks as their address, tags dropped but the text between them kept, something that is not a
    well-formed tag kept as text, list markers gone, an image as its alt text, entities decoded."""
    text = shown("See [the thread](https://example.org/a_(b)) or <https://example.org/z>.")
    assert text == "See the thread or https://example.org/z."
    assert shown("<b>bold</b> and <img src=x onerror=a=1>").split() == ["bold", "and", "<img", "src=x", "onerror=a=1>"]
    assert shown("- one\n- two\n1. three").split() == ["one", "two", "three"]
    assert shown("![a bare board](https://example.org/b.png) AT&amp;T") == "a bare board AT&T"
    assert search_index.markdown_text("") == "" and search_index.markdown_text(None) == ""


@pytest.mark.slow
def test_make_serves_watcher_puts_an_edits_words_in_the_served_index(tmp_path):
    """`make serve` runs the watcher with --search: after a clean export the index is rebuilt from it in the
    background and put in OUT/static/pagefind (where Hugo's server serves it), so an edit's words become searchable
    without restarting; saves made while Pagefind runs end in one index of the last export."""
    from uasdb.publish.watch import SearchRefresh, refresh
    data, out, cache = tmp_path / "data", tmp_path / "out", tmp_path / "cache"
    shutil.copytree(SITE_DATA, data)
    record = data / "adapters" / "fixture-nice-sata.yaml"
    served = out / "static"
    search = SearchRefresh(out, cache)
    assert refresh(out, [data]) == []
    search.request()
    search.wait()
    assert "/adapters/fixture-nice-sata/" in indexed_content(served)

    text = record.read_text(encoding="utf-8")
    for word in ("Wombatbridge", "Quokkabridge"):  # two saves in a row: the second comes while the first is indexed
        text = text.replace("A synthetic enclosure that works everywhere.", f"A synthetic {word} enclosure.").replace(
            "A synthetic Wombatbridge enclosure.", f"A synthetic {word} enclosure.")
        record.write_text(text, encoding="utf-8")
        assert refresh(out, [data]) == []
        search.request()
    assert search.running is not None, "the watcher must not wait for Pagefind"
    search.wait()
    page = indexed_content(served)["/adapters/fixture-nice-sata/"]
    assert "Quokkabridge" in page and "Wombatbridge" not in page
    assert not list(cache.glob("pagefind.*")), "no staging folder is left behind"
