"""Fixtures for the tests at this level (helpers live in helpers.py so test modules can import them)."""
from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from functools import cached_property
from pathlib import Path

import pytest

from helpers import BASE_CHIPSET, problems_in, tree_files
from uasdb import relax_gc


def pytest_configure(config):
    relax_gc()  # as the CLI runs: the checker and the export build many objects that hold no cycles


@pytest.hookimpl(trylast=True)
def pytest_collection_finish():
    """The modules and test items collected live until the session ends: kept out of every later collection of
    cycles (gc.freeze), which otherwise walks them again and again (a second or two of CPU over the fast lane)."""
    gc.collect()
    gc.freeze()

# The content cache (records/cache.py) of a test session is the session's own, made empty and removed with it: what
# a test patched into the code (a counting wrapper, a broken rule) then never reaches a contributor's .cache/, nor a
# later session. UASDB_CACHE_DIR set by hand wins.
_SESSION_CACHE = tempfile.TemporaryDirectory(prefix="uasdb-test-cache-")
os.environ.setdefault("UASDB_CACHE_DIR", _SESSION_CACHE.name)


@pytest.fixture
def check_records(tmp_path):
    def run(adapters=(), chipsets=(BASE_CHIPSET,)):
        return problems_in(tmp_path, adapters, chipsets)
    return run


@pytest.fixture
def disk_tmp_path():
    """A temporary folder on a disk rather than in memory (make check keeps tmp_path in /dev/shm when it can), for
    tests of code that rightly refuses /dev, such as the probe's write benchmark."""
    with tempfile.TemporaryDirectory(dir="/var/tmp" if os.path.isdir("/var/tmp") else None, prefix="uasdb-test-") as name:
        yield Path(name)


class RealCatalog:
    """The real data/ as the tools see it, each part worked out once per test session on first use: `check` (what
    `uasdb validate` checks: records, problems, waivers), `site` and `generated_at` (what `uasdb export` builds,
    removed records included), `adapters` (the export's adapters by id), `verdicts` (the engine's Verdict per
    adapter id) and `export_dir` (the export written to disk, as `uasdb export --out` writes it).
    Tests only read these: each part's digest is taken when it is made and again at the session's end, and a
    difference fails the session (a test that needs to change something copies it first)."""

    def __init__(self, scratch: Path):
        from uasdb.records.database import LoadCache
        self._scratch = scratch
        self.digests: dict = {}
        # `check` and the export's own check read the same files: parsed and checked once (each call still gets
        # objects of its own, LoadCache unpickles them afresh).
        self._load_cache = LoadCache()

    def _digest(self, name: str) -> str:
        if name == "check":
            text = json.dumps([[str(r.path), r.data] for r in self.check.records], sort_keys=True, default=str)
            text += json.dumps([p.render() for p in self.check.problems])
        elif name == "_prepared":
            text = json.dumps(self._prepared, sort_keys=True, default=str)
        else:
            text = "\n".join(f"{path}:{hashlib.sha256(content).hexdigest()}"
                             for path, content in tree_files(self.export_dir).items())
        return hashlib.sha256(text.encode()).hexdigest()

    def _made(self, name: str, value):
        self.__dict__[name] = value
        self.digests[name] = self._digest(name)
        return value

    @cached_property
    def check(self):
        from uasdb.records.database import check
        with charged_to_session():
            return self._made("check", check(cache=self._load_cache))

    @cached_property
    def _prepared(self):
        from uasdb.publish.export import prepare
        with charged_to_session():
            prepared = prepare(cache=self._load_cache)
            assert prepared is not None, "data/ has errors: run `uasdb validate`"
            return self._made("_prepared", prepared)

    @property
    def site(self) -> dict:
        return self._prepared[0]

    @property
    def generated_at(self) -> str:
        return self._prepared[1]

    @cached_property
    def adapters(self) -> dict:
        return {a["id"]: a for a in self.site["adapters"]}

    @cached_property
    def verdicts(self) -> dict:
        from uasdb.verdicts.engine import adapter_verdict
        with charged_to_session():
            return {r.data["id"]: adapter_verdict(r.data) for r in self.check.records if r.kind == "adapter"}

    @cached_property
    def export_dir(self) -> Path:
        from uasdb.publish.export import write
        out = self._scratch / "export"
        site, generated_at = self.site, self.generated_at
        with charged_to_session():
            write(out, site, generated_at)
            return self._made("export_dir", out)

    def changed(self) -> list:
        return [name for name, digest in self.digests.items() if self._digest(name) != digest]


@pytest.fixture(scope="session")
def real_catalog(tmp_path_factory):
    """data/ checked, its verdicts and its export, shared by every test that reads the real data (RealCatalog)."""
    catalog = RealCatalog(tmp_path_factory.mktemp("real-catalog"))
    yield catalog
    assert catalog.changed() == [], "a test changed the shared real catalog: copy what you change"


@pytest.fixture
def real_verdicts(real_catalog) -> dict:
    """The engine's Verdict of each real adapter, by id (the shared real catalog's)."""
    return real_catalog.verdicts


# Outside the checkout, so every clone on a machine (CI's fresh one too) unpacks the tarball once: the file is named by
# the tarball's and the importer's digest, so a clone with another importer never reads another's.
KERNEL_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "uasdb-tests"


@pytest.fixture(scope="session")
def kernel_sources():
    """The files `uasdb import-kernel` reads from /usr/src/linux-source-6.12.tar.xz, decompressed once and kept in
    ~/.cache/uasdb-tests/ (XDG_CACHE_HOME) under the tarball's and the importer's SHA-256 (unpacking the tarball
    takes 10 to 30 s; a new tarball or a changed importer reads it again; a cache that cannot be written costs time)."""
    from uasdb.ingest.importers import kernel
    tarball = Path("/usr/src/linux-source-6.12.tar.xz")
    if not tarball.is_file():
        pytest.fail(f"{tarball} is missing: install the Debian package `linux-source-6.12` "
                    "(apt-get install linux-source-6.12); these tests check the committed files in data/ against it")
    digest = hashlib.sha256()
    with tarball.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    digest.update(Path(kernel.__file__).read_bytes())
    cached = KERNEL_CACHE / f"kernel-sources-{digest.hexdigest()[:32]}.json"
    if cached.is_file():
        return tarball, json.loads(cached.read_text(encoding="utf-8"))
    sources = kernel.read_sources(tarball)
    try:
        KERNEL_CACHE.mkdir(parents=True, exist_ok=True)
        for old in KERNEL_CACHE.glob("kernel-sources-*.json"):
            old.unlink(missing_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.part")  # parallel sessions each write their own, then rename
        partial.write_text(json.dumps(sources), encoding="utf-8")
        partial.replace(cached)
    except OSError:
        pass
    return tarball, sources


JS_BRIDGE = Path(__file__).parent / "js_bridge.mjs"


class JSError(AssertionError):
    """A JS expression threw (its stack is the message)."""


class NodeModules:
    """The site's pure JS modules in one Node process (tests/js_bridge.mjs), for tests that compare them with the
    Python they mirror: `call(module, expression, *args)` evaluates `expression` with `m` (the module) and `args`;
    `evaluate(function_source, arg)` calls a function given as text. Values come back through JSON."""

    def __init__(self, timeout: float = 120):
        self.timeout = timeout
        self.process = None
        self.asked = 0

    def _start(self):
        self.process = subprocess.Popen(
            ["node", "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(JS_BRIDGE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)

    def _ask(self, request: dict):
        if self.process is None or self.process.poll() is not None:
            self._start()
        self.asked += 1
        self.process.stdin.write(json.dumps(dict(request, id=self.asked)) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            self.stop()
            raise TimeoutError(f"the JS took longer than {self.timeout} s: {json.dumps(request)[:300]}")
        line = self.process.stdout.readline()
        if not line:
            self.stop()
            raise JSError("Node stopped (its stderr is above)")
        answer = json.loads(line)
        assert answer["id"] == self.asked
        if "error" in answer:
            raise JSError(answer["error"])
        return answer["value"]

    def call(self, module: str, expression: str, *args):
        return self._ask({"module": module, "expression": expression, "args": list(args)})

    def evaluate(self, function: str, arg=None):
        return self._ask({"function": function, "arg": arg})

    def stop(self):
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture(scope="session")
def js_modules():
    """The site's pure JS modules, run by Node (NodeModules): `js_modules.call("paste.js", "m.parseDmesg(args[0])",
    text)`. No browser: a module that needs a page is tested in tests/site/ with `watched_page`."""
    if shutil.which("node") is None:
        pytest.fail("Node is missing: `make node-tools` installs it (Debian's nodejs)")
    modules = NodeModules()
    yield modules
    modules.stop()


# --------------------------------------------------------------------------- test times and the fast lane's budget
# `pytest --times` prints the slowest 20 tests and each lane's total; `pytest --budget=2` (make check) fails a test
# whose own CPU time (this process and the commands it ran and waited for) exceeds 2 s, so a slow unit test is moved
# to a slower lane (mark it slow) or made faster when it is written. CPU time, not wall time: the machine the tests
# run on is often shared, and a budget that fails when a neighbour compiles would be ignored. Work done once for
# the whole session (the shared real catalog, a session fixture's setup) is not charged to the test that asked first.

LANES = ("browser", "reference", "slow", "realdata")
# Tests the budget does not apply to, each with why.
BUDGET_EXEMPT = {
    # runs every tests/js/*.test.mjs in one Node process (86 tests and growing); Node reports each one's time
    "tests/test_node_js.py::test_node_unit_tests_pass",
}
_SHARED_CPU = [0.0]


def _cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@contextlib.contextmanager
def charged_to_session():
    """Work shared by the whole session: its CPU time is not counted against the test that triggered it."""
    started = _cpu()
    try:
        yield
    finally:
        _SHARED_CPU[0] += _cpu() - started


def pytest_addoption(parser):
    group = parser.getgroup("uasdb test times")
    group.addoption("--times", action="store_true", help="print the slowest 20 tests and each lane's total time")
    group.addoption("--budget", type=float, default=None, metavar="SECONDS",
                    help="fail a test whose call takes more CPU seconds than this (make check: 2)")


def _lane(item) -> str:
    return next((lane for lane in LANES if item.get_closest_marker(lane)), "fast")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.uasdb_times = {}
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    started, shared = _cpu(), _SHARED_CPU[0]
    yield
    item.uasdb_times["setup_cpu"] = _cpu() - started - (_SHARED_CPU[0] - shared)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    started, shared, wall = _cpu(), _SHARED_CPU[0], time.perf_counter()
    yield
    item.uasdb_times["call_cpu"] = _cpu() - started - (_SHARED_CPU[0] - shared)
    item.uasdb_times["call_wall"] = time.perf_counter() - wall


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    times = getattr(item, "uasdb_times", {})
    report.user_properties.append(("lane", _lane(item)))
    if call.when == "call":
        report.user_properties.append(("cpu", times.get("call_cpu", 0.0) + times.get("setup_cpu", 0.0)))
        budget = item.config.getoption("budget")
        spent = times.get("call_cpu", 0.0)
        if budget is not None and report.passed and spent > budget and item.nodeid not in BUDGET_EXEMPT:
            report.outcome = "failed"
            report.longrepr = (f"{item.nodeid} took {spent:.2f} s of CPU, over the fast lane's budget of {budget:g} s: "
                               "make it faster, or mark it slow (pyproject.toml, markers) so `make test` runs it")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not config.getoption("times"):
        return
    rows = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if not isinstance(report, pytest.TestReport):
                continue
            row = rows.setdefault(report.nodeid, {"wall": 0.0, "cpu": 0.0, "lane": "fast"})
            row["wall"] += report.duration
            props = dict(report.user_properties)
            row["lane"] = props.get("lane", row["lane"])
            row["cpu"] += props.get("cpu", 0.0)
    write = terminalreporter.write_line
    for key in ("wall", "cpu"):  # on a shared machine wall time says more about the neighbours; CPU time does not
        terminalreporter.section(f"slowest 20 tests by {'wall' if key == 'wall' else 'CPU'} time "
                                 "(wall: setup + call + teardown; CPU: setup + call, with the commands waited for)")
        for nodeid, row in sorted(rows.items(), key=lambda kv: -kv[1][key])[:20]:
            write(f"{row['wall']:7.2f} s wall {row['cpu']:7.2f} s CPU  {row['lane']:9} {nodeid}")
    terminalreporter.section("lanes")
    for lane in ("fast", *LANES):
        in_lane = [r for r in rows.values() if r["lane"] == lane]
        if in_lane:
            write(f"{lane:9} {len(in_lane):5} tests {sum(r['wall'] for r in in_lane):8.1f} s wall "
                  f"{sum(r['cpu'] for r in in_lane):8.1f} s CPU")
    write(f"{'all':9} {len(rows):5} tests {sum(r['wall'] for r in rows.values()):8.1f} s wall "
          f"{sum(r['cpu'] for r in rows.values()):8.1f} s CPU (session work shared by tests: {_SHARED_CPU[0]:.1f} s CPU)")
