"""What a reader sees on each kind of page, built from the committed fixtures."""
from __future__ import annotations

import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_home_answers_the_question_and_links_everything(watched_page, site):
    page = watched_page
    page.goto("/")
    assert "Raspberry Pi" in page.locator("h1").inner_text()
    assert page.get_by_role("searchbox").is_visible()
    counts = page.locator(".counts").inner_text()
    assert f"{site.export['counts']['adapters']} adapters" in counts
    assert f"{site.export['counts']['naughty']} on the naughty list" in counts
    for href in ("/naughty/", "/nice/", "/adapters/"):
        assert page.locator(f'main a[href="{href}"]').count() >= 1
    for href, name in (("/check/", "Check my adapter"), ("/quirks/", "Quirk builder")):  # the tools, from home and nav
        assert page.locator(f'main a[href="{href}"]').count() == 1
        assert page.get_by_role("navigation", name="Main").get_by_role("link", name=name).get_attribute("href") == href
    assert page.get_by_role("link", name="Report it").get_attribute("href").startswith("https://github.com/")
    assert page.problems == []


def test_adapter_page_shows_verdicts_quirk_and_every_report(watched_page, site):
    adapter = site.adapter("fixture-naughty-jms")
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/")
    assert page.locator("h1").inner_text() == adapter["name"]
    assert adapter["summary"] in page.locator(".summary").inner_text()
    verdicts = page.locator("table.verdicts")
    for label in ("Raspberry Pi 4", "Raspberry Pi 5", "Raspberry Pi 3 and older", "Linux PC", "macOS"):
        assert verdicts.get_by_role("rowheader", name=label).count() == 1
    pi4 = verdicts.locator("tr", has=page.get_by_role("rowheader", name="Raspberry Pi 4"))
    assert "Needs quirk" in pi4.inner_text()  # words, not colour alone
    assert "Boots" in pi4.inner_text()
    assert page.locator("#quirk-line").inner_text().replace("\n", "") == adapter["verdict"]["quirk_line"]
    where = page.locator(".quirk-where").inner_text()
    assert "/boot/firmware/cmdline.txt" in where and "/boot/cmdline.txt" in where
    assert page.locator('a[href="/usb/152d/0578/"]').count() >= 1
    assert page.locator('a[href="/chipsets/jms567/"]').count() >= 1
    assert "1.2.3" in page.locator("#firmware ~ ul").inner_text()
    for number, report in enumerate(adapter["reports"], start=1):
        row = page.locator(f"#report-{number}")
        assert row.count() == 1
        assert row.locator(f'a[href="{report["source"]["url"]}"]').count() == 1
    assert page.locator("tr.report-more details summary").first.inner_text().startswith("Details and evidence")
    assert page.locator("details pre").first.is_hidden()  # evidence waits behind the disclosure
    edit = page.get_by_role("link", name="Edit this record").get_attribute("href")
    assert edit.endswith("/tests/fixtures/site-data/adapters/fixture-naughty-jms.yaml")
    assert "issues/new" in page.get_by_role("link", name="Add your report").get_attribute("href")
    changed = adapter["changes"].get("changed")
    if changed:  # git dates exist once the fixture is committed, as in CI
        assert f"Last changed {changed}" in page.locator(".record-footer").inner_text()
    assert page.problems == []


def test_an_unknown_chip_invites_the_owner_to_find_it(watched_page):
    """A product no source names a chip for says how to find out, with its own ID; a known chip says nothing more."""
    page = watched_page
    page.goto("/adapters/fixture-hostile/")
    invite = page.locator("#chip-unknown")
    assert "Which chip is inside?" in invite.inner_text()
    assert "lsusb -v -d abcd:1234" in invite.locator("pre").inner_text()
    assert "probe.py" in invite.locator("pre").inner_text()
    page.goto("/adapters/fixture-naughty-jms/")
    assert page.locator("#chip-unknown").count() == 0
    assert page.problems == []


def test_report_anchor_scrolls_to_its_row(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-naughty-jms/#report-3")
    assert page.locator("#report-3").is_visible()
    assert page.evaluate("document.querySelector(':target').id") == "report-3"


def test_throughput_chart_compares_uas_and_usb_storage(watched_page, site):
    page = watched_page
    page.goto("/adapters/fixture-nice-sata/")
    charts = page.locator("figure.chart")
    captions = charts.locator("figcaption").all_inner_texts()
    assert captions == ["Sequential (MB/s)", "4K random (MB/s)", "4K random (IOPS)"]
    sequential = charts.first
    assert sequential.locator("rect.bar-uas").count() == 2
    assert sequential.locator("rect.bar-usb-storage").count() == 1
    labels = sequential.locator("text").all_text_contents()
    assert "360 MB/s · read · UAS" in labels
    # What produced the bar, and how much of its 5 Gbit/s link (stated in the report) it uses.
    assert "Raspberry Pi 4 · drive not stated · report 1 · fio · 72% of the 5 Gbit/s link" in labels
    assert any("(310 MiB/s)" in label for label in labels)  # converted figures keep what was reported
    width = lambda css: float(sequential.locator(css).first.get_attribute("width").rstrip("%"))  # noqa: E731
    # The panel's scale is the link's 500 MB/s, so bars of different reports compare on one scale.
    assert width("rect.bar-uas") == pytest.approx(100 * 360 / 500, abs=0.01)
    assert width("rect.bar-usb-storage") == pytest.approx(100 * 290 / 500, abs=0.01)
    marks = sequential.locator("line.link-limit")
    assert marks.count() == 3 and float(marks.first.get_attribute("x1").rstrip("%")) == 100


def test_chipset_page_lists_its_adapters_with_verdicts(watched_page):
    page = watched_page
    page.goto("/chipsets/jms567/")
    assert page.locator("h1").inner_text().startswith("JMS567")
    table = page.locator("table.adapters")
    assert table.locator("tbody tr").count() == 2
    assert "Needs quirk" in table.inner_text() and "Does not boot" in table.inner_text()


def test_usb_page_shows_every_product_sharing_the_id(watched_page):
    page = watched_page
    page.goto("/usb/152d/0578/")
    rows = page.locator("table.adapters tbody tr")
    assert rows.count() == 2
    names = rows.locator("th a").all_inner_texts()
    assert sorted(names) == ["Fixturebrand Quirkcable SATA to USB 3.0 cable", "Otherfixture Noboot dock"]
    assert "0x152d 0x0578" in page.locator(".spellings").inner_text()


def test_naughty_list_has_reasons_quirks_evidence_and_one_combined_line(watched_page, site):
    page = watched_page
    page.goto("/naughty/")
    entries = page.locator("ol.verdict-list > li")
    assert entries.count() == len(site.export["lists"]["naughty"])
    for adapter_id in site.export["lists"]["naughty"]:
        entry = page.locator(f"li#{adapter_id}")
        adapter = site.adapter(adapter_id)
        assert "Why: " + "; ".join(adapter["verdict"]["reasons"]) in entry.inner_text()
        assert entry.locator(f'a[href^="/adapters/{adapter_id}/#report-"]').count() >= 1
        if adapter["verdict"]["quirk_line"]:
            assert adapter["verdict"]["quirk_line"] in entry.inner_text()
    combined = page.locator("#combined-quirk-line").inner_text().replace("\n", "")
    assert combined == site.export["lists"]["naughty_quirk_line"]


def test_nice_list(watched_page, site):
    page = watched_page
    page.goto("/nice/")
    assert page.locator("main > ol.verdict-list > li h2").all_inner_texts() == [
        site.adapter(i)["name"] for i in site.export["lists"]["nice"]]


def test_pending_products_are_listed_apart_from_the_nice_list(watched_page, site):
    """A bind-only snapshot is not a recommendation: pending products sit in their own section, each saying what
    is missing, and never in the nice list above it."""
    pending = site.export["lists"]["pending"]
    assert pending, "the fixtures have a product whose UAS was only seen bound"
    page = watched_page
    page.goto("/nice/")
    section = page.locator("section[aria-labelledby=pending]")
    assert section.locator("ol.verdict-list > li h2").all_inner_texts() == [site.adapter(i)["name"] for i in pending]
    assert not set(pending) & set(site.export["lists"]["nice"])
    for adapter_id in pending:
        reasons = "; ".join(site.adapter(adapter_id)["verdict"]["reasons"])
        assert reasons.startswith("UAS") and reasons in section.inner_text()


def test_copy_button_puts_the_exact_quirk_line_on_the_clipboard(browser, site):
    context = browser.new_context(base_url=site.url, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto("/naughty/")
    page.get_by_role("button", name="Copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == site.export["lists"]["naughty_quirk_line"]
    page.goto("/adapters/fixture-naughty-jms/")
    page.get_by_role("button", name="Copy").click()
    assert page.evaluate("navigator.clipboard.readText()") == "usb-storage.quirks=152d:0578:u"
    context.close()


def test_adapters_table_sorts_and_filters(watched_page, site):
    page = watched_page
    page.goto("/adapters/")
    rows = page.locator("table.adapters tbody tr")
    assert rows.count() == len(site.export["adapters"])
    names = lambda: rows.locator("th a").all_inner_texts()  # noqa: E731
    page.get_by_role("button", name="Adapter").click()
    assert names() == sorted(names(), key=str.lower)
    page.get_by_role("button", name="Adapter").click()
    assert names() == sorted(names(), key=str.lower, reverse=True)
    page.get_by_role("button", name="Pi 4").click()
    first = rows.first.locator('td[data-label="Pi 4"] .badge').first.inner_text()
    assert "Works" in first  # works ranks before quirks and untested
    page.get_by_label("Filter rows").fill("jms567")
    visible = [r for r in rows.all() if r.is_visible()]
    assert len(visible) == 2
    assert page.get_by_role("status").first.inner_text() == f"2 of {len(site.export['adapters'])} shown"
    assert page.problems == []


def test_adapters_table_is_complete_without_javascript(browser, site):
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/adapters/")
    rows = page.locator("table.adapters tbody tr")
    assert rows.count() == len(site.export["adapters"])
    assert all(r.is_visible() for r in rows.all())
    page.goto("/adapters/fixture-naughty-jms/")
    assert page.locator("#quirk-line").is_visible()
    assert page.get_by_role("button", name="Copy").count() == 0  # copy needs JS; the text stays selectable
    context.close()


def test_alias_redirects_to_the_new_address(watched_page):
    page = watched_page
    page.goto("/adapters/fixture-goodcase-old/")
    page.wait_for_url("**/adapters/fixture-nice-sata/")
    assert page.locator("h1").inner_text().startswith("Fixturebrand Goodcase")
    page.goto("/chipsets/asm-1153e/")
    page.wait_for_url("**/chipsets/asm1153e/")


def test_missing_page_is_404_and_offers_search(watched_page, site):
    with pytest.raises(urllib.error.HTTPError) as error:
        urllib.request.urlopen(site.url + "/adapters/no-such-adapter/")
    assert error.value.code == 404
    page = watched_page
    page.goto("/adapters/no-such-adapter/")
    assert page.locator("h1").inner_text() == "Page not found"
    box = page.get_by_role("searchbox")
    expect(box).to_have_value("no such adapter")  # the box offers the missing path's words, and searches them
    box.fill("Goodcase")
    # The path's own search may have listed its results already: wait for the typed words' results, not any list.
    expect(page.locator(".results li a").first).to_have_attribute("href", "/adapters/fixture-nice-sata/")


def test_sitemap_and_atom_feed(site):
    sitemap = ET.fromstring(urllib.request.urlopen(site.url + "/sitemap.xml").read())
    locs = {el.text for el in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    for adapter in site.export["adapters"]:
        assert f"{site.url}/adapters/{adapter['id']}/" in locs
    assert f"{site.url}/naughty/" in locs
    response = urllib.request.urlopen(site.url + "/atom.xml")
    feed = ET.fromstring(response.read())
    atom = "{http://www.w3.org/2005/Atom}"
    assert feed.tag == f"{atom}feed"
    dated = [a for a in site.export["adapters"] if a["changes"].get("changed")]
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == len(dated)
    for entry in entries:
        assert re.match(r"(Added|Changed): ", entry.find(f"{atom}title").text)
        assert entry.find(f"{atom}link").get("href").startswith(f"{site.url}/adapters/")


def test_machine_readable_files_are_served(site):
    import json
    for path in ("/api/v1/adapters.json", "/api/v1/chipsets.json", "/api/v1/adapters/fixture-nvme.json",
                 "/api/v1/usb/152d/0578.json"):
        payload = json.loads(urllib.request.urlopen(site.url + path).read())
        assert set(payload) == {"schema_version", "generated_at", "result"}
    csv_text = urllib.request.urlopen(site.url + "/adapters.csv").read().decode()
    assert csv_text.splitlines()[0].startswith("id,name,")


def test_usb_and_adapter_pages_say_which_distribution_already_sets_the_quirk(watched_page, site):
    import json
    page = watched_page
    for path in ("/usb/174c/55aa/", "/adapters/fixture-nice-sata/"):
        page.goto(path)
        shipped = page.locator("section.distributions")
        assert "Fixture OS already sets 174c:55aa:u on its Raspberry Pi 4 images (since 2025-01-01)." in shipped.inner_text()
        assert shipped.locator('a[href="https://example.com/fixture-os/pull/1"]').count() == 1
    page.goto("/usb/152d/0578/")
    assert page.locator("section.distributions").count() == 0
    usb = json.loads(urllib.request.urlopen(site.url + "/api/v1/usb/174c/55aa.json").read())["result"]
    assert [(d["name"], d["flags"], d["url"]) for d in usb["distributions"]] == [
        ("Fixture OS", "u", "https://example.com/fixture-os/pull/1")]
    listing = json.loads(urllib.request.urlopen(site.url + "/api/v1/distributions.json").read())["result"]
    assert [d["id"] for d in listing["distributions"]] == ["fixture-os"]
    assert list(listing["by_usb_id"]) == ["174c:55aa"]
    assert page.problems == []


def test_usb_pages_say_how_common_the_id_is_and_wanted_lists_the_unreported(watched_page, site):
    import json
    page = watched_page
    page.goto("/usb/174c/55aa/")
    seen = page.locator("[data-linuxhw]")
    assert "Seen on 996 computers, driver usb_sto… (linux-hardware.org)." in seen.inner_text()
    page.goto("/usb/058f/6387/")
    assert "does not say which one drives it" in page.locator("[data-linuxhw]").inner_text()  # a module list, not a UAS result
    page.goto("/usb/174c/55aa/")
    seen = page.locator("[data-linuxhw]")
    assert seen.locator('a[href="https://linux-hardware.org/?probe=3AB561BBE8"]').count() == 1
    assert "most wanted" not in seen.inner_text()            # fixture products report this ID
    page.goto("/usb/058f/6387/")
    assert page.locator("[data-linuxhw] a[href$='/wanted/']").count() == 1
    page.goto("/usb/090c/1000/")                              # known only from linux-hardware.org, not to Linux
    summary = page.locator("p.summary").inner_text()
    assert "No product in the database reports this ID yet." in summary and "own tables" not in summary
    page.goto("/wanted/")
    rows = page.locator("table.wanted tbody tr")
    # Disks and bridges first; the flash drive at the top of linux-hardware.org's table is folded away.
    disks = page.get_by_role("region", name="Most wanted disks and bridges").locator("tbody tr")
    assert [r["usb_id"] for r in site.export["lists"]["wanted"] if r["scope"] == "disk"] == \
        [disks.nth(i).get_attribute("data-usb-id") for i in range(disks.count())]
    others = page.locator("details.wanted-others tbody tr")
    assert others.first.get_attribute("data-usb-id") == "058f:6387"
    assert page.locator('table.wanted tr[data-usb-id="174c:55aa"]').count() == 0
    assert "2,013" in others.first.text_content()  # folded away, so not rendered text
    shown = rows.count()
    assert page.locator("main a[href^='https://github.com/linuxhw/LsUSB/blob/']").count() == 1
    page.goto("/")
    assert page.locator("main a[href$='/wanted/']").count() == 1
    wanted = json.loads(urllib.request.urlopen(site.url + "/api/v1/wanted.json").read())["result"]
    assert wanted["wanted"][0]["usb_id"] == "058f:6387" and shown == len(wanted["wanted"])
    usb = json.loads(urllib.request.urlopen(site.url + "/api/v1/usb/174c/55aa.json").read())["result"]
    assert usb["linuxhw"]["computers"] == 996
    assert page.problems == []


def test_the_site_serves_the_schemas_at_their_ids(site):
    import json
    for name in ("api.schema.json", "adapter.schema.json", "chipset.schema.json", "distribution.schema.json"):
        served = json.loads(urllib.request.urlopen(f"{site.url}/schema/{name}").read())
        assert served["$id"] == f"https://uasdb.github.io/schema/{name}"


def test_an_asin_links_to_its_listing(real_page, real_site):
    """A buyer acts on an ASIN by opening the listing: each one on a product page is a link to it."""
    adapter = next(a for a in real_site.export["adapters"] if (a.get("product_codes") or {}).get("asin"))
    page = real_page
    page.goto(f"/adapters/{adapter['id']}/")
    for asin in adapter["product_codes"]["asin"]:
        link = page.locator("dl.facts").get_by_role("link", name=asin)
        assert link.get_attribute("href") == f"https://www.amazon.com/dp/{asin}"
        assert "nofollow" in link.get_attribute("rel")
