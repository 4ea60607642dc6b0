"""Runs the pure-JS unit tests in tests/js/ with Node's own test runner (node --test): the site's JS modules that
need no page (parsers, link readers, filters) are tested there, in the fast lane."""
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).parent / "js"


@pytest.mark.skipif(shutil.which("node") is None, reason="make node-tools installs Node")
def test_node_unit_tests_pass():
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.mjs"))
    assert files, "tests/js/ holds no *.test.mjs"
    run = subprocess.run(["node", "--test", *files], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
