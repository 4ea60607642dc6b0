"""The products issue 35 found misread, pinned on the real data/: failures of two kinds read as a failure, a Pi of
unknown model counts on no platform, reports that merely disagree never put a product on the avoid list, and the
lists and the what-to-buy pages place every product the same way."""
import pytest

from uasdb.verdicts.engine import adapter_verdict


@pytest.fixture(scope="module")
def records(real_catalog):  # data/ checked once per session (conftest.real_catalog)
    return {r.data["id"]: r.data for r in real_catalog.check.records if r.kind == "adapter"}


@pytest.mark.parametrize("adapter_id", ["adata-sd600q", "generic-rtl9210-nvme-enclosure"])
def test_a_quirk_and_a_broken_report_read_as_a_failure_not_mixed(real_verdicts, adapter_id):
    pi4 = real_verdicts[adapter_id].uas["pi4"]
    assert pi4.verdict == "works-with-quirk" and pi4.confidence == "confirmed"
    assert set(pi4.classes) == {"works-with-quirk", "broken"}
    assert "other report" in pi4.text and "broken" in pi4.text
    assert not any("disagree" in reason for reason in real_verdicts[adapter_id].reasons if "Pi 4 UAS" in reason)


def test_adatas_two_kinds_of_failed_boot_read_as_one(real_verdicts):
    boot = real_verdicts["adata-sd600q"].boot["pi4"]
    assert boot.verdict == "works-with-workaround" and "does not boot" in boot.text


@pytest.mark.parametrize("adapter_id", ["generic-asm1153-sata-adapter-174c-1153", "generic-jms578-sata-adapter",
                                        "hp-x5600c-usb-flash-drive", "generic-rtl9210-nvme-enclosure"])
def test_a_pi_of_unknown_model_is_never_a_linux_pc(records, real_verdicts, adapter_id):
    reports = records[adapter_id]["reports"]
    unplaced = [i for i, report in enumerate(reports) if report["host"] == "pi-unknown"]
    verdict = real_verdicts[adapter_id]
    assert unplaced and verdict.unplaced == unplaced
    counted = {n for v in [*verdict.uas.values(), *verdict.boot.values()] for n in v.counted + v.discounted + v.unverified}
    assert not counted & set(unplaced)
    assert "model the source does not give" in verdict.as_dict()["unplaced"]["text"]


def test_the_two_adapters_of_one_readme_no_longer_need_a_quirk_on_a_linux_pc(real_verdicts):
    for adapter_id in ("generic-asm1153-sata-adapter-174c-1153", "generic-jms578-sata-adapter"):
        linux = real_verdicts[adapter_id].uas["linux"]
        assert not (linux.verdict == "works-with-quirk" and {1, 10} & set(linux.counted))
    assert real_verdicts["generic-asm1153-sata-adapter-174c-1153"].uas["linux"].verdict == "untested"


# The products /naughty/ held only because reports disagree (issue 35): now in the "disagree" group.
ONLY_DISAGREE = ["samsung-t7", "samsung-t5"]


@pytest.mark.parametrize("adapter_id", ONLY_DISAGREE)
def test_reports_that_merely_disagree_are_not_naughty(real_verdicts, adapter_id):
    verdict = real_verdicts[adapter_id]
    assert verdict.listing == "disagree"
    assert any(d["platform"] == "pi4" and d["kind"] == "boot" for d in verdict.disagreements)


def test_the_t7s_pi4_reads_works_pending_with_the_boot_dispute_beside_it(real_verdicts):
    t7 = real_verdicts["samsung-t7"]
    assert t7.uas["pi4"].pending and t7.boot["pi4"].verdict == "mixed"
    (d,) = [d for d in t7.disagreements if d["platform"] == "pi4"]
    assert {side["outcome"] for side in d["sides"]} == {"works", "fails"}
    assert "bootloader" in d["explain"]


def test_no_product_is_naughty_for_disagreement_alone(real_verdicts):
    for adapter_id, verdict in real_verdicts.items():
        if verdict.listing == "naughty":
            assert any("disagree" not in reason for reason in verdict.reasons), adapter_id


@pytest.fixture(scope="module")
def site(real_catalog):
    from uasdb.publish.lists import model
    catalog, adapters = real_catalog.site, real_catalog.adapters  # the export, built once per session
    return catalog, adapters, model(catalog, adapters)


def test_lists_json_holds_the_disagree_group_with_both_sides(site):
    catalog, _, lists = site
    assert "samsung-t7" in lists["disagree"] and "samsung-t7" not in lists["naughty"]
    entry = next(e for e in lists["entries"]["disagree"] if e["id"] == "samsung-t7")
    (d,) = entry["disagreements"]
    assert d["label"] == "Pi 4 boot" and len(d["sides"]) == 2 and d["explain"]
    assert catalog["counts"]["disagree"] == len(lists["disagree"])


def _buy_group(catalog, platform, adapter_id):
    ranking = catalog["buy"][platform]
    rows = ranking["products"] + ranking["avoid"]
    return next((row["group"] for row in rows if row["id"] == adapter_id), None)


def test_the_m3_is_placed_alike_on_the_buy_page_and_the_lists(site):
    catalog, adapters, _ = site
    assert adapters["samsung-m3-portable"]["verdict"]["list"] is None
    assert _buy_group(catalog, "pi4", "samsung-m3-portable") == "other"


def test_a_product_without_a_model_number_whose_reports_disagree_is_on_the_pi4_buy_page(site):
    """ELUTENG's author logged UAS working and concluded it needed the quirk (issue 40): no longer recommended, but
    still on /buy/pi4/, in its own group, not dropped for having no model number."""
    catalog, adapters, _ = site
    assert adapters["eluteng-usb3-sata-adapter"]["verdict"]["list"] == "disagree"
    assert _buy_group(catalog, "pi4", "eluteng-usb3-sata-adapter") == "disagree"


@pytest.mark.parametrize("adapter_id", ["ugreen-usb3-sata-adapter"])
def test_recommended_products_without_a_model_number_are_on_the_pi4_buy_page(site, adapter_id):
    catalog, adapters, _ = site
    assert adapters[adapter_id]["verdict"]["list"] == "nice" and not adapters[adapter_id].get("model")
    assert _buy_group(catalog, "pi4", adapter_id) == "recommended"
    row = next(row for row in catalog["buy"]["pi4"]["products"] if row["id"] == adapter_id)
    assert row["no_model"] and row["boot"]["verdict"] == "works"


@pytest.mark.parametrize("platform", ["pi4", "pi5", "linux", "macos"])
def test_every_buy_row_sits_in_its_engine_standing_and_expected_rows_have_no_report_there(site, records, platform):
    from uasdb.verdicts.engine import PLATFORMS, platform_standing
    catalog, adapters, _ = site
    ranking = catalog["buy"][platform]
    hosts = set(PLATFORMS[platform]["hosts"])
    for row in ranking["products"] + ranking["avoid"]:
        verdict = adapter_verdict(records[row["id"]])
        assert row["group"] == platform_standing(verdict.uas[platform], verdict.boot.get(platform)), row["id"]
    for row in ranking["expected"]:  # under the heading "No report from <platform> yet"
        assert not any(report["host"] in hosts for report in records[row["id"]]["reports"]), row["id"]


def test_each_list_is_what_the_pi_standings_roll_up_to(real_verdicts):
    from uasdb.verdicts.engine import LIST_PLATFORMS, platform_standing
    for adapter_id, verdict in real_verdicts.items():
        standings = {platform_standing(verdict.uas[n], verdict.boot[n]) for n in LIST_PLATFORMS}
        expect = {"naughty": "avoid", "nice": "recommended", "disagree": "disagree", "pending": "pending"}
        if verdict.listing:
            assert expect[verdict.listing] in standings, adapter_id
        if verdict.listing in ("disagree", "pending"):
            assert not standings & {"avoid", "recommended"}, adapter_id
        if verdict.listing is None:
            assert "avoid" not in standings and "disagree" not in standings, adapter_id


@pytest.mark.parametrize("adapter_id", ["inateck-fe2014", "ssk-sd301-usb-ssd-flash-drive"])
def test_a_vl817_that_ran_uas_on_an_older_kernel_is_not_recommended_on_linux(site, real_verdicts, adapter_id):
    catalog, adapters, _ = site
    linux = real_verdicts[adapter_id].uas["linux"]
    assert linux.grade == "kernel-ignores-uas" and not linux.recommended
    assert "2109:0715 off uas by itself" in linux.text and "usb-storage" in linux.text
    ranking = catalog["buy"]["linux"]
    assert adapter_id not in ranking["recommended"] and adapter_id not in [p["id"] for p in ranking["top"]]
    assert _buy_group(catalog, "linux", adapter_id) == "other"
    assert adapters[adapter_id]["verdict"]["uas"]["linux"]["kernel_history"]
