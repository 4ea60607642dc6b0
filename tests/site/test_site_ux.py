"""What the buyer, the helper and the contributor rely on (issue 13): the report link, linkable search,
case-insensitive ID addresses, the 404 search, the check page's diagnosis, page order and what to buy."""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest
import yaml
from playwright.sync_api import expect

from uasdb.paths import REPO_ROOT

pytestmark = pytest.mark.browser

FORM = yaml.safe_load((REPO_ROOT / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml").read_text(encoding="utf-8"))
FORM_FIELDS = {item["id"] for item in FORM["body"] if "id" in item}


def form_link(href: str) -> dict:
    """The query of an "add your report" link, after checking it opens the adapter-report form."""
    url = urlparse(href)
    assert url.netloc == "github.com" and url.path.endswith("/issues/new"), href
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert query["template"] == "adapter-report.yml"
    assert query["labels"].split(",") == FORM["labels"]
    assert set(query) - {"template", "labels", "title"} <= FORM_FIELDS  # every other parameter is a form field
    return query


def test_adapter_page_report_link_opens_the_form_prefilled(watched_page, site):
    adapter = site.adapter("fixture-naughty-jms")
    watched_page.goto("/adapters/fixture-naughty-jms/")
    query = form_link(watched_page.get_by_role("link", name="Add your report").get_attribute("href"))
    first = adapter["usb_ids"][0]
    assert query["usb_id"] == f"{first['vid']}:{first['pid']}"
    assert query["adapter"] == "fixture-naughty-jms"
    assert query["title"] == f"{FORM['title']}{adapter['name']}"


def test_usb_page_without_products_report_link_names_the_id(watched_page, site):
    key = next(k for k, slot in site.export["usb"].items() if not slot.get("adapters"))
    vid, pid = key.split(":")
    watched_page.goto(f"/usb/{vid}/{pid}/")
    query = form_link(watched_page.get_by_role("link", name="add your report").get_attribute("href"))
    assert query["usb_id"] == key and "adapter" not in query


def test_home_report_link_opens_the_blank_form(watched_page):
    watched_page.goto("/")
    query = form_link(watched_page.get_by_role("link", name="Report it").get_attribute("href"))
    assert "usb_id" not in query


@pytest.mark.parametrize("path", ["/", "/wanted/", "/buy/pi4/", "/usb/058f/6387/", "/adapters/fixture-naughty-jms/"])
def test_every_report_link_opens_the_structured_form(watched_page, path):
    # A link without the template opens a blank issue that `uasdb from-issue` cannot read.
    watched_page.goto(path)
    links = watched_page.locator("main a[href*='/issues/new']")
    assert links.count() >= 1
    for href in [links.nth(i).get_attribute("href") for i in range(links.count())]:
        assert form_link(href)["template"] == "adapter-report.yml", href


def test_check_report_link_carries_the_pasted_id(watched_page):
    page = watched_page
    page.goto("/check/")
    page.locator("#check-paste").fill("0bda:9999")
    page.get_by_role("button", name="Check").click()
    page.locator(".found").wait_for()
    query = form_link(page.locator(".found").get_by_role("link", name="Add your report").get_attribute("href"))
    assert query["usb_id"] == "0bda:9999"
    assert query["title"] == f"{FORM['title']}0bda:9999"


def run_search(page, query):
    page.get_by_role("searchbox").first.fill(query)
    page.locator(".search-status").filter(has_text=re.compile(r"result|No matches")).first.wait_for()


def test_search_round_trips_through_the_address(watched_page):
    page = watched_page
    page.goto("/")
    run_search(page, "JMS567")
    assert parse_qs(urlparse(page.url).query) == {"q": ["JMS567"]}
    page.get_by_text("Filters", exact=True).click()
    page.get_by_label("Chipset", exact=True).select_option("JMS567")
    expect(page).to_have_url(re.compile(r"\?q=JMS567&chipset=JMS567$"))
    linked = page.url
    page.goto(linked)  # the linked search runs on load with its query and filter
    page.locator(".search-status").filter(has_text="result").wait_for()
    assert page.get_by_role("searchbox").input_value() == "JMS567"
    assert page.get_by_label("Chipset", exact=True).input_value() == "JMS567"
    assert page.locator(".results li").count() >= 1
    run_search(page, "")
    expect(page).to_have_url(re.compile(r"/\?chipset=JMS567$"))  # the filter stays, the query goes
    assert page.problems == []


def test_an_id_search_puts_the_id_page_first(watched_page):
    page = watched_page
    page.goto("/?q=152D:0578")
    page.locator(".search-status").filter(has_text="result").wait_for()
    assert page.locator(".results li a.result-title").first.get_attribute("href") == "/usb/152d/0578/"
    assert page.locator(".search-id-note").is_hidden()


def test_an_id_no_product_reports_says_so_and_names_the_vendor(watched_page):
    page = watched_page
    page.goto("/?q=0bc2:5e5e")  # Seagate's vendor ID with a product ID nothing in the export knows
    note = page.locator(".search-id-note")
    note.wait_for()
    text = note.inner_text()
    assert "No product in uasdb reports 0bc2:5e5e" in text
    # The vendor sentence reads as words, not as an array's String() ("vendor ,[object HTMLElement], …").
    assert "usb.ids names vendor 0bc2 Seagate RSS LLC. Results below" in text
    assert "[object" not in text and "," not in text.split("Results below")[0]
    assert note.get_by_role("link", name="Check this ID").get_attribute("href") == "/check/?ids=0bc2:5e5e"
    assert form_link(note.get_by_role("link", name="add your report").get_attribute("href"))["usb_id"] == "0bc2:5e5e"


def test_results_carry_verdict_badges_and_spaced_snippets(watched_page, site):
    page = watched_page
    page.goto("/?q=Quirkcable")
    first = page.locator(".results li").first
    first.locator(".result-badges .badge").first.wait_for()
    badges = first.locator(".result-badges").inner_text()
    assert "Pi 4: Needs quirk" in badges
    # No two facts of a page run together in a snippet ("JMicronSATAusb3-gen1…"): each is a word of its own.
    page.goto("/?q=JMS567")
    page.locator(".results li").nth(2).wait_for()
    excerpts = " ".join(page.locator(".results li p.small").all_inner_texts())
    assert {"JMicron", "SATA", "usb3-gen1", "Fixturebrand", "QC-200"} <= set(re.findall(r"[\w.-]+", excerpts)), excerpts


@pytest.mark.parametrize("path", ["/usb/152D/0578/", "/usb/152D/0578"])
def test_upper_case_id_address_reaches_the_id_page(watched_page, path):
    page = watched_page
    page.goto(path)
    expect(page).to_have_url(re.compile(r"/usb/152d/0578/$"))
    assert "152d:0578" in page.locator("h1").inner_text()


@pytest.mark.parametrize("path", ["//evil.example/usb/ABCD/1234/", "/%2F%2Fevil.example/usb/ABCD/1234/",
                                  "/%5Cevil.example/usb/ABCD/1234/", "/usb/%E0%A4%A/"])
def test_the_404_page_never_leaves_the_site(watched_page, site, path):
    page = watched_page
    page.goto(site.url + path)
    # The script decides first whether to redirect (an ID in capitals), and only when it does not, fills the box
    # with the words of the path: once the box is filled, no redirect is coming.
    expect(page.get_by_role("searchbox")).not_to_have_value("")
    assert page.url.startswith(site.url + "/") and page.locator("h1").inner_text() == "Page not found"
    # The page's own 404 status is logged; nothing else may be: no request off the site, no script error.
    assert [p for p in page.problems if "status of 404" not in p] == []


def test_404_offers_the_search_prefilled_from_the_address(watched_page):
    page = watched_page
    page.goto("/usb/0BC2/5E5E/")  # an ID with no page: the lower-case address is a 404 too, with the search
    expect(page).to_have_url(re.compile(r"/usb/0bc2/5e5e/$"))
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.get_by_role("searchbox").input_value() == "0bc2:5e5e"
    page.locator(".search-id-note").wait_for()
    note = page.locator(".search-id-note").inner_text()
    assert "No product in uasdb reports 0bc2:5e5e" in note
    assert "usb.ids names vendor 0bc2 Seagate RSS LLC." in note and "[object" not in note
    page.goto("/adapters/quirkcable-thing/")
    assert page.get_by_role("searchbox").input_value() == "quirkcable thing"
    page.locator(".search-status").filter(has_text=re.compile(r"result|No matches")).wait_for()


TROUBLED_DMESG = """\
[    5.101] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd
[    5.122] usb 2-1: New USB device found, idVendor=174c, idProduct=55aa, bcdDevice= 1.00
[    5.130] scsi host0: uas
[   61.402] sd 0:0:0:0: [sda] tag#3 uas_eh_abort_handler 0 uas-tag 4 inflight: CMD OUT
[   61.410] scsi host0: uas_eh_device_reset_handler start
[   61.530] usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd
[   61.610] I/O error, dev sda, sector 2048 op 0x1:(WRITE) flags 0x0 phys_seg 1 prio class 0
"""

USB_STORAGE_PASTE = """\
Bus 002 Device 002: ID 0bc2:2322 Seagate RSS LLC
/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M
    |__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=usb-storage, 5000M
"""


def check(page, text, platform=None):
    page.goto("/check/")
    if platform:
        page.get_by_label("Your computer").select_option(platform)
    page.locator("#check-paste").fill(text)
    page.get_by_role("button", name="Check").click()
    page.locator(".check-status").filter(has_text=re.compile(r"^(Found|No)")).wait_for()


def test_check_surfaces_uas_trouble_next_to_the_device_even_when_reports_say_it_works(watched_page, site):
    page = watched_page
    check(page, TROUBLED_DMESG)
    section = page.locator('section.found[data-usb-id="174c:55aa"]')
    flag = section.locator('[data-flag="dmesg-trouble"]')
    text = flag.inner_text()
    # One aborted command and one round of resets (its start line; the USB reset inside it is the same round).
    assert "1 aborted or timed-out command, 1 reset, 1 I/O error" in text
    assert "uas_eh_abort_handler" in flag.locator("pre").inner_text()
    assert "uas_eh_device_reset_handler start" in flag.locator("pre").inner_text()
    assert page.problems == []


def test_check_bare_id_says_what_the_paste_lacks(watched_page):
    page = watched_page
    check(page, "174c:55aa")
    text = page.locator('section.found[data-usb-id="174c:55aa"]').inner_text()
    assert "(from )" not in text
    assert "only the ID" in text
    # A bare ID says nothing about its USB class, so the status does not call it "0 storage".
    assert page.locator(".check-status").inner_text() == "Found 1 USB ID."


@pytest.mark.parametrize("platform, reason", [
    ("pi4", "The paste does not say why"),
    ("pi3", "On Raspberry Pi 3 and older, there is no USB 3 host and so no UAS"),
])
def test_check_explains_a_usb_storage_binding(watched_page, platform, reason):
    page = watched_page
    check(page, USB_STORAGE_PASTE, platform)
    flag = page.locator('section.found[data-usb-id="0bc2:2322"] [data-flag="why-usb-storage"]')
    assert reason in flag.inner_text()


def test_check_names_the_vendor_of_an_unknown_id(watched_page):
    page = watched_page
    check(page, USB_STORAGE_PASTE)
    section = page.locator('section.found[data-usb-id="0bc2:2322"]')
    assert "Seagate" in section.locator("[data-usbids-vendor]").inner_text()


def test_adapter_page_is_in_the_buyers_order(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    headings = page.locator("main h2").all_inner_texts()
    order = ["Verdicts", "The product", "What to do", "Throughput", "Reports", "What Linux"]
    positions = [next(i for i, h in enumerate(headings) if h.startswith(word)) for word in order]
    assert positions == sorted(positions), headings
    assert page.locator("#quirk").locator("xpath=..").locator("#quirk-line").count() == 1


def test_throughput_bars_say_what_produced_them(watched_page, site):
    adapter = site.adapter("fixture-naughty-jms")
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    labels = page.locator("svg.bars .bar-source").all_text_contents()
    bars = [b for panel in adapter["throughput_chart"] for b in panel["bars"]]
    assert len(labels) == len(bars)
    for label, bar in zip(labels, bars, strict=True):
        assert bar["host_label"] in label and bar["drive_label"] in label and f"report {bar['report']}" in label
    assert page.locator("svg.bars .bar-label").first.text_content().startswith(f"{bars[0]['value']:g} MB/s · ")


def test_chipset_page_opens_with_how_its_adapters_fare(watched_page, site):
    chipset = next(c for c in site.export["chipsets"] if c["id"] == "jms567")
    page = watched_page
    page.goto("/chipsets/jms567/")
    fare = page.get_by_role("list", name="How its adapters fare")
    text = fare.inner_text()
    for row in chipset["platform_summary"]:
        assert f"{row['label']}: UAS: {row['text']}" in text
        if "boot" in row:  # booting is counted beside UAS on a Pi
            assert f"booting: {row['boot']['text']}" in text
    pi4 = next(r for r in chipset["platform_summary"] if r["platform"] == "pi4")
    assert pi4["tested"] >= 1 and " of " in pi4["text"]
    # It comes before the facts and the adapter table.
    assert page.locator("main ul.fare ~ dl.facts").count() == 1


def test_adapters_table_fits_1280_px(browser, site):
    context = browser.new_context(base_url=site.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto("/adapters/")
    sizes = page.evaluate("""() => ({table: document.querySelector('table.adapters').getBoundingClientRect().width,
                                      main: document.querySelector('main').getBoundingClientRect().width})""")
    context.close()
    assert sizes["table"] <= sizes["main"] + 1, sizes


def test_adapters_table_on_a_phone_is_one_line_rows_with_a_sort_control(browser, site):
    context = browser.new_context(base_url=site.url, viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto("/adapters/")
    rows = page.locator("table.adapters tbody tr")
    heights = rows.evaluate_all("rows => rows.map(r => r.getBoundingClientRect().height)")
    assert heights and max(heights) < 48, heights  # one line each, not an 11-line card
    assert page.locator("table.adapters td[data-label='Chipset']").first.is_hidden()
    sort = page.get_by_label("Sort by")
    assert sort.is_visible()
    sort.select_option(label="Pi 4")
    ranks = rows.evaluate_all("rows => rows.map(r => Number(r.querySelector('[data-label=\"Pi 4\"]').dataset.sort))")
    assert ranks == sorted(ranks)
    context.close()


def test_filters_have_clean_labels(watched_page, site):
    page = watched_page
    page.goto("/")
    options = page.locator("select[data-filter] option").all_text_contents()
    for raw in ("m2-sata", "nvme", "sata", "unknown", "unbranded or unknown"):
        assert raw not in options, options
    assert "NVMe" in page.get_by_label("Drive", exact=True).locator("option").all_text_contents()
    assert page.get_by_label("Drive", exact=True).is_hidden()  # folded away until asked for


def test_what_to_buy_ranks_orderable_products_by_evidence(watched_page, site):
    page = watched_page
    ranking = site.export["buy"]["pi4"]
    assert ranking["products"], "the fixtures have products tested on a Pi 4"
    page.goto("/buy/pi4/")
    assert page.locator("h1").inner_text() == "What to buy for Raspberry Pi 4"
    rows = page.locator("section[data-buy-group]:not([data-buy-group=avoid]) table.buy-table tbody tr")
    assert rows.count() == len(ranking["products"])
    for group in {p["group"] for p in ranking["products"]}:  # each product under its group's heading
        section = page.locator(f"section[data-buy-group={group}]")
        members = [f"/adapters/{p['id']}/" for p in ranking["products"] if p["group"] == group]
        assert section.locator("tbody th a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))") == members
        assert f"({len(members)})" in section.locator("h2").inner_text()
    for i, product in enumerate(ranking["products"]):
        row = rows.nth(i)
        assert row.locator("th a").get_attribute("href") == f"/adapters/{product['id']}/"
        assert f"{product['vendor']} {product['model']}" in row.locator("th a").inner_text()
        assert product["uas"]["basis_text"] in row.inner_text()  # every verdict shows its basis
    groups = [p["group"] for p in ranking["products"]]
    assert groups == sorted(groups, key=["recommended", "pending", "other"].index)  # recommended first
    for group in set(groups):
        ranks = [p["uas"]["rank"] for p in ranking["products"] if p["group"] == group]
        assert ranks == sorted(ranks)
    assert [p["id"] for p in ranking["top"]] == [p["id"] for p in ranking["products"] if p["recommended"]][:3]
    avoid = page.locator("section[aria-labelledby=avoid] table.buy-table tbody tr th a")
    assert avoid.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))") == [
        f"/adapters/{p['id']}/" for p in ranking["avoid"]]
    for platform in ("pi5", "linux", "mac"):
        assert page.locator(f'.buy-tabs a[href="/buy/{platform}/"]').count() == 1
    assert page.problems == []


def test_home_puts_search_first_then_best_picks_and_latest_reports(watched_page, site):
    page = watched_page
    page.goto("/")
    order = page.evaluate("""() => [...document.querySelectorAll('main > *')].map(e => e.id || e.className || e.tagName)""")
    assert order.index("search") < order.index("lead")
    picks = page.locator("#picks ~ ul.picks")
    assert picks.locator('a[href="/buy/pi4/"]').count() == 1
    for pid in site.export["buy"]["pi4"]["recommended"][:3]:
        assert picks.locator(f'a[href="/adapters/{pid}/"]').count() == 1
    latest = page.locator("ul.latest li")
    assert latest.count() == len(site.export["latest_reports"]) >= 1
    first = site.export["latest_reports"][0]
    assert first["date"] in latest.first.inner_text()


@pytest.fixture
def served_site(tmp_path):
    """`make serve` in small: the fixture records, the watcher's export and Hugo's live-reloading server."""
    import shutil
    import socket
    import subprocess
    import time
    import urllib.request

    from uasdb.publish.sitebuild import hugo_binary, stage_site
    from uasdb.publish.watch import refresh

    site_dir = stage_site(tmp_path)
    data = tmp_path / "data"
    shutil.copytree(REPO_ROOT / "tests" / "fixtures" / "site-data", data)
    out = site_dir / "data" / "generated"
    assert refresh(out, [data]) == []
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([str(hugo_binary()), "server", "--bind", "127.0.0.1", "--port", str(port), "--baseURL", url + "/",
                               "--poll", "300ms"], cwd=site_dir,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/adapters/", timeout=1)
                break
            except OSError:
                time.sleep(0.25)
        yield url, data, lambda: refresh(out, [data])
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_make_serve_reloads_a_data_edit_and_shows_its_errors(browser, served_site):
    url, data, re_export = served_site
    context = browser.new_context()
    page = context.new_page()
    # The open page reloads when Hugo's server tells it to over its live-reload socket, and Hugo says so once: a
    # reload sent while the page is between loads (its socket closed) is lost. So edit only once the page listens
    # again after its last load and Hugo has sent nothing for two seconds (a rename's full rebuild reloads it twice).
    state = {"hello": False, "loads": 0}

    def navigated(frame):
        if frame == page.main_frame:
            state.update(hello=False, loads=state["loads"] + 1)

    page.on("framenavigated", navigated)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: "hello" in str(f) and state.update(hello=True)))

    def listening() -> None:
        for _ in range(400):
            loads = state["loads"]
            if state["hello"]:
                page.wait_for_timeout(2000)
                if state["hello"] and state["loads"] == loads:
                    return
            else:
                page.wait_for_timeout(50)
        raise AssertionError("the page never connected to Hugo's live reload")

    page.goto(f"{url}/adapters/fixture-nice-sata/")
    listening()
    assert "Goodcase" in page.locator("h1").inner_text()
    record = data / "adapters" / "fixture-nice-sata.yaml"
    record.write_text(record.read_text(encoding="utf-8").replace("Goodcase", "Greatcase", 1), encoding="utf-8")
    assert re_export() == []
    expect(page.locator("h1")).to_contain_text("Greatcase", timeout=20000)  # the open page reloads by itself
    # Hugo's server re-renders the open page first (fast render); a page not open yet shows the edit too.
    other = context.new_page()
    other.goto(f"{url}/adapters/")
    expect(other.get_by_role("link", name=re.compile("Greatcase"))).to_be_visible(timeout=20000)
    other.close()
    listening()
    record.write_text(record.read_text(encoding="utf-8").replace("kind:", "kind_typo:", 1), encoding="utf-8")
    problems = re_export()
    assert problems
    overlay = page.locator("[data-serve-errors]")
    expect(overlay).to_contain_text("fixture-nice-sata.yaml", timeout=20000)
    assert "Greatcase" in page.locator("h1").inner_text()  # the last good data stays
    context.close()


def test_what_to_buy_fits_a_phone_with_the_verdicts_in_view(browser, site):
    context = browser.new_context(base_url=site.url, viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto("/buy/pi4/")
    widths = page.evaluate("""() => { const t = document.querySelector('table.buy-table');
                                        return [t.getBoundingClientRect().width, t.parentElement.clientWidth]; }""")
    assert widths[0] <= widths[1] + 1, widths
    assert page.locator("table.buy-table tbody tr").first.locator(".badge").first.is_visible()
    context.close()


def test_home_latest_reports_link_to_the_report_row(watched_page, site):
    page = watched_page
    page.goto("/")
    first = site.export["latest_reports"][0]
    href = page.locator("ul.latest li a").first.get_attribute("href")
    assert href == f"/adapters/{first['adapter']}/#report-{first['report']}"


def test_adapter_table_names_the_vendor_when_the_product_name_does_not(watched_page, site):
    # The table has no vendor column (it must fit 1,280 px), so a name like "USB 3.0 to SATA adapter" needs its vendor.
    page = watched_page
    page.goto("/adapters/")
    rows = [a for a in site.export["adapters"] if a.get("vendor") and a["vendor_label"].lower() not in a["name"].lower()]
    assert rows, "the fixture data needs a product whose name omits its vendor"
    a = rows[0]
    cell = page.locator(f'table th[scope=row]:has(a[href="/adapters/{a["id"]}/"])').first
    assert a["vendor_label"] in cell.inner_text()
    named = next(a for a in site.export["adapters"] if a.get("vendor") and a["vendor_label"].lower() in a["name"].lower())
    cell = page.locator(f'table th[scope=row]:has(a[href="/adapters/{named["id"]}/"])').first
    assert cell.locator(".row-vendor").count() == 0


def test_check_page_badges_match_the_adapter_page(watched_page):
    """The check page draws verdict badges in JavaScript and adapter pages in the template; both take the words,
    tone and icon from the export, so one adapter's Pi 4 badge reads the same in both places."""
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    row = page.locator("table.verdicts tr").filter(has=page.locator("th", has_text=re.compile(r"^Raspberry Pi 4$")))
    on_page = row.locator('td[data-label="UAS"] .badge')
    expected = (on_page.get_attribute("class"), on_page.inner_text())
    check(page, "152d:0578", "pi4")
    badge = page.locator('section.found[data-usb-id="152d:0578"] .matches .badge').first
    assert (badge.get_attribute("class"), badge.inner_text()) == expected
    assert badge.locator(".badge-icon").inner_text() in "✓!–✗?"


def test_an_expectation_is_shown_as_one_never_as_a_verdict(watched_page, site):
    """fixture-nice-sata is used at 5 Gbit/s on a Pi 4 and has no Pi 5 report: its Pi 5 row keeps "Untested" and
    shows, apart and outlined, what the Pi 4 evidence says. The fixture's own leave-one-out has not shown that kind
    of evidence beating the baseline, so no expectation is made of it: the page lists the evidence and says it does
    not predict, and the Pi 5 what-to-buy page neither ranks it nor lists it as expected."""
    expected = site.adapter("fixture-nice-sata")["expected"]["uas"]["pi5"]
    assert (expected["state"], expected["verdict"]) == ("hints", None) and "does not predict" in expected["note"]
    page = watched_page
    page.goto("/adapters/fixture-nice-sata/")
    row = page.locator("table.verdicts tr", has=page.locator("th", has_text="Raspberry Pi 5"))
    assert row.locator(".badge").first.inner_text().strip().endswith("Untested")
    cell = row.locator("td[data-label=UAS]")
    badge = cell.locator("[data-expectation=hints] .badge.tone-expect")
    assert badge.inner_text().strip() == f"≈ {expected['short']}"
    cell.locator("[data-expectation=hints] summary").click()
    assert expected["basis"][0]["summary"] in cell.inner_text() and "does not predict" in cell.inner_text()
    page.goto("/buy/pi5/")
    ranked = page.locator("table.buy-table a").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
    assert "/adapters/fixture-nice-sata/" not in ranked
    assert page.locator('section[aria-labelledby=expected] a[href="/adapters/fixture-nice-sata/"]').count() == 0
    assert site.export["buy"]["pi5"]["counts"]["with_verdict"] == len(site.export["buy"]["pi5"]["products"]) + len(
        site.export["buy"]["pi5"]["avoid"])


def test_the_check_page_shows_the_ids_exported_expectation(watched_page, site):
    usb = site.export["usb"]["152d:0578"]
    platform, expected = next((p, e) for p, e in usb["expected"].items() if e["state"] != "none")
    page = watched_page
    page.goto(f"/check/?ids=152d:0578&platform={platform}")
    found = page.locator("[data-usb-id='152d:0578'] dd[data-expectation]")
    expect(found).to_contain_text(expected["short"])
    assert found.get_attribute("data-expectation") == expected["state"]


def test_an_expectation_links_the_products_it_rests_on_by_name(watched_page, site):
    """A group of related products is named once, each name a link to its product (not its id)."""
    basis = site.adapter("fixture-second-jms")["expected"]["uas"]["pi5"]["basis"]
    item = next(b for b in basis if b.get("adapters"))
    page = watched_page
    page.goto("/adapters/fixture-second-jms/")
    row = page.locator("table.verdicts tr", has=page.locator("th", has_text="Raspberry Pi 5"))
    row.locator("td[data-label=UAS] summary").click()
    line = row.locator("td[data-label=UAS] li", has_text=item["summary"])
    assert line.count() == 1
    link = line.get_by_role("link", name=site.adapter(item["adapters"][0])["name"])
    assert link.get_attribute("href") == f"/adapters/{item['adapters'][0]}/"
    assert item["adapters"][0] not in line.inner_text()  # the id is the address, not the words
    assert page.problems == []


SPLIT_WORDS = """() => {
  // Words (split at spaces, hyphens and commas) of product names, badges and Linux's flag names that the
  // layout cut across two lines.
  const split = [];
  for (const el of document.querySelectorAll('table th a, table td a, table .badge, table td.kernel-flags')) {
    if (!el.getClientRects().length) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\-,]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) split.push(m[0]);
      }
    }
  }
  return split;
}"""


@pytest.mark.parametrize(("path", "width"), [
    ("/buy/pi4/", 390), ("/buy/pi5/", 390), ("/adapters/", 390), ("/naughty/", 390), ("/usb/", 390), ("/usb/", 1280)])
def test_names_and_badges_do_not_break_mid_word(browser, real_site, path, width):
    """A long name wraps between words ("StarTech.com" stays whole), as do a badge and a flag (IGNORE_RESIDUE)."""
    context = browser.new_context(base_url=real_site.url, viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(path)
    assert page.evaluate(SPLIT_WORDS) == []
    context.close()
