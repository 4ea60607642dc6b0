"""Every pattern of the paste parsers runs in linear time: a megabyte of its worst case takes about as long as a
pattern that reads each character once (pattern_worst_cases.py explains the measure). The same table drives the
check page's patterns in Chromium (tests/site/test_site_check.py)."""
from __future__ import annotations

import re
import signal
import time

import pytest

from pattern_worst_cases import LINEAR_FACTOR, WORST_CASES, cases, javascript_patterns, python_patterns, worst_text

PYTHON = python_patterns()
# One step per character: a lazy repeat that checks for the end after each one.
REFERENCE = re.compile(r"(?s).*?\Z")


class TooSlow(Exception):
    pass


def _every_match(pattern: re.Pattern[str], text: str) -> float:
    """Time to find every match; replacing them finds them all without making an object for each."""
    started = time.perf_counter()
    pattern.subn("", text)
    return time.perf_counter() - started


def _interrupt(signum, frame):
    raise TooSlow()


def test_every_pattern_has_a_worst_case():
    """A new pattern needs its worst case in pattern_worst_cases.py before it can ship."""
    js_named, js_unnamed = javascript_patterns()
    assert js_unnamed == [], "name these paste.js patterns (const NAME = /…/) and give each a worst case"
    assert sorted(set(PYTHON) | set(js_named)) == sorted(WORST_CASES)


def test_every_python_pattern_is_named():
    """Patterns written inline in a function would escape the test below."""
    from uasdb.probe import parsers
    source = parsers.__file__ and open(parsers.__file__, encoding="utf-8").read()
    assert re.findall(r"re\.(?:match|search|fullmatch|finditer|findall|sub|split)\(r?[\"']", source) == []
    assert source.count("re.compile(") == len(PYTHON)


def test_javascript_literals_are_all_found():
    """The extractor itself: an inline pattern in a function is reported, a named one is not."""
    named, unnamed = javascript_patterns("const A = /a+/;\nconst f = (s) => /^\\d+$/.test(s);\n"
                                         "x = s.replace(/^\"+|\"+$/g, ''); // comment /no/\n")
    assert named == {"A": ("a+", "")} and unnamed == ["/^\\d+$/", "/^\"+|\"+$/g"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PYTHON))
def test_each_python_pattern_reads_a_megabyte_of_its_worst_case_in_linear_time(name):
    pattern = PYTHON[name]
    slow = []
    for case in cases(name):
        text = worst_text(case)
        reference = min(_every_match(REFERENCE, text) for _ in range(3))
        budget = LINEAR_FACTOR * reference
        previous = signal.signal(signal.SIGALRM, _interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 2 * budget)
            try:
                took = _every_match(pattern, text)
                took = min(took, _every_match(pattern, text))  # the faster of two: a busy machine only slows runs
            except TooSlow:
                took = float("inf")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            signal.signal(signal.SIGALRM, previous)
        if took > budget:
            slow.append(f"{case!r}: over {LINEAR_FACTOR}× the reference ({reference * 1000:.1f} ms)")
    assert slow == [], f"{name} backtracks: {slow}"


# ---------------------------------------------------------------------------------------------------------------
# Issue 39's class-wide guard: every pattern and every text function, Python and JS, found by enumeration
# (tests/linear_guard.py explains how), at 10× and 100× a base size.
# ---------------------------------------------------------------------------------------------------------------
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402

import linear_guard as guard  # noqa: E402
from helpers import REPO  # noqa: E402

ALL_PYTHON = guard.python_patterns()
TEXT_FUNCTIONS = guard.python_text_functions()
# The site's modules that need no page: no DOM, no network, no history (the others are tested in Chromium).
PAGE_FREE_JS = [p for p in sorted(guard.SITE_JS.glob("*.js"))
                if not re.search(r"\bfetch\(|\bnavigator\b|\bhistory\.", p.read_text(encoding="utf-8"))]


def test_the_enumeration_finds_every_pattern_and_reader_issue_39_fixed():
    """The guard reaches what it must: patterns inside functions, module tables, and the readers that were slow."""
    sources = {p.pattern for p in ALL_PYTHON.values()}
    from uasdb.records.rules import evidence, markdown
    assert {markdown.AUTOLINK.pattern, markdown.TAG_START.pattern, evidence._NEW_DEVICE.pattern} <= sources
    assert any(name.startswith("scripts/uasdb/records/loader.py") for name in ALL_PYTHON)  # literal, in a function
    assert {"uasdb.records.rules.markdown.html_tag", "uasdb.ingest.issue.parse_issue", "uasdb.records.loader.load_text",
            "uasdb.probe.parsers.parse_dmesg", "uasdb.probe.common.printable"} <= set(TEXT_FUNCTIONS)
    js = {source for source, _ in guard.javascript_patterns().values()}
    assert r"^\.+|\.+$" not in js and "^[^a-z0-9]+|[^a-z0-9+]+$" not in js  # the quadratic trims are gone
    assert {p.name for p in PAGE_FREE_JS} >= {"paste.js", "check-core.js", "quirks-core.js", "filter.js", "search-words.js"}


@pytest.mark.slow  # the old quadratic patterns on worst cases: about 6 s of CPU each, over the fast lane's budget
@pytest.mark.parametrize("source", [r"</?[A-Za-z][A-Za-z0-9-]*(\s[^>]*)?/?>|<!--", r"<([A-Za-z][A-Za-z0-9+.-]*:[^>\s]*)>",
                                    r"\busb (\d+)-[\d.]+: (?:new .*?USB device number|device not accepting address) (\d+)\b"])
def test_the_guard_fails_the_patterns_main_had(source):
    """The measure can fail: each pattern issue 39 replaced is found superlinear from its own generated cases."""
    pattern = re.compile(source)
    assert guard.slow_cases(lambda prefix, unit, size: (lambda: pattern.subn("", guard.worst_text(prefix, unit, size))),
                            guard.units_for(source)), source


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ALL_PYTHON))
def test_every_python_pattern_grows_linearly(name):
    pattern = ALL_PYTHON[name]
    anchored = guard.MODES.get(name) == "anchored"
    run = (lambda text: pattern.match(text)) if anchored else (lambda text: pattern.subn("", text))
    slow = guard.slow_cases(lambda prefix, unit, size: (lambda: run(guard.worst_text(prefix, unit, size))),
                            guard.units_for(pattern.pattern, pattern.flags))
    assert slow == [], f"{name} /{pattern.pattern[:80]}/ grows faster than linearly: {slow}"


def _module_units(module_name: str):
    units = {("", char): None for char in guard.GENERIC}
    for pattern in ALL_PYTHON.values():
        for sample in guard.samples(pattern.pattern, pattern.flags)[:2]:
            units[("", sample[:40])] = None
    return list(units)


UNITS_FOR_FUNCTIONS = _module_units("")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TEXT_FUNCTIONS))
def test_every_python_text_function_grows_linearly(name):
    function = TEXT_FUNCTIONS[name]
    slow = guard.slow_cases(lambda prefix, unit, size: (lambda: function(guard.worst_text(prefix, unit, size))),
                            UNITS_FOR_FUNCTIONS)
    assert slow == [], f"{name} grows faster than linearly: {slow}"


def _node(work):
    run = subprocess.run(["node", str(REPO / "tests" / "js" / "linear-runner.mjs")], input=json.dumps(work),
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="make node-tools installs Node")
def test_every_javascript_pattern_grows_linearly():
    work = {"base": guard.BASE, "superlinear": guard.SUPERLINEAR, "floor": guard.FLOOR, "patterns": []}
    for name, (source, flags) in guard.javascript_patterns().items():
        python_source = source.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
        work["patterns"].append({"name": name, "source": source, "flags": flags,
                                 "units": guard.units_for(python_source)})
    report = _node(work)
    assert len(report) == len(work["patterns"])
    assert {name: slow for name, slow in report.items() if slow} == {}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="make node-tools installs Node")
def test_every_exported_javascript_text_function_grows_linearly():
    patterns = guard.javascript_patterns()
    modules = []
    for path in PAGE_FREE_JS:
        units = {("", char): None for char in guard.GENERIC}
        for name, (source, _) in patterns.items():
            if name.startswith(f"{path.name}:"):
                for sample in guard.samples(source.replace("(?<", "(?P<").replace("(?P<=", "(?<=").replace("(?P<!", "(?<!"))[:2]:
                    units[("", sample[:40])] = None
        modules.append({"name": path.name, "path": str(path), "units": list(units)})
    report = _node({"base": guard.BASE, "superlinear": guard.SUPERLINEAR, "floor": guard.FLOOR, "modules": modules})
    imported = {name.split(":")[0] for name, slow in report.items() if not (slow or "").startswith("cannot import")}
    assert {"paste.js", "check-core.js", "quirks-core.js", "filter.js", "search-words.js"} <= imported
    assert {name: slow for name, slow in report.items() if slow and not slow.startswith("cannot import")} == {}
