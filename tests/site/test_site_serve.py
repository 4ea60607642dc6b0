"""`make serve` (Hugo's server over the watcher's export): an edit that changes only a page's model (a report note,
a firmware note) shows in the served page within a second, as an edit that also changes pages.json does."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from uasdb.paths import REPO_ROOT
from uasdb.publish.files import PAGES_JSON
from uasdb.publish.sitebuild import hugo_binary, stage_site
from uasdb.publish.watch import State, refresh

pytestmark = pytest.mark.slow


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode("utf-8")


@pytest.fixture
def hugo_server(tmp_path):
    """The fixture records exported by the watcher and served by Hugo's server as `make serve` runs it (no polling:
    file-system events)."""
    site_dir = stage_site(tmp_path)
    data = tmp_path / "data"
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "site-data", data)
    out = site_dir / "data" / "generated"
    state = State()
    assert refresh(out, [data], state) == []
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "hugo-server.log"   # with what each rebuild checked (--logLevel info)
    server = subprocess.Popen([str(hugo_binary()), "server", "--bind", "127.0.0.1", "--port", str(port),
                               "--baseURL", url + "/", "--logLevel", "info"], cwd=site_dir,
                              stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        for _ in range(240):
            try:
                _get(url + "/adapters/")
                break
            except OSError:
                time.sleep(0.25)
        yield url, data, out, lambda: refresh(out, [data], state)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _shows_within(url: str, text: str, seconds: float) -> float:
    """Seconds until the page at `url` holds `text`; fails after `seconds`."""
    start = time.monotonic()
    while True:
        elapsed = time.monotonic() - start
        if text in _get(url):
            return elapsed
        assert elapsed < seconds, f"{url} does not show {text!r} {seconds} s after the export"
        time.sleep(0.05)


def test_a_model_only_edit_shows_in_the_served_page_within_a_second(hugo_server):
    url, data, out, re_export = hugo_server
    page = f"{url}/adapters/fixture-nice-sata/"
    assert "Synthetic report for the site tests." in _get(page)
    pages_before = (out / PAGES_JSON).read_bytes()
    record = data / "adapters" / "fixture-nice-sata.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("Synthetic report for the site tests.", "A report note edited live.", 1),
                      encoding="utf-8")
    assert re_export() == []
    # Only the model changed: a note is in no page's title, description or address, so pages.json is as it was.
    assert (out / PAGES_JSON).read_bytes() == pages_before
    _shows_within(page, "A report note edited live.", 1.0)
    # The API serves the new text too: the page's model, and a file that is no page's model (every adapter).
    assert "A report note edited live." in _get(f"{url}/api/v1/adapters/fixture-nice-sata.json")
    _shows_within(f"{url}/api/v1/adapters.json", "A report note edited live.", 1.0)


def test_a_rename_shows_on_its_page_and_where_another_page_links_it(hugo_server):
    """A product's name is held once (data/names.json): its page's title and the link to it from another product's
    expectation both read it there, so a rename shows on both without rewriting the other product's model."""
    url, data, out, re_export = hugo_server
    citing = out / "api" / "v1" / "adapters" / "fixture-naughty-jms.json"
    assert "fixture-second-jms" in citing.read_text(encoding="utf-8")  # its expectation links the renamed product
    model_before, pages_before = citing.read_bytes(), (out / PAGES_JSON).read_bytes()
    assert "Otherfixture Noboot dock" in _get(f"{url}/adapters/fixture-naughty-jms/")
    record = data / "adapters" / "fixture-second-jms.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("name: Otherfixture Noboot dock",
                                                                 "name: Otherfixture Renamed dock", 1), encoding="utf-8")
    assert re_export() == []
    assert citing.read_bytes() == model_before and (out / PAGES_JSON).read_bytes() == pages_before
    _shows_within(f"{url}/adapters/fixture-second-jms/", "<title>Otherfixture Renamed dock — uasdb</title>", 2.0)
    _shows_within(f"{url}/adapters/fixture-naughty-jms/", ">Otherfixture Renamed dock</a>", 2.0)
    assert "Otherfixture Noboot dock" not in _get(f"{url}/adapters/fixture-naughty-jms/")


def test_once_primed_a_save_is_checked_against_the_pages_shown_not_every_page(hugo_server, tmp_path):
    """The watcher primes Hugo's server once it answers (watch.ServerPrimer): Hugo then re-renders, and checks a
    change against, only the pages asked for since. Before, each rebuild checked every page it had rendered, which
    at 10,000 products cost 1.5 to 4 s a save."""
    import re

    from uasdb.publish.watch import ServerPrimer

    url, data, out, re_export = hugo_server
    log = tmp_path / "hugo-server.log"
    pages = int(re.search(r"Pages\s+│\s+(\d+)", log.read_text(encoding="utf-8")).group(1))

    record = data / "adapters" / "fixture-nice-sata.yaml"
    original = record.read_text(encoding="utf-8")

    def rebuilds() -> int:
        return log.read_text(encoding="utf-8").count("Total in")

    def edit_a_note(new: str) -> list[int]:
        """Edit the nice adapter's note, export, see it on its page; what Hugo's rebuilds checked meanwhile."""
        before = len(log.read_text(encoding="utf-8"))
        record.write_text(original.replace("Synthetic report for the site tests.", new, 1), encoding="utf-8")
        assert re_export() == []
        _shows_within(f"{url}/adapters/fixture-nice-sata/", new, 2.0)
        time.sleep(0.6)  # Hugo's rebuild is logged as it ends
        return [int(n) for n in re.findall(r"resolve page output change set .*?checked (\d+)",
                                           log.read_text(encoding="utf-8")[before:])]

    checked = edit_a_note("A note before priming, edited live.")
    assert checked and max(checked) >= pages  # every rendered page checked at least once
    built = rebuilds()
    assert ServerPrimer(url + "/", out, every=0).poll()
    deadline = time.monotonic() + 30
    while rebuilds() == built:  # the data change the primer made
        assert time.monotonic() < deadline, "Hugo's server never rebuilt after the primer"
        time.sleep(0.1)
    _get(f"{url}/adapters/fixture-nice-sata/")  # a browser shows the page
    checked = edit_a_note("A note after priming, edited live.")
    assert checked and max(checked) < pages // 4, checked  # the pages shown since, not all of them
    # A page not asked for since is rendered when it is, with its model as it is now.
    assert "Otherfixture Noboot dock" in _get(f"{url}/adapters/fixture-second-jms/")
