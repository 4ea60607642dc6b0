"""Runs the pure-JS unit tests in tests/js/ with Node's own test runner: the site's JS modules that need no page
(parsers, link readers, filters) are tested there, in the fast lane. All files run in one Node process
(tests/js/run-all.mjs imports each): `node --test` starts one per file, which cost more than the tests."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


@pytest.mark.skipif(shutil.which("node") is None, reason="make node-tools installs Node")
def test_node_unit_tests_pass():
    assert sorted(JS_TESTS.glob("*.test.mjs")), "tests/js/ holds no *.test.mjs"
    run = subprocess.run(["node", "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "--test-reporter=tap",
                          str(JS_TESTS / "run-all.mjs")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    counts = dict(re.findall(r"^# (tests|pass|fail) (\d+)$", run.stdout, re.M))
    assert counts.get("fail") == "0" and int(counts.get("tests", 0)) > 0 and counts["pass"] == counts["tests"], \
        run.stdout[-3000:]
