"""The benchmark runs end to end in quick mode, so it cannot rot. Its figures are not asserted."""
import os
import re
import subprocess
import sys

import pytest

from helpers import REPO

pytestmark = pytest.mark.slow  # builds the site several times (about a minute)


def test_quick_benchmark_runs_and_writes_its_report(tmp_path):
    out = tmp_path / "BENCHMARKS.md"
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts"))
    result = subprocess.run([sys.executable, "-m", "uasdb.tools.bench", "--quick", "--out", str(out)],
                            capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    text = out.read_text()
    for step in ("validate", "parse-yaml", "check-jsonschema", "export", "hugo", "pagefind", "hugo-floor"):
        assert f"{step} s (MiB)" in text
    assert "| 20 |" in text and "| 60 |" in text
    assert "validate ÷ check-jsonschema at 60" in text and "search ms" in text and "search kb" in text
    # Every stage is set against the floor, and memory is judged per step, as the scale targets are stated.
    assert "Each stage against the bare-Hugo floor at 60: export" in text and "peak memory of pagefind at 60" in text
    assert "the time it takes just to parse the same YAML" in text
    # What one edit rewrites at the real size, counted as the watcher writes (tools/bench_edit.py).
    assert re.search(r"- edit_name_rewrites: \d+ of \d+ files, [0-9.]+ of [0-9.]+ MB", text)
    assert re.search(r"- edit_note_rewrites: 2 of \d+ files", text)
    # The expectations step alone, from scratch and after an edit in the watcher's memo (tools/bench_edit.py).
    assert re.search(r"- expectations_step_from_scratch: [0-9.]+ s CPU, peak \+\d+ MiB at 60 adapters", text)
    assert re.search(r"- expectations_step_after_outcome_edit: [0-9.]+ s CPU, \d+ MiB traced, \d+ products", text)
    # What limits each stage, from profiles taken in the same run: the export's functions and Hugo's templates.
    limits = text.split("## What limits the build", 1)[1]
    assert "of page models, one file per page" in limits and "Pagefind indexes" in limits
    assert "| `export.py:" in limits and "| `adapters/page.html` | 60 |" in limits
    svg = (tmp_path / "benchmarks.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 7


def test_scale_mode_times_each_step_of_three_builds_against_the_floor():
    """`uasdb bench --scale N` (tools/bench_scale.py): the cold build, one with a record changed and one with
    nothing changed, each step with its time and peak, the floor from the same run, and the issue's targets."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "scripts"))
    result = subprocess.run([sys.executable, "-m", "uasdb.tools.bench", "--scale", "20"],
                            capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    text = result.stdout
    assert re.search(r"Scale: 20 synthetic products, \d+ pages; load average [0-9./]+ → [0-9./]+", text)
    for build in ("cold", "one record changed", "nothing changed"):
        assert re.search(rf"^\| {build} \| [0-9.]+ \(\d+\) \| [0-9.]+ \(\d+\) \| [0-9.]+ \(\d+\) \| [0-9.]+ \| [0-9.]+× \|$",
                         text, re.M), text
    assert re.search(r"Floors measured in the same run: hugo-floor [0-9.]+ s \(\d+ MiB\), parse-yaml", text)
    assert re.search(r"The record changed: synthetic-adapter-\d+ \(a note\)", text)
    # Hugo renders in full only the cold build; over its public/ the others render the changed pages and the lists.
    assert re.search(r"Hugo rendered: cold: full build \(no manifest of an earlier build\); one record changed: "
                     r"rendering 1 of \d+ entity pages.*; nothing changed: rendering 0 of \d+ entity pages", text), text
    for step in ("export", "hugo", "pagefind"):
        assert re.search(rf"- peak of {step}: \d+ MiB \(target ≤ 1024 MiB\) — (met|MISSED)", text)
    assert re.search(r"- nothing changed, the watcher's refresh .*: [0-9.]+ s \(target ≤ 0.5 s\)", text)


def test_several_scale_runs_report_each_steps_median_and_every_runs_load():
    """`uasdb bench --scale N --runs 3`: the issue's figures are three runs' medians, each step on its own (time and
    peak), with each run's load averages kept so the reader sees how quiet the machine was."""
    from uasdb.tools.bench import Measure
    from uasdb.tools.bench_scale import BUILDS, STEPS, ScaleResult, median_result, scale_report

    def run(seconds: float, peak: float, load: float) -> ScaleResult:
        builds = {b: {s: Measure(seconds + i, peak + i, True, "hugo: rendering 1 of 9 entity pages")
                      for i, s in enumerate(STEPS)} for b in BUILDS}
        return ScaleResult(10, 30, builds, {"hugo-floor": Measure(seconds / 10, 50, True)}, [(load, load, load)],
                           "synthetic-adapter-00001", seconds / 100)

    median = median_result([run(30, 900, 1.0), run(10, 1100, 2.0), run(20, 700, 3.0)])
    assert median.builds["cold"]["export"] == Measure(20, 900, True, "hugo: rendering 1 of 9 entity pages")
    assert median.builds["cold"]["hugo"].seconds == 21 and median.builds["cold"]["hugo"].peak_mib == 901
    assert median.floors["hugo-floor"].seconds == 2 and median.watcher_unchanged_s == 0.2
    assert median.load == [(1.0, 1.0, 1.0), (2.0, 2.0, 2.0), (3.0, 3.0, 3.0)]
    text = scale_report(median)
    assert "load average 1.00/1.00/1.00 → 2.00/2.00/2.00 → 3.00/3.00/3.00" in text
    assert "| cold | 20.00 (900) | 21.00 (901) | 22.00 (902) |" in text
