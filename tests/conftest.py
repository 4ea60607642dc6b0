"""Fixtures for the tests at this level (helpers live in helpers.py so test modules can import them)."""
from __future__ import annotations

import hashlib
import json
import select
import shutil
import subprocess
from functools import cached_property
from pathlib import Path

import pytest

from helpers import BASE_CHIPSET, REPO, problems_in


@pytest.fixture
def check_records(tmp_path):
    def run(adapters=(), chipsets=(BASE_CHIPSET,)):
        return problems_in(tmp_path, adapters, chipsets)
    return run


class RealCatalog:
    """The real data/ as the tools see it, each part worked out once per test session on first use: `check` (what
    `uasdb validate` checks: records, problems, waivers), `site` and `generated_at` (what `uasdb export` builds,
    removed records included), `adapters` (the export's adapters by id), `verdicts` (the engine's Verdict per
    adapter id) and `export_dir` (the export written to disk, as `uasdb export --out` writes it).
    Tests only read these: each part's digest is taken when it is made and again at the session's end, and a
    difference fails the session (a test that needs to change something copies it first)."""

    def __init__(self, scratch: Path):
        self._scratch = scratch
        self.digests: dict = {}

    def _digest(self, name: str) -> str:
        if name == "check":
            text = json.dumps([[str(r.path), r.data] for r in self.check.records], sort_keys=True, default=str)
            text += json.dumps([p.render() for p in self.check.problems])
        elif name == "_prepared":
            text = json.dumps(self._prepared, sort_keys=True, default=str)
        else:
            text = "\n".join(f"{p.relative_to(self.export_dir)}:{hashlib.sha256(p.read_bytes()).hexdigest()}"
                             for p in sorted(self.export_dir.rglob("*")) if p.is_file())
        return hashlib.sha256(text.encode()).hexdigest()

    def _made(self, name: str, value):
        self.__dict__[name] = value
        self.digests[name] = self._digest(name)
        return value

    @cached_property
    def check(self):
        from uasdb.records.database import check
        return self._made("check", check())

    @cached_property
    def _prepared(self):
        from uasdb.publish.export import prepare
        prepared = prepare()
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
        return {r.data["id"]: adapter_verdict(r.data) for r in self.check.records if r.kind == "adapter"}

    @cached_property
    def export_dir(self) -> Path:
        from uasdb.publish.export import write
        out = self._scratch / "export"
        write(out, self.site, self.generated_at)
        return self._made("export_dir", out)

    def changed(self) -> list:
        return [name for name, digest in self.digests.items() if self._digest(name) != digest]


@pytest.fixture(scope="session")
def real_catalog(tmp_path_factory):
    """data/ checked, its verdicts and its export, shared by every test that reads the real data (RealCatalog)."""
    catalog = RealCatalog(tmp_path_factory.mktemp("real-catalog"))
    yield catalog
    assert catalog.changed() == [], "a test changed the shared real catalog: copy what you change"


KERNEL_CACHE = REPO / ".test-cache"


@pytest.fixture(scope="session")
def kernel_sources():
    """The files `uasdb import-kernel` reads from /usr/src/linux-source-6.12.tar.xz, decompressed once and kept in
    .test-cache/ under the tarball's and the importer's SHA-256 (unpacking the tarball takes half a minute; a new
    tarball or a changed importer reads it again)."""
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
    KERNEL_CACHE.mkdir(exist_ok=True)
    for old in KERNEL_CACHE.glob("kernel-sources-*.json"):
        old.unlink()
    partial = cached.with_suffix(".part")
    partial.write_text(json.dumps(sources), encoding="utf-8")
    partial.replace(cached)
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
