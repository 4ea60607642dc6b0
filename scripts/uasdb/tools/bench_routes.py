"""`python -m uasdb.tools.bench_routes`: which way of handing one model per page to Hugo builds fastest, at a size.

Issue 27 asked to measure the two routes Hugo's docs offer for data-driven pages before keeping one. Each
variant builds the same N pages from the same N model files (about the size of an adapter's model) with the same
page template; only how a page reaches its model differs:
  data-params      the models in Hugo's data directory; the content adapter passes each to its page in params
  resource-params  the models as resources; the content adapter reads each and passes it in params
  resource-page    the models as resources; the content adapter passes only the file's path and the page's
                   template reads its model itself (what the site does: site/layouts/_partials/data/model.html)
It prints wall seconds and peak memory per variant, and each one's ratio to the fastest, from one run.
"""
from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from ..publish.sitebuild import hugo_binary
from .bench import Measure, run_measured

VARIANTS = ("data-params", "resource-params", "resource-page")

PAGE = """{{- $m := .Params.m -}}
{{- if not $m }}{{ $m = ((resources.Get .Params.model) | transform.Unmarshal).result }}{{ end -}}
<html><body><h1>{{ $m.name }}</h1><p>{{ $m.summary }}</p>
<table>{{ range $m.verdicts }}<tr><th>{{ .platform }}</th><td class="tone-{{ .tone }}">{{ .short }} {{ .basis_text }}</td></tr>{{ end }}</table>
{{ range $m.reports }}<div id="r{{ .n }}">{{ .date }} {{ .host }} {{ .notes }} <a href="{{ .url }}">source</a></div>{{ end }}
</body></html>
"""
LIST = "<html><body>{{ range .Pages }}<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a>{{ end }}</body></html>\n"
ADAPTERS = {
    "data-params": '{{- range $id, $f := hugo.Data.models }}{{ $.AddPage (dict "path" $id "title" $f.result.name '
                   '"params" (dict "m" $f.result)) }}{{ end -}}\n',
    "resource-params": '{{- range hugo.Data.index.pages }}{{ $m := ((resources.Get .model) | transform.Unmarshal).result }}'
                       '{{ $.AddPage (dict "path" .id "title" .title "params" (dict "m" $m)) }}{{ end -}}\n',
    "resource-page": '{{- range hugo.Data.index.pages }}{{ $.AddPage (dict "path" .id "title" .title '
                     '"params" (dict "model" .model)) }}{{ end -}}\n',
}


def model(n: int) -> dict[str, object]:
    """A model about the size and shape of an adapter page's (verdicts per platform, five reports)."""
    return {"id": f"a{n:05d}", "name": f"Adapter {n}", "summary": "On the naughty list: needs a quirk on Pi 4. " * 3,
            "verdicts": [{"platform": p, "short": "Works", "tone": "good", "basis_text": "2 reports · observed · 2020–2024"}
                         for p in ("pi4", "pi5", "pi3", "linux", "macos")],
            "reports": [{"n": r, "date": "2024-01-01", "host": "Raspberry Pi 4", "notes": "What the reporter saw. " * 20,
                         "url": "https://example.org/report"} for r in range(5)]}


def stage(work: Path, n: int) -> None:
    models = work / "models"
    models.mkdir(parents=True)
    pages = []
    for i in range(n):
        m = model(i)
        (models / f"{m['id']}.json").write_text(json.dumps({"result": m}), encoding="utf-8")
        pages.append({"id": m["id"], "title": m["name"], "model": f"models/{m['id']}.json"})
    (work / "index.json").write_text(json.dumps({"pages": pages}), encoding="utf-8")
    for variant in VARIANTS:
        site = work / variant
        (site / "content" / "adapters").mkdir(parents=True)
        (site / "layouts").mkdir()
        target = "data/models" if variant == "data-params" else "assets/models"
        (site / "hugo.yaml").write_text(
            "baseURL: https://example.org/\ndisableKinds: [taxonomy, term, rss, sitemap, robotsTXT]\nmodule:\n  mounts:\n"
            "    - {source: content, target: content}\n    - {source: layouts, target: layouts}\n"
            f"    - {{source: {models}, target: {target}}}\n    - {{source: {work / 'index.json'}, target: data/index.json}}\n",
            encoding="utf-8")
        (site / "layouts" / "page.html").write_text(PAGE, encoding="utf-8")
        (site / "layouts" / "list.html").write_text(LIST, encoding="utf-8")
        (site / "layouts" / "home.html").write_text(LIST, encoding="utf-8")
        (site / "content" / "adapters" / "_content.gotmpl").write_text(ADAPTERS[variant], encoding="utf-8")


def measure(n: int, work: Path) -> dict[str, Measure]:
    stage(work, n)
    return {variant: run_measured([str(hugo_binary()), "--quiet", "--source", str(work / variant), "--destination",
                                   str(work / f"{variant}-public")]) for variant in VARIANTS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m uasdb.tools.bench_routes", description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=10000, help="pages (and model files) to build (default 10000)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="uasdb-routes-"))
    try:
        results = measure(args.pages, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    fastest = min(m.seconds for m in results.values())
    print(f"{args.pages} pages, one model file each:")
    for variant, m in results.items():
        print(f"  {variant:16} {m.seconds:7.2f} s {m.peak_mib:7.0f} MiB  {m.seconds / fastest:5.2f}× the fastest"
              + ("" if m.ok else f"  FAILED: {m.note}"))
    return 0 if all(m.ok for m in results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
