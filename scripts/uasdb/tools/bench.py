"""`make bench` / `uasdb bench`: how the pipeline scales, measured against reference tools in the same run.

For each dataset size it generates a synthetic, valid dataset (deterministic seed) in a temporary
directory and measures, each as a separate process (wall time and peak memory via wait4):
  validate        `uasdb validate` (schema + every rule)
  check-jsonschema the same schema over the same files (reference: what a contributor would run otherwise)
  parse-yaml      parsing the same files with libyaml and nothing else, on as many processes as validate
                  uses (reference: the floor for any validator that reads YAML)
  export          `uasdb export` (validation + verdicts + API files)
  hugo            the site build
  pagefind        the search index
  hugo-floor      a bare Hugo build of the same number of trivial pages (reference: this generator's floor)
and, on the largest size, time from the last keystroke to search results in Chromium and the bytes
fetched for a first query, how long a saved record takes to show on its page under `make serve` (bench_live),
and profiles of the export (cProfile) and Hugo (--templateMetrics); on the real site, page weights, Lighthouse
scores (bench_site) and the same live edit. `--scale N` measures instead the builds a maintainer meets at N
products, cold, with one record changed and with nothing changed (bench_scale.py).
It prints one table, writes BENCHMARKS.md and an SVG plot of time against size. Targets are printed
with the margin by which each is met or missed; nothing is asserted.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..paths import REPO_ROOT
from ..publish import sitebuild
from ..publish.sitebuild import stage_site
from .synth import generate

PY = sys.executable
STEPS = ["validate", "parse-yaml", "check-jsonschema", "export", "hugo", "pagefind", "hugo-floor"]


@dataclass
class Measure:
    seconds: float
    peak_mib: float
    ok: bool
    note: str = ""


@dataclass
class SizeResult:
    adapters: int
    pages: int = 0
    steps: dict[str, Measure] = field(default_factory=dict)
    sizes: dict[str, float] = field(default_factory=dict)   # export and index in MB, pages indexed


def run_measured(cmd: Sequence[str], cwd: Path | None = None, env: dict | None = None) -> Measure:
    """Run one command; wall time and the peak RSS of the process tree it waited for (wait4)."""
    start = time.perf_counter()
    proc = subprocess.Popen(list(cmd), cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = b""
    # Drain output while waiting, then reap with wait4 to read this child's own rusage.
    stdout = proc.stdout
    assert stdout is not None
    for chunk in iter(lambda: stdout.read(65536), b""):
        output += chunk
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    tail = output.decode("utf-8", "replace").strip().splitlines()[-1:] if output else []
    return Measure(elapsed, usage.ru_maxrss / 1024, proc.returncode == 0, tail[0][:120] if tail else "")


def hugo_binary() -> str:
    return str(sitebuild.hugo_binary())


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(REPO_ROOT / "scripts"), HUGO_CACHEDIR=str(Path(tempfile.gettempdir()) / "uasdb-hugo-cache"))


# The validation floor: read and parse every record with libyaml across the same worker count, build nothing.
YAML_PARSE_FLOOR = """
import concurrent.futures, multiprocessing, os, sys, pathlib, yaml
def parse(paths):
    return sum(1 for p in paths if yaml.load(pathlib.Path(p).read_bytes(), Loader=yaml.CSafeLoader) is not None)
files = sorted(str(p) for p in pathlib.Path(sys.argv[1]).rglob("*.yaml"))
workers = max(1, min(os.cpu_count() or 1, 8))
chunks = [files[i::workers] for i in range(workers)]
with concurrent.futures.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
    assert sum(pool.map(parse, chunks)) == len(files)
"""


def floor_site(root: Path, pages: int) -> Path:
    """A minimal Hugo site whose content adapter adds `pages` trivial pages: the floor for this generator."""
    (root / "content").mkdir(parents=True)
    (root / "layouts").mkdir()
    (root / "hugo.yaml").write_text("baseURL: https://example.org/\ndisableKinds: [taxonomy, term, RSS, sitemap]\n")
    (root / "content" / "_content.gotmpl").write_text(  # %-format: the Go template is all braces
        "{{ range seq %d }}{{ $.AddPage (dict \"path\" (printf \"p%%d\" .) \"title\" (printf \"Page %%d\" .)"  # noqa: UP031
        " \"content\" (dict \"mediaType\" \"text/markdown\" \"value\" \"Trivial page.\")) }}{{ end }}\n" % pages)
    (root / "layouts" / "single.html").write_text("<!doctype html><title>{{ .Title }}</title>{{ .Content }}\n")
    (root / "layouts" / "home.html").write_text("<!doctype html><title>{{ .Title }}</title>\n")
    return root


def measure_size(adapters: int, work: Path, with_site: bool) -> SizeResult:
    result = SizeResult(adapters)
    dataset = work / f"n{adapters}"
    generate(dataset, adapters, seed=adapters)
    data = dataset / "data"
    env = _env()
    result.steps["validate"] = run_measured([PY, "-m", "uasdb", "validate", str(data)], env=env)
    files = sorted(str(p) for p in (data / "adapters").glob("*.yaml"))
    result.steps["parse-yaml"] = run_measured([PY, "-c", YAML_PARSE_FLOOR, str(data)], env=env)
    result.steps["check-jsonschema"] = run_measured(
        [str(Path(PY).parent / "check-jsonschema"), "--schemafile", str(REPO_ROOT / "schema" / "adapter.schema.json"), *files], env=env)
    if not with_site:
        return result

    site = stage_site(dataset)
    public = dataset / "public"
    result.steps["export"] = run_measured([PY, "-m", "uasdb", "export", "--data", str(data), "--out", str(site / "data" / "generated")], env=env)
    result.steps["hugo"] = run_measured([hugo_binary(), "--source", str(site), "--destination", str(public), "--minify", "--quiet"],
                                        env=sitebuild.hugo_env(env))  # as `make site` runs it
    result.steps["pagefind"] = run_measured(sitebuild.pagefind_command(public), env=env)
    result.pages = sum(1 for _ in public.rglob("*.html"))
    generated = site / "data" / "generated"
    result.sizes["hugo_data_mb"] = sum(p.stat().st_size for p in (generated / "data").rglob("*") if p.is_file()) / 1e6
    result.sizes["models_mb"] = sum(p.stat().st_size for p in (generated / "api").rglob("*") if p.is_file()) / 1e6
    result.sizes["largest_model_kb"] = max(p.stat().st_size for p in (generated / "api" / "v1" / "adapters").glob("*.json")) / 1e3
    entry = json.loads((public / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    result.sizes["indexed_pages"] = sum(lang["page_count"] for lang in entry["languages"].values())
    result.sizes["index_mb"] = sum(p.stat().st_size for p in (public / "pagefind").rglob("*") if p.is_file()) / 1e6
    floor = floor_site(dataset / "floor", max(result.pages, 1))
    result.steps["hugo-floor"] = run_measured([hugo_binary(), "--source", str(floor), "--destination", str(dataset / "floor-public"), "--quiet"], env=env)
    return result


def profile_stages(dataset: Path, top: int = 8) -> dict[str, list[str]]:
    """What limits the export and Hugo at this size, as Markdown table rows: the export under cProfile (the
    functions of uasdb with the most cumulative time) and Hugo's --templateMetrics (the templates with the most
    cumulative time, summed over its worker threads). Separate runs, so the timed steps are not slowed."""
    import pstats
    env = _env()
    site = dataset / "site"
    scratch = dataset / "profile"
    scratch.mkdir(exist_ok=True)
    stats_file = scratch / "export.prof"
    subprocess.run([PY, "-m", "cProfile", "-o", str(stats_file), "-m", "uasdb", "export", "--data", str(dataset / "data"),
                    "--out", str(scratch / "generated")], env=env, check=True, stdout=subprocess.DEVNULL)
    stats = pstats.Stats(str(stats_file))
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]  # set by pstats.Stats, not in typeshed's stubs
    rows = []
    for (filename, line, name), (_cc, calls, _tt, cumulative, _callers) in sorted(
            stats.stats.items(), key=lambda item: -item[1][3]):  # type: ignore[attr-defined]  # as total_tt above
        if "/uasdb/" not in filename or name in ("<module>", "main", "cmd_export", "run_export", "export_tree"):
            continue
        where = f"{Path(filename).name}:{line} {name}"
        rows.append(f"| `{where}` | {calls} | {cumulative:.2f} | {100 * cumulative / total:.0f}% |")
        if len(rows) == top:
            break
    metrics = subprocess.run([hugo_binary(), "--source", str(site), "--destination", str(scratch / "public"), "--minify",
                              "--templateMetrics"], env=env, capture_output=True, text=True, check=True).stdout
    templates = []
    for line in metrics.splitlines():
        m = re.match(r"\s*([\d.]+)\s*(µs|ms|s)\s+([\d.]+)\s*(µs|ms|s)\s+([\d.]+)\s*(µs|ms|s)\s+(\d+)\s+(\S+)$", line)
        if m:
            scale = {"µs": 1e-6, "ms": 1e-3, "s": 1.0}
            cumulative = float(m.group(1)) * scale[m.group(2)]
            average = float(m.group(3)) * scale[m.group(4)]
            longest = float(m.group(5)) * scale[m.group(6)]
            templates.append(f"| `{m.group(8)}` | {m.group(7)} | {cumulative:.2f} | {average * 1000:.2f} | {longest * 1000:.0f} |")
        if len(templates) == top:
            break
    return {"export": rows, "hugo": templates}


def search_timing(public: Path, quick: bool = False) -> dict[str, object]:
    """The first search's latency and bytes (an ID, a product and a chip query, cold and warm, counted at the
    server; `quick`: the ID query only), and the check page's bytes for a paste of two IDs, in one Chromium."""
    from .bench_search import _browser, measure_check, measure_search, site_queries
    queries = site_queries(public)
    if quick:  # proves the measure runs; the three kinds of query go through the same steps
        queries = {"id": queries["id"]}
    with _browser() as browser:
        return {**measure_search(public, queries, browser), **measure_check(public, browser)}


def svg_plot(results: list[SizeResult], steps: Sequence[str]) -> str:
    """Time against dataset size, one line per step, log-free and dependency-free."""
    width, height, pad, legend = 760, 360, 50, 130
    sizes = [r.adapters for r in results]
    top = max((r.steps[s].seconds for r in results for s in steps if s in r.steps), default=1.0) or 1.0
    colours = ["#1f77b4", "#7f7f7f", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]

    def x(n: int) -> float:
        return pad + (width - 2 * pad - legend) * (n - min(sizes)) / max(max(sizes) - min(sizes), 1)

    def y(s: float) -> float:
        return height - pad - (height - 2 * pad) * s / top

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<title>Seconds against number of adapters</title><rect width="{width}" height="{height}" fill="white"/>',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad - legend}" y2="{height - pad}" stroke="black"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="black"/>',
             f'<text x="{(width - legend) / 2}" y="{height - 12}" text-anchor="middle">adapters</text>',
             f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" text-anchor="middle">seconds</text>',
             f'<text x="{pad - 6}" y="{pad + 4}" text-anchor="end">{top:.1f}</text>',
             f'<text x="{pad - 6}" y="{height - pad + 4}" text-anchor="end">0</text>']
    for n in sizes:
        parts.append(f'<text x="{x(n):.1f}" y="{height - pad + 16}" text-anchor="middle">{n}</text>')
    for index, step in enumerate(s for s in steps if all(s in r.steps for r in results)):
        colour = colours[index % len(colours)]
        points = " ".join(f"{x(r.adapters):.1f},{y(r.steps[step].seconds):.1f}" for r in results)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{width - pad - legend + 12}" y="{pad + 16 * index}" fill="{colour}">{step}</text>')
    parts.append("</svg>\n")
    return "\n".join(parts)


def _ratio(a: Measure | None, b: Measure | None) -> float | None:
    return a.seconds / b.seconds if a and b and b.seconds > 0 else None


def pipeline_seconds(steps: dict[str, Any]) -> float | None:
    """A build's time as `make site` runs it: the export, then Hugo and the search index side by side (the index is
    made from the export's twins while Hugo renders), so the longer of those two."""
    if "export" not in steps:
        return None
    beside = [steps[s].seconds for s in ("hugo", "pagefind") if s in steps]
    return steps["export"].seconds + max(beside, default=0.0)


def verdict_line(name: str, value: float | None, limit: float, unit: str, lower_is_better: bool = True) -> str:
    if value is None:
        return f"- {name}: not measured"
    met = value <= limit if lower_is_better else value >= limit
    margin = (limit - value) if lower_is_better else (value - limit)
    word = "met" if met else "MISSED"
    return f"- {name}: {value:.2f}{unit} (target {'≤' if lower_is_better else '≥'} {limit}{unit}) — {word} by {abs(margin):.2f}{unit}"


def limits_section(largest: SizeResult, profiles: dict[str, list[str]], extra: dict[str, Any] | None = None) -> str:
    """Per stage of the build, what the profiles say it spends its time on, with the sizes it works through."""
    n = largest.adapters
    extra = extra or {}
    parts = ["\n## What limits the build\n\n"]
    if "live_edit_large_s" in extra and "live_edit_large_export_s" in extra:
        hugo = extra.get("live_edit_large_hugo_s")
        parts.append(f"A live edit at {extra['live_edit_large_adapters']} adapters took {extra['live_edit_large_s']} s "
                     "from saving the record to the page showing it. The watcher's export (it parses, checks and "
                     "judges again only the edited record, and encodes again only what changed) took "
                     f"{extra['live_edit_large_export_s']} s of that, "
                     + (f"and Hugo's server then rebuilt for {hugo} s after the changed files. " if hugo is not None else "")
                     + "What remains in the export is done for the whole tree on every edit: reading back every "
                     "record's parsed copy, the rules that compare records, the USB ID and chipset models, the "
                     "lists and the expectations, and comparing each file with what it held.\n\n")
    if largest.sizes:
        parts.append(f"At {n} adapters the export writes {largest.sizes['hugo_data_mb']:.1f} MB that Hugo keeps in memory "
                     f"(common.json, pages.json, names.json) and {largest.sizes['models_mb']:.0f} MB of page models, one file per "
                     f"page (the largest adapter model {largest.sizes['largest_model_kb']:.0f} KB), which each page reads "
                     "as it renders. Pagefind indexes "
                     f"{largest.sizes['indexed_pages']:.0f} of {largest.pages} pages (adapters, chipsets, what to buy; "
                     f"USB ID pages repeat their products' text and stay out) into {largest.sizes['index_mb']:.0f} MB.\n")
    if profiles.get("export"):
        parts.append(f"\nExport at {n} adapters under cProfile (its own functions with the most cumulative time; "
                     "the profiler slows every call, so read the shares, not the seconds):\n\n"
                     "| function | calls | cumulative s | share |\n|---|---:|---:|---:|\n" + "\n".join(profiles["export"]) + "\n")
    if profiles.get("hugo"):
        parts.append(f"\nHugo at {n} adapters, `--templateMetrics` (cumulative time is summed over Hugo's worker "
                     "threads):\n\n"
                     "| template | calls | cumulative s | average ms | longest ms |\n|---|---:|---:|---:|---:|\n"
                     + "\n".join(profiles["hugo"]) + "\n")
    return "".join(parts)


def report(results: list[SizeResult], extra: dict[str, Any], command: str,
           profiles: dict[str, list[str]] | None = None) -> str:
    steps = STEPS
    lines = ["| adapters | pages | " + " | ".join(f"{s} s (MiB)" for s in steps) + " | validate ÷ check-jsonschema | validate ÷ parse-yaml | build ÷ floor |",
             "|---:|---:|" + "---:|" * len(steps) + "---:|---:|---:|"]
    for r in results:
        cells = []
        for s in steps:
            m = r.steps.get(s)
            cells.append(f"{m.seconds:.2f} ({m.peak_mib:.0f}){'' if m.ok else ' FAILED'}" if m else "–")
        v_ratio = _ratio(r.steps.get("validate"), r.steps.get("check-jsonschema"))
        build = sum(r.steps[s].seconds for s in ("export", "hugo", "pagefind") if s in r.steps)
        floor = r.steps.get("hugo-floor")
        b_ratio = build / floor.seconds if floor and floor.seconds else None
        p_ratio = _ratio(r.steps.get("validate"), r.steps.get("parse-yaml"))
        v_cell = f"{v_ratio:.2f}×" if v_ratio else "–"
        p_cell = f"{p_ratio:.2f}×" if p_ratio else "–"
        b_cell = f"{b_ratio:.2f}×" if b_ratio else "–"
        lines.append(f"| {r.adapters} | {r.pages or '–'} | " + " | ".join(cells) + f" | {v_cell} | {p_cell} | {b_cell} |")
    largest = results[-1]
    pipeline = pipeline_seconds(largest.steps)
    floor = largest.steps.get("hugo-floor")
    targets = [
        verdict_line(f"validate ÷ check-jsonschema at {largest.adapters}", _ratio(largest.steps.get("validate"), largest.steps.get("check-jsonschema")), 0.5, "×"),
        verdict_line(f"full build ÷ bare-Hugo floor at {largest.adapters}", pipeline / floor.seconds if pipeline and floor else None, 4.0, "×"),
        verdict_line(f"whole pipeline (export, then Hugo beside the search index) at {largest.adapters}", pipeline, 30.0, " s"),
    ]
    for s in ("export", "hugo", "pagefind"):
        if s in largest.steps:
            targets.append(verdict_line(f"peak memory of {s} at {largest.adapters}", largest.steps[s].peak_mib, 1024.0, " MiB"))
    stage_ratios = [f"{s} {largest.steps[s].seconds / floor.seconds:.1f}×" for s in ("export", "hugo", "pagefind")
                    if s in largest.steps and floor and floor.seconds]
    parse_ratio = _ratio(largest.steps.get("validate"), largest.steps.get("parse-yaml"))
    for key, limit, unit, lower in (("search_ms", 300.0, " ms", True), ("search_kb", 150.0, " KB", True),
                                    *((f"search_{kind}_warm_{figure}", limit, unit, True)
                                      for kind in ("id", "product", "chip")
                                      for figure, limit, unit in (("ms", 300.0, " ms"), ("kb", 150.0, " KB"))),
                                    ("adapter_page_kb", 30.0, " KB", True), ("home_page_kb", 30.0, " KB", True),
                                    ("naughty_page_kb", 30.0, " KB", True), ("buy_page_kb", 30.0, " KB", True),
                                    ("check_page_kb", 30.0, " KB", True), ("check_two_ids_kb", 100.0, " KB", True),
                                    ("live_edit_s", 1.0, " s", True), ("live_edit_note_s", 1.0, " s", True),
                                    ("live_edit_large_s", 1.0, " s", True)):
        if key in extra:
            targets.append(verdict_line(key.replace("_", " "), float(extra[key]), limit, unit, lower))
    for name, score in sorted((k, v) for k, v in extra.items() if k.startswith("lighthouse")):
        targets.append(verdict_line(name, float(score), 95.0, "", lower_is_better=False))
    for name, shift in sorted((k, v) for k, v in extra.items() if k.startswith("cls ")):
        targets.append(verdict_line(name, float(shift), 0.05, "", lower_is_better=True))
    growth = ""
    if len(results) >= 2 and results[0].steps.get("validate") and results[-1].steps.get("validate"):
        size_x = results[-1].adapters / results[0].adapters
        time_x = results[-1].steps["validate"].seconds / results[0].steps["validate"].seconds
        growth = f"\nValidate grows {time_x:.1f}× for {size_x:.0f}× the adapters (linear would be {size_x:.0f}×).\n"
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"
    other = "\n".join(f"- {k}: {v}" for k, v in sorted(extra.items()) if not k.startswith(("lighthouse", "cls ")) and not k.endswith("_page_kb") and k not in ("search_ms", "search_kb"))
    return (f"# Benchmarks\n\n_Generated by `{command}` on {datetime.date.today().isoformat()}; machine: {machine}._\n\n"
            "Synthetic datasets (`uasdb synth`, about five reports per adapter, fixed seed). Each step is a separate process: "
            "wall seconds and peak resident memory in MiB. References run in the same benchmark: check-jsonschema with the same "
            "schema over the same files, and a bare Hugo build of the same number of trivial pages.\n\n"
            + "\n".join(lines) + "\n" + growth
            + (f"\nEach stage against the bare-Hugo floor at {largest.adapters}: {', '.join(stage_ratios)}.\n" if stage_ratios else "")
            + (f"\nValidation takes {parse_ratio:.1f}× the time it takes just to parse the same YAML with libyaml.\n" if parse_ratio else "")
            + "\n## Targets\n\n" + "\n".join(targets) + "\n"
            + (limits_section(largest, profiles or {}, extra) if largest.pages else "")
            + (f"\n## Other figures\n\n{other}\n" if other else "") + "\n![time against dataset size](benchmarks.svg)\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="uasdb bench", description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated adapter counts (default 1000,10000)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, no Lighthouse: proves the benchmark still runs")
    parser.add_argument("--no-site", action="store_true", help="measure validation only")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium search timing and Lighthouse")
    parser.add_argument("--out", default=None, help="where to write the report (and the SVG beside it; default "
                        "BENCHMARKS.md); with --scale, the scale report (default: printed only)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--scale", type=int, metavar="N",
                        help="only the build at N synthetic products, cold, with one record changed and with nothing "
                             "changed, each step's time and peak against the bare-Hugo floor (bench_scale); prints, "
                             "writes no report")
    parser.add_argument("--runs", type=int, default=1, metavar="K",
                        help="with --scale: K runs, each on a fresh tree, then every step's median")
    args = parser.parse_args(argv)
    if args.scale:
        from .bench_scale import run_scale
        return run_scale(args.scale, keep=args.keep, runs=args.runs, out=Path(args.out) if args.out else None)
    sizes = [20, 60] if args.quick else [int(s) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="uasdb-bench-"))
    results: list[SizeResult] = []
    extra: dict[str, Any] = {}
    try:
        for n in sizes:
            print(f"measuring {n} adapters…", flush=True)
            results.append(measure_size(n, work, with_site=not args.no_site))
            for step, m in results[-1].steps.items():
                print(f"  {step:17} {m.seconds:8.2f} s {m.peak_mib:8.0f} MiB{'' if m.ok else '  FAILED: ' + m.note}", flush=True)
        if not args.no_site:
            # What one edit rewrites under `make serve` (files and bytes written again), at the real size and, but
            # in quick mode, at the largest synthetic size.
            from .bench_edit import measure_edit
            print("counting the files one edit rewrites…", flush=True)
            trees = [("", REPO_ROOT / "data")] + ([] if args.quick else [("_large", work / f"n{sizes[-1]}" / "data")])
            for label, tree in trees:
                for edit in ("name", "note"):
                    done = measure_edit(tree, work / f"edit-{edit}{label}", edit)
                    extra[f"edit_{edit}{label}_rewrites"] = (f"{done['files']} of {done['of_files']} files, "
                                                            f"{done['bytes'] / 1e6:.2f} of {done['of_bytes'] / 1e6:.1f} MB")
        # The expectations step alone at the largest size: from scratch, and in the watcher's memo after an edit.
        from .bench_edit import measure_expectations
        print(f"measuring the expectations step at {sizes[-1]} adapters…", flush=True)
        measured = measure_expectations(sizes[-1], work / "expectations")
        extra["expectations_step_from_scratch"] = (f"{measured['scratch_cpu']:.2f} s CPU, peak +{measured['scratch_peak_mib']:.0f} "
                                                   f"MiB at {sizes[-1]} adapters")
        for kind, edit in measured["edits"].items():
            extra[f"expectations_step_after_{kind}_edit"] = (f"{edit['cpu']:.2f} s CPU, {edit['peak_mib']:.0f} MiB traced, "
                                                             f"{edit['worked_out']} products worked out again, "
                                                             f"{edit['decided_again']} decided again")
        if not args.no_site and not args.no_browser:
            public = work / f"n{sizes[-1]}" / "public"
            extra.update(search_timing(public, quick=args.quick))
            if not args.quick:
                from .bench_live import measure_live_edit
                print("measuring a live edit under make serve…", flush=True)
                extra.update(measure_live_edit(REPO_ROOT / "data", work / "live"))
                print("measuring a note edit (its model only) under make serve…", flush=True)
                note = measure_live_edit(REPO_ROOT / "data", work / "live-note", edit="note")
                extra.update({f"live_edit_note_{key[len('live_edit_'):]}": value for key, value in note.items()})
                print(f"measuring a live edit under make serve at {sizes[-1]} adapters…", flush=True)
                large = measure_live_edit(work / f"n{sizes[-1]}" / "data", work / "live-large", edits=2)
                extra.update({f"live_edit_large_{key[len('live_edit_'):]}": value for key, value in large.items()})
            if not args.quick and (REPO_ROOT / "public" / "index.html").exists():
                from .bench_site import measure_real_site
                extra.update(measure_real_site(REPO_ROOT / "public"))
        profiles: dict[str, list[str]] = {}
        if not args.no_site:
            print(f"profiling the export and Hugo at {sizes[-1]} adapters…", flush=True)
            profiles = profile_stages(work / f"n{sizes[-1]}")
        command = "make bench" + (" (quick)" if args.quick else "")
        text = report(results, extra, command, profiles)
        print(text)
        out = Path(args.out) if args.out else REPO_ROOT / "BENCHMARKS.md"
        out.write_text(text, encoding="utf-8")
        out.with_name("benchmarks.svg").write_text(svg_plot(results, STEPS), encoding="utf-8")
        print(f"wrote {out} and {out.with_name('benchmarks.svg')}")
        return 0 if all(m.ok for r in results for m in r.steps.values()) else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
