"""The site's search index, built from the export instead of from Hugo's pages, and only when its words changed.

Each indexed page (a product, a chipset, a what-to-buy page) gets a *twin*: a small HTML page made from the same
export files its template reads (the model under api/v1/, data/pages.json, data/names.json), holding exactly the
words of the page's indexed part (what the template marks `data-pagefind-body`, less `data-pagefind-ignore`) in the
same order, plus the page's search meta (title, type, verdict line, badges) and filters. Pagefind (the pinned
`pagefind` wheel) indexes the twins, written as a folder of small pages at their URLs, so it needs no rendered page
and runs beside Hugo. (Not through the wheel's Python API: its service client sleeps 0.1 s before reading each
reply, 32 s for the real site's 315 twins, where the command takes well under one.)
tests/site/test_site_search_twins.py proves each twin holds the same words as its rendered page's indexed part, for
the fixture site and the real one, so a template that adds indexed text the twin lacks fails there.

The index is written to a cache folder (`.cache/uasdb/search/pagefind/`, from the twins in `twins/` there) beside
the digest of every twin and the Pagefind version it was built with (`twins.sha256`); a build whose digest is the
stored one keeps that index and runs no Pagefind. `install` puts the index into the built site (public/pagefind/)
after Hugo, which cleans its destination.

  python -m uasdb.publish.search_index build --export site/data/generated [--cache DIR] [--public public]
  python -m uasdb.publish.search_index install --public public [--cache DIR]
"""
from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

# Search results name what kind of page they are (search.js shows it beside the title).
TYPE_ADAPTER = "Adapter"
TYPE_CHIPSET = "Chipset"
TYPE_BUY = "What to buy"
# How Pagefind is asked to index the twins: every twin is English, and the whole twin is its indexed part.
PAGEFIND_OPTIONS = ("--force-language", "en", "--silent")
DIGEST_FILE = "twins.sha256"
INDEX_DIR = "pagefind"
TWINS_DIR = "twins"


@dataclass(frozen=True)
class Twin:
    """One indexed page: its URL and the HTML Pagefind indexes for it."""
    url: str
    html: str


def twins(export: Path) -> list[Twin]:
    """Every indexed page's twin, from an export folder (`uasdb export --out EXPORT`), in URL order."""
    if not (export / "data" / "pages.json").is_file():
        raise FileNotFoundError(f"{export}: no export here (no data/pages.json); run `uasdb export --out {export}` first")
    pages = _read(export / "data" / "pages.json")
    names = _read(export / "data" / "names.json")
    found = [adapter_twin(_model(export, p["model"]), names) for p in pages["adapters"]]
    found += [chipset_twin(_model(export, p["model"]), p["title"]) for p in pages["chipsets"]]
    found += [buy_twin(p) for p in pages["buy"]]
    return sorted(found, key=lambda t: t.url)


def adapter_twin(a: dict[str, Any], names: dict[str, str]) -> Twin:
    """A product page's twin (layouts/adapters/page.html): its name, facts, notes, USB IDs, firmware and what
    distributions already set for it."""
    p = a["page"]
    facts: list[str] = [a.get("vendor") or "", a.get("model") or "", a["kind"].replace("-", " "), a["drive_label"],
                        a.get("usb_generation") or "", a.get("usb_connector") or ""]
    chip = p.get("chipset")
    facts.append(f"{chip['name']} ({chip['maker']})" if chip else "")
    facts.append(a.get("chipset_note") or "")
    codes = a.get("product_codes") or {}
    if codes:
        facts += [codes.get("mpn") or "", ", ".join(x["asin"] for x in p.get("asins") or []),
                  ", ".join(codes.get("ean") or [])]
    facts += [a.get("manufacturer_url") or "", ", ".join(names[i] for i in a.get("may_be_same_as") or [])]
    body = [_p(" · ".join(f for f in facts if f)), markdown_text(a.get("notes"))]
    for u in p.get("usb_ids") or []:
        bcd = u.get("bcd_device")
        body.append(_p(u["key"], f"{bcd['min']}–{bcd['max']}" if bcd else "", _quoted(u.get("manufacturer_string")),
                       _quoted(u.get("product_string")), " · ".join(u.get("also") or [])))
    for f in a.get("firmware") or []:
        body.append(_p(str(f["version"]), f"({f['date']})" if f.get("date") else "", str(f.get("bcd_device") or ""),
                       ", ".join(f.get("changes") or [])))
        body.append(markdown_text(f.get("notes")))
        body.append(markdown_text(f.get("how_to_update")))
    for d in a.get("distributions") or []:
        body.append(_p(d["sentence"], d.get("reason") or "", d.get("change") or ""))
    meta = {"type": TYPE_ADAPTER, "verdict": a["summary"], "badges": p["search"]["badges"]}
    filters = [(f["key"], f["value"]) for f in p["search"]["filters"]]
    return Twin(f"/adapters/{a['id']}/", _page(a["name"], meta, filters, body))


def chipset_twin(c: dict[str, Any], title: str) -> Twin:
    """A chipset page's twin (layouts/chipsets/page.html): name and maker (the page's title), summary, facts and
    its Markdown texts."""
    # Each fact with its label as the page's list gives it, so an excerpt reads "UAS yes · SMART sat", not "yes · sat".
    ids = ", ".join(f"{u['vid']}:{u['pid']}" for u in c.get("usb_ids") or [])
    facts = [f"Maker {c['maker']}", f"Drive side {c['drive_label']}",
             f"USB {c['usb_generation']}" if c.get("usb_generation") else "", f"UAS {c['uas_label']}",
             f"SMART {c['smart']}" if c.get("smart") else "", f"USB IDs {ids}".rstrip()]
    body = [_p(c["page"]["summary"]), _p(" · ".join(f for f in facts if f))]
    body += [markdown_text(c.get(k)) for k in ("kernel_behaviour", "firmware_notes", "notes")]
    return Twin(f"/chipsets/{c['id']}/", _page(title, {"type": TYPE_CHIPSET, "verdict": c["page"]["summary"]}, [], body))


def buy_twin(page: dict[str, Any]) -> Twin:
    """A what-to-buy page's twin (layouts/buy/page.html): its title, which is what its page gives search."""
    return Twin(f"/buy/{page['slug']}/", _page(page["title"], {"type": TYPE_BUY}, [], []))


# Markdown as goldmark renders it through the site's hooks (layouts/_markup/), reduced to its text: a link shows
# its text, never its target; an image its alt text (the hook's "image:" is not indexed); raw HTML tags are dropped (unsafe: false), text between them
# stays; list and heading markers, emphasis and code marks are not words.
_IMAGE = re.compile(r"!\[([^\[\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\[([^\[\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^<>\s]*)>")
# Raw HTML as CommonMark reads it (an open or closing tag with well-formed attributes, a comment): `<img src=x
# onerror=a=1>` is not a tag, and its page shows it as text. Every part stops at the next `<` (no tag, attribute
# value or comment here holds one), so each try ends where the next begins: linear time on any text.
_ATTRIBUTE = r"""(?:[ \t\n]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t\n]*=[ \t\n]*(?:[^\s"'=<>`]+|'[^'<]*'|"[^"<]*"))?)"""
_TAG = re.compile(rf"<[A-Za-z][A-Za-z0-9-]*{_ATTRIBUTE}*[ \t\n]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t\n]*>|<!--[^<]*?-->")
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+", re.M)


def markdown_text(text: str | None) -> str:
    """A record's Markdown text as the words its rendered page shows, as a twin paragraph ("" when none)."""
    if not text:
        return ""
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub(" ", text)
    text = _LIST_MARK.sub("", text)
    return _p(html.unescape(text))


def _p(*parts: str) -> str:
    """A paragraph of the twin (Pagefind ends each with a full stop in the text excerpts are cut from)."""
    text = " ".join(p for p in parts if p)
    return f"<p>{html.escape(text, quote=False)}</p>" if text else ""


def _quoted(text: str | None) -> str:
    return f"“{text}”" if text else ""


def _page(title: str, meta: dict[str, str], filters: Iterable[tuple[str, str]], body: Iterable[str]) -> str:
    """A twin page: the title as the result's title, meta and filters in a part Pagefind reads but does not index
    as text (so excerpts are never cut from "fair|Pi 4: Works"), then the indexed text."""
    e = html.escape
    hidden = "".join(f'<span data-pagefind-meta="{e(k)}">{e(v)}</span>' for k, v in meta.items() if v)
    hidden += "".join(f'<span data-pagefind-filter="{e(k)}">{e(v)}</span>' for k, v in filters)
    return (f'<html lang="en"><body><h1 data-pagefind-meta="title">{e(title, quote=False)}</h1>'
            f"<div hidden data-pagefind-ignore>{hidden}</div>{''.join(b for b in body if b)}</body></html>")


def _read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _model(export: Path, model: str) -> dict[str, Any]:
    """A page's model as its template reads it (_partials/data/model.html): the API file's `result`."""
    return _read(export / model)["result"]


def pagefind_version() -> str:
    return metadata.version("pagefind")


def digest(found: Sequence[Twin]) -> str:
    """What the index is made from: every twin, the Pagefind version and how it is asked to index."""
    h = hashlib.sha256(f"pagefind {pagefind_version()}\n{' '.join(PAGEFIND_OPTIONS)}\n".encode())
    for t in found:
        h.update(f"{t.url}\0{t.html}\0".encode())
    return h.hexdigest()


def default_cache() -> Path:
    from ..records.cache import cache_root
    return cache_root() / "search"


def cache_believed() -> bool:
    """Whether a stored digest may spare a Pagefind run: not when UASDB_CACHE=off (records/cache.py)."""
    from ..records.cache import enabled
    return enabled()


def build(export: Path, cache: Path, force: bool = False) -> bool:
    """Index the export's twins into `cache`/pagefind unless the stored digest says they are the index there.
    Returns whether Pagefind ran."""
    found = twins(export)
    want = digest(found)
    stamp, index = cache / DIGEST_FILE, cache / INDEX_DIR
    if not force and index.is_dir() and stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == want:
        return False
    cache.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)  # the stamp is written last: a build cut short is redone, never believed
    fresh = cache / (INDEX_DIR + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    _index(found, fresh, cache / TWINS_DIR)
    old = cache / (INDEX_DIR + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if index.is_dir():
        index.rename(old)
    fresh.rename(index)
    stamp.write_text(want + "\n", encoding="utf-8")
    shutil.rmtree(old, ignore_errors=True)
    return True


def _index(found: Sequence[Twin], out: Path, folder: Path) -> None:
    """Write the twins as pages at their URLs (/adapters/x/ -> adapters/x/index.html) into `folder`, which keeps the
    last build's twins (only a changed twin is written, a page gone is removed), and index that folder into `out`."""
    want = {Path(t.url.strip("/"), "index.html"): t.html for t in found}
    if folder.is_dir():
        for page in folder.rglob("index.html"):
            if page.relative_to(folder) not in want:
                page.unlink()
    for path, text in want.items():
        page = folder / path
        if not page.is_file() or page.read_text(encoding="utf-8") != text:
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(folder), "--output-path", str(out.resolve()),
                           *PAGEFIND_OPTIONS], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pagefind failed ({done.returncode}): {done.stdout}{done.stderr}")


def install(cache: Path, public: Path) -> None:
    """Put the index in `cache` into the built site as public/pagefind/."""
    index = cache / INDEX_DIR
    if not (index / "pagefind-entry.json").is_file():
        raise FileNotFoundError(f"{index}: no search index built here; run `python -m uasdb.publish.search_index build`")
    target = public / INDEX_DIR
    # Made beside the cache and renamed into place, so a server reading `public` (make serve's watcher installs
    # into the folder Hugo's server mounts) never sees half an index; copied in place where a rename cannot go.
    staging, old = cache / (INDEX_DIR + ".install"), cache / (INDEX_DIR + ".replaced")
    for folder in (staging, old):
        shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(index, staging, copy_function=_link_or_copy)
    try:
        if target.exists():
            target.rename(old)
        staging.rename(target)
    except OSError:
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(index, target, copy_function=_link_or_copy)
    for folder in (staging, old):
        shutil.rmtree(folder, ignore_errors=True)


def _link_or_copy(source: str, target: str) -> None:
    """A hard link where the cache and the site share a file system (the index's files are only ever replaced whole,
    never written in place), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.publish.search_index", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="index the export's twins (skipped when they are what the cached index holds)")
    b.add_argument("--export", type=Path, required=True, help="the export folder (uasdb export --out)")
    b.add_argument("--force", action="store_true", help="run Pagefind even when the twins did not change "
                   "(as UASDB_CACHE=off does)")
    i = sub.add_parser("install", help="copy the cached index into a built site")
    for p in (b, i):
        p.add_argument("--cache", type=Path, default=None, help="where the index and its digest live "
                       "(default .cache/uasdb/search, or UASDB_CACHE_DIR/search)")
        p.add_argument("--public", type=Path, required=p is i, help="the built site to copy the index into")
    args = parser.parse_args(argv)
    cache = args.cache or default_cache()
    try:
        if args.command == "build":
            ran = build(args.export, cache, force=args.force or not cache_believed())
            print(f"search index: {'built' if ran else 'unchanged, kept'} ({cache / INDEX_DIR})", file=sys.stderr)
        if args.public is not None:
            install(cache, args.public)
    except (OSError, KeyError, ValueError, RuntimeError) as err:
        print(f"search index: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
