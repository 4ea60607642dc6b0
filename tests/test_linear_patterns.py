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


def _every_match(pattern: "re.Pattern[str]", text: str) -> float:
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
