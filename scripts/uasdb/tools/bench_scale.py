"""`uasdb bench --scale N`: the build at N synthetic products as a maintainer meets it, step by step, against the
bare-Hugo floor measured in the same run. Prints; writes nothing but its temporary folder.

Three builds of one tree, each step (export, Hugo, Pagefind) a separate process, timed by the wall clock with its
peak resident memory (wait4), as `make site` runs them:
  cold                 an empty content cache (records/cache.py), an empty Hugo cache, empty output folders
  one record changed   one adapter's note edited (text only its page shows), over the cold build's outputs
                       and caches; Hugo renders the pages whose inputs changed (publish/hugobuild.py)
  nothing changed      the same tree again, over the outputs and caches of the build before
The export runs with SOURCE_DATE_EPOCH pinned, as in a checkout, where the envelope's time follows git: outside
git it would be "now" and change every file. The floor is a bare Hugo build of as many trivial pages as the site
has (bench.floor_site), and parsing every record with libyaml (bench.YAML_PARSE_FLOOR). The machine's load
average is printed at the start and the end: a shared machine's figures are only as quiet as it was.
"""
from __future__ import annotations

import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..publish import sitebuild
from ..publish.sitebuild import stage_site
from .bench import PY, YAML_PARSE_FLOOR, Measure, _env, floor_site, hugo_binary, pipeline_seconds, run_measured
from .bench_live import EDITS, _editable
from .synth import generate

BUILDS = ("cold", "one record changed", "nothing changed")
STEPS = ("export", "hugo", "pagefind")
# The targets at 10,000 products (issue 37, "Done when"): seconds for the whole build, MiB for each step.
TARGET_SECONDS = {"cold": 45.0, "one record changed": 15.0, "nothing changed": 0.5}
TARGET_PEAK_MIB = 1024.0


@dataclass
class ScaleResult:
    adapters: int
    pages: int = 0
    builds: dict[str, dict[str, Measure]] = field(default_factory=dict)
    floors: dict[str, Measure] = field(default_factory=dict)
    load: list[tuple[float, float, float]] = field(default_factory=list)
    edited: str = ""
    watcher_unchanged_s: float | None = None


def _build(dataset: Path, site: Path, public: Path, env: dict) -> dict[str, Measure]:
    steps = {"export": run_measured([PY, "-m", "uasdb", "export", "--data", str(dataset / "data"),
                                     "--out", str(site / "data" / "generated")], env=env)}
    # As `make site` runs it: only the pages whose inputs changed when public/ holds the last build (hugobuild.py).
    steps["hugo"] = run_measured([PY, "-m", "uasdb.publish.hugobuild", "--site", str(site), "--public", str(public),
                                  "--", "--minify", "--quiet"], env=env)
    steps["pagefind"] = run_measured(sitebuild.pagefind_command(public), env=env)
    return steps


def _watcher_unchanged(data: Path, out: Path) -> float:
    """Seconds of the watcher's refresh when no byte of the data changed since its last clean export (what `make
    serve` does on a save that changed nothing): it hashes the inputs, finds the digest it kept, and stops. The
    state is given that digest directly; a first export in this process would add minutes and change nothing of
    what is timed."""
    from ..publish.export import inputs_digest
    from ..publish.watch import State, refresh
    state = State()
    state.inputs = inputs_digest([data])
    started = time.perf_counter()
    problems = refresh(out, [data], state)
    took = time.perf_counter() - started
    assert problems == [], problems
    return took


def measure_scale(adapters: int, work: Path, progress: bool = True) -> ScaleResult:
    result = ScaleResult(adapters, load=[os.getloadavg()])
    dataset = work / f"n{adapters}"
    generate(dataset, adapters, seed=adapters)
    site = stage_site(dataset)
    public = dataset / "public"
    env = dict(_env(), SOURCE_DATE_EPOCH="1700000000", UASDB_CACHE="on", UASDB_CACHE_DIR=str(work / "cache"),
               HUGO_CACHEDIR=str(work / "hugo-cache"))
    for build in BUILDS:
        if build == "one record changed":
            change = EDITS["note"]
            record = next(p for p in sorted((dataset / "data" / "adapters").glob("*.yaml")) if _editable(p, change))
            record.write_text(change(record.read_text(encoding="utf-8"), "edited-by-bench"), encoding="utf-8")
            result.edited = record.stem
        if progress:
            print(f"  {build} build…", flush=True)
        result.builds[build] = _build(dataset, site, public, env)
        if progress:
            for step, m in result.builds[build].items():
                print(f"    {step:9} {m.seconds:8.2f} s {m.peak_mib:7.0f} MiB{'' if m.ok else '  FAILED: ' + m.note}", flush=True)
    result.watcher_unchanged_s = _watcher_unchanged(dataset / "data", site / "data" / "generated")
    result.pages = sum(1 for _ in public.rglob("*.html"))
    floor = floor_site(dataset / "floor", max(result.pages, 1))
    result.floors["hugo-floor"] = run_measured([hugo_binary(), "--source", str(floor), "--destination",
                                                str(dataset / "floor-public"), "--quiet"], env=env)
    result.floors["parse-yaml"] = run_measured([PY, "-c", YAML_PARSE_FLOOR, str(dataset / "data")], env=env)
    result.load.append(os.getloadavg())
    return result


def _mark(met: bool) -> str:
    return "met" if met else "MISSED"


def scale_report(result: ScaleResult) -> str:
    floor = result.floors.get("hugo-floor")
    lines = [f"Scale: {result.adapters} synthetic products, {result.pages} pages; load average "
             + " → ".join("/".join(f"{x:.2f}" for x in load) for load in result.load) + " (1/5/15 min, start → end)",
             "", "| build | " + " | ".join(f"{s} s (peak MiB)" for s in STEPS) + " | total s (export, then the longer of Hugo and the index) | ÷ bare-Hugo floor |",
             "|---|" + "---:|" * (len(STEPS) + 2)]
    targets = []
    for build, steps in result.builds.items():
        total = pipeline_seconds(steps) or 0.0  # the index is built beside Hugo
        ratio = f"{total / floor.seconds:.1f}×" if floor and floor.seconds else "–"
        cells = [f"{steps[s].seconds:.2f} ({steps[s].peak_mib:.0f}){'' if steps[s].ok else ' FAILED'}" for s in STEPS]
        lines.append(f"| {build} | " + " | ".join(cells) + f" | {total:.2f} | {ratio} |")
        if build == "nothing changed":  # the target is the watcher's, below; this is what `make site` does again
            continue
        limit = TARGET_SECONDS[build]
        targets.append(f"- {build}: {total:.2f} s (target ≤ {limit} s) — {_mark(total <= limit)}")
    if result.watcher_unchanged_s is not None:
        limit = TARGET_SECONDS["nothing changed"]
        targets.append(f"- nothing changed, the watcher's refresh (inputs hashed, digest unchanged, stop): "
                       f"{result.watcher_unchanged_s:.2f} s (target ≤ {limit} s) — "
                       f"{_mark(result.watcher_unchanged_s <= limit)}; the three steps run again take the row above")
    for step in STEPS:
        peak = max(b[step].peak_mib for b in result.builds.values())
        targets.append(f"- peak of {step}: {peak:.0f} MiB (target ≤ {TARGET_PEAK_MIB:.0f} MiB) — "
                       f"{_mark(peak <= TARGET_PEAK_MIB)}")
    floors = ", ".join(f"{name} {m.seconds:.2f} s ({m.peak_mib:.0f} MiB)" for name, m in result.floors.items())
    per_step = ""
    if floor and floor.seconds:
        per_step = "\nEach step against the floor: " + "; ".join(
            f"{build}: " + ", ".join(f"{s} {steps[s].seconds / floor.seconds:.1f}×" for s in STEPS)
            for build, steps in result.builds.items()) + ".\n"
    # hugobuild.py's last line says what Hugo rendered: everything, or the changed pages and the lists.
    rendered = "Hugo rendered: " + "; ".join(f"{build}: {steps['hugo'].note.removeprefix('hugo: ')}"
                                              for build, steps in result.builds.items()) + ".\n"
    return ("\n".join(lines) + f"\n\nFloors measured in the same run: {floors}.\n" + per_step + rendered
            + f"The record changed: {result.edited} (a note).\n\nTargets:\n" + "\n".join(targets) + "\n")


def _median_measure(found: list[Measure]) -> Measure:
    return Measure(statistics.median(m.seconds for m in found), statistics.median(m.peak_mib for m in found),
                   all(m.ok for m in found), found[0].note)


def median_result(results: list[ScaleResult]) -> ScaleResult:
    """Each step's median time and median peak over the runs (each its own fresh tree and caches), with every run's
    load averages; what Hugo rendered and the record changed are the first run's (the same in each)."""
    first = results[0]
    return ScaleResult(
        first.adapters, first.pages,
        builds={build: {step: _median_measure([r.builds[build][step] for r in results]) for step in steps}
                for build, steps in first.builds.items()},
        floors={name: _median_measure([r.floors[name] for r in results]) for name in first.floors},
        load=[load for r in results for load in r.load], edited=first.edited,
        watcher_unchanged_s=statistics.median(r.watcher_unchanged_s for r in results if r.watcher_unchanged_s is not None)
        if all(r.watcher_unchanged_s is not None for r in results) else None)


def run_scale(adapters: int, keep: bool = False, runs: int = 1, out: Path | None = None) -> int:
    work = Path(tempfile.mkdtemp(prefix="uasdb-bench-scale-"))
    try:
        results = []
        for run in range(runs):
            print(f"measuring builds at {adapters} synthetic products (run {run + 1} of {runs})…", flush=True)
            results.append(measure_scale(adapters, work / f"run{run + 1}"))
            print(scale_report(results[-1]))
        report = scale_report(results[0] if runs == 1 else median_result(results))
        if runs > 1:
            totals = "; ".join(f"{build}: " + ", ".join(f"{pipeline_seconds(r.builds[build]) or 0.0:.2f}" for r in results)
                               for build in results[0].builds)
            report = (f"Median of {runs} runs, each from a fresh tree and empty caches (every step's seconds and peak "
                      f"MiB are medians; the load averages are every run's).\n\n{report}\nEach run's total s: {totals}.\n")
            print(report)
        if out is not None:
            out.write_text(f"# Builds at {adapters} products\n\n_Generated by `python -m uasdb.tools.bench --scale {adapters} --runs {runs} "
                           f"--out {out}` on {time.strftime('%Y-%m-%d')}; machine: {platform.machine()}, "
                           f"{os.cpu_count()} cores, Python {platform.python_version()}._\n\n{report}", encoding="utf-8")
        return 0 if all(m.ok for r in results for b in r.builds.values() for m in b.values()) else 1
    finally:
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
