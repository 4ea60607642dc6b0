"""Fixtures for the website tests: one site built from the committed fixtures per session, served on loopback,
and Debian's Chromium driven by pytest-playwright (never a downloaded browser)."""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest

from uasdb.paths import REPO_ROOT
from uasdb.publish.export import export_tree
from uasdb.publish.sitebuild import LoopbackServer, build_site

FIXTURES = REPO_ROOT / "tests" / "fixtures"
SITE_DATA = FIXTURES / "site-data"
UNSAFE_DATA = FIXTURES / "site-data-unsafe"
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


class BuiltSite:
    def __init__(self, public: Path, url: str, export: dict):
        self.public = public
        self.url = url
        self.export = export

    def adapter(self, adapter_id: str) -> dict:
        return next(a for a in self.export["adapters"] if a["id"] == adapter_id)


def _serve_and_build(tmp: Path, data_dirs, ignore_rules=()):
    public = tmp / "public"
    public.mkdir(parents=True)
    server = LoopbackServer(public).start()
    export: dict = {}
    build_site(tmp, server.url, data_dirs, ignore_rules, catalog=export)
    return server, BuiltSite(public, server.url, export)


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The fixture site: schema-valid fixtures plus one record with unsafe Markdown, published with rule
    markdown-safe waived so the tests can prove the page still renders it inert."""
    server, built = _serve_and_build(tmp_path_factory.mktemp("fixture-site"), [SITE_DATA, UNSAFE_DATA],
                                     ignore_rules={"markdown-safe"})
    yield built
    server.stop()


@pytest.fixture(scope="session")
def real_site(tmp_path_factory):
    """The site built from the real data/."""
    server, built = _serve_and_build(tmp_path_factory.mktemp("real-site"), None)
    yield built
    server.stop()


def watch(page) -> list:
    """Record on `page.problems` (emptied for each test that takes the page) console errors, page errors, dialogs
    (dismissed) and every request leaving 127.0.0.1."""
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: page.problems.append(f"pageerror: {e}"))
    page.on("dialog", lambda d: (page.problems.append(f"dialog: {d.message}"), d.dismiss()))

    def outside(request):
        host = urlparse(request.url).hostname
        if request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            return
        page.problems.append(f"third-party request: {request.url}")
    page.on("request", outside)
    return page.problems


@pytest.fixture(scope="session")
def watch_page():
    """`watch_page(page)`: record on `page.problems` what watched_page records (watch()), for a page a test opens."""
    return watch


# Playwright's defaults for a new context, which SharedPage.reset puts back.
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}


class SharedPage:
    """One browser context and one watched page (watch()) that many tests take in turn, instead of a new context
    per test: a new context costs a renderer process and cold caches, about three times the page load itself.
    `take()` gives the page with its problems emptied, a new context and page if the last one crashed or was closed;
    `reset()` puts back what a test may leave behind: pages it opened, routes, permissions (the context's own are
    granted again), cookies, the viewport, emulated media and colour scheme, local and session storage, and the page
    itself (about:blank, so nothing of the last page still runs). A test that failed, or a reset that did not
    complete, discards the context, so the next test starts from a new one. A test that needs other context options
    (JavaScript off, a viewport or colour scheme from the start, routes before the first load) makes its own."""

    def __init__(self, browser, base_url: str, permissions=()):
        self.browser, self.base_url, self.permissions = browser, base_url, list(permissions)
        self.context = self.page = None

    def take(self):
        if self.page is None or self.page.is_closed() or self.page.crashed:
            self.discard()
            self.context = self.browser.new_context(base_url=self.base_url, permissions=self.permissions)
            self.page = self.context.new_page()
            self.page.crashed = False
            self.page.on("crash", lambda page: setattr(page, "crashed", True))
            watch(self.page)
        self.page.problems = []
        return self.page

    def reset(self) -> None:
        page, context = self.page, self.context
        if page is None:
            return
        try:
            for other in context.pages:
                if other is not page:
                    other.close()
            context.unroute_all(behavior="ignoreErrors")
            page.unroute_all(behavior="ignoreErrors")
            context.clear_permissions()
            if self.permissions:
                context.grant_permissions(self.permissions)
            context.clear_cookies()
            if page.viewport_size != DEFAULT_VIEWPORT:
                page.set_viewport_size(DEFAULT_VIEWPORT)
            page.emulate_media(media="null", color_scheme="light", reduced_motion="no-preference", forced_colors="none",
                               contrast="no-preference")
            if page.url.startswith(self.base_url + "/"):
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            page.goto("about:blank", timeout=10_000)
            page.problems = []
        except Exception:  # a page the test left unusable (hung, crashed, mid-navigation): the next test gets a new one
            self.discard()

    def discard(self) -> None:
        context, self.context, self.page = self.context, None, None
        if context is not None:
            with contextlib.suppress(Exception):
                context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.uasdb_failed = True  # the shared page's fixtures discard the page after a failed test
    return report


@contextlib.contextmanager
def taken(shared: SharedPage, request):
    page = shared.take()
    yield page
    if getattr(request.node, "uasdb_failed", False):
        shared.discard()
    else:
        shared.reset()


@pytest.fixture(scope="session")
def _site_page(browser, site):
    shared = SharedPage(browser, site.url)
    yield shared
    shared.discard()


@pytest.fixture
def watched_page(_site_page, request):
    """A page of the fixture site that records console errors, page errors, dialogs and every request leaving
    127.0.0.1 (page.problems); one page shared by the tests in turn and reset between them (SharedPage)."""
    with taken(_site_page, request) as page:
        yield page


@pytest.fixture(scope="session")
def _real_site_page(browser, real_site):
    shared = SharedPage(browser, real_site.url, permissions=["clipboard-read", "clipboard-write"])
    yield shared
    shared.discard()


@pytest.fixture
def real_page(_real_site_page, request):
    """As watched_page, on the site built from the real data/, with the clipboard permissions granted."""
    with taken(_real_site_page, request) as page:
        yield page


@pytest.fixture(scope="session")
def capture():
    """`capture(page, name)` saves a full-page screenshot as test-artifacts/<name>.png for people to look at, only
    when UASDB_SCREENSHOTS=1: a screenshot asserts nothing, and taking them costs more than the checks beside them."""
    def save(page, name: str) -> None:
        if os.environ.get("UASDB_SCREENSHOTS") == "1":
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    return save


@pytest.fixture(scope="session")
def site_export(tmp_path_factory):
    """The fixture site's export alone, as `site` builds it but without Hugo or a server (for tests of the JS modules,
    which need only the data): `export` (the catalog, as a JSON reader sees it) and `kernel` (/api/v1/kernel.json's
    result). The site's pure JS modules themselves are run by Node: the `js_modules` fixture (tests/conftest.py)."""
    out = tmp_path_factory.mktemp("fixture-export")
    exported = export_tree(out, [SITE_DATA, UNSAFE_DATA], ignore_rules={"markdown-safe"})
    assert exported is not None
    kernel = json.loads((out / "api" / "v1" / "kernel.json").read_text(encoding="utf-8"))["result"]
    return SimpleNamespace(export=json.loads(json.dumps(exported)), kernel=kernel)


@pytest.fixture(scope="module")
def axe_results(_site_page):
    """axe once per page state, both themes in one load: `axe_results(key, show, scheme)` takes the shared page,
    `show(page)` brings it to the state to check, axe runs, the page switches to dark (emulate_media: the site's
    themes are CSS media queries) and axe runs again (injected once); the same key later gets the recorded result
    of its theme."""
    from axe_playwright_python.base import AxeResults
    from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe
    axe, seen = Axe(), {}
    run = f"axe.run({axe._format_script_args(context=None, options=DEFAULT_OPTIONS)}).then((results) => results)"

    def results(key, show, scheme: str):
        if key not in seen:
            page = _site_page.take()
            try:
                assert page.evaluate("matchMedia('(prefers-color-scheme: light)').matches")
                show(page)
                page.evaluate(axe.axe_script)
                light = AxeResults(page.evaluate(run))
                page.emulate_media(color_scheme="dark")
                assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
                seen[key] = {"light": light, "dark": AxeResults(page.evaluate(run))}
            except BaseException:
                _site_page.discard()
                raise
            _site_page.reset()
        return seen[key][scheme]
    return results
