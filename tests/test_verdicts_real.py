"""The verdicts a forum helper links to, pinned on the real data/ (each case was wrong before the evidence rule)."""
import pytest


@pytest.fixture(scope="module")
def site(real_catalog):
    assert not real_catalog.check.errors
    return real_catalog.site


@pytest.fixture(scope="module")
def adapters(site):
    return {a["id"]: a for a in site["adapters"]}


def uas(adapters, adapter_id, platform):
    return adapters[adapter_id]["verdict"]["uas"][platform]


def test_a_pi3_row_never_reads_as_uas_working(adapters):
    """inateck-fe2002's only Pi 3 report ran on usb-storage because the Pi 3 has no UAS."""
    row = uas(adapters, "inateck-fe2002", "pi3")
    assert row["verdict"] == "host-no-uas" and "no UAS" in row["short"]
    assert all(a["verdict"]["uas"]["pi3"]["verdict"] in ("host-no-uas", "untested") for a in adapters.values())


def test_uas_bound_then_io_errors_and_a_hang_is_broken(adapters):
    """argon-one-m2: `uas` at 5000M, then I/O errors and a hard hang."""
    assert uas(adapters, "argon-one-m2", "pi4")["verdict"] == "broken"


def test_uas_aborts_reset_and_hang_lists_the_product(adapters):
    assert uas(adapters, "crucial-x9", "pi4")["verdict"] in ("broken", "mixed")
    assert adapters["crucial-x9"]["verdict"]["list"] == "naughty"


def test_driver_uas_and_stable_running_is_works(adapters):
    row = uas(adapters, "samsung-t5", "pi4")
    assert row["verdict"] == "works" and row["confidence"] == "confirmed"


def test_the_classic_startech_recommendation_has_verdicts(adapters):
    """The blog post behind the former startech-usb3-sata-adapter links this very product: one record now."""
    record = adapters["startech-usb3s2sat3cb"]
    assert "startech-usb3-sata-adapter" in record.get("aliases", [])
    assert "startech-usb3-sata-adapter" not in adapters
    assert any(v["verdict"] != "untested" for v in record["verdict"]["uas"].values())


def test_a_boot_failure_a_later_bootloader_fixed_no_longer_lists_the_product(adapters):
    """kingspec-z3's only boot failure came with the late-2020 bootloaders that rpi-eeprom#266 fixed."""
    verdict = adapters["kingspec-z3"]["verdict"]
    assert not any("does not boot" in reason for reason in verdict["reasons"]), verdict["reasons"]
    boot = verdict["boot"]["pi4"]
    assert boot["verdict"] == "fixed" and boot["fixed"][0]["component"] == "bootloader"


def test_a_boot_failure_without_a_documented_fix_still_counts(adapters):
    """samsung-t7's failure (2023) postdates that fix and no release note names one for it: it stands.

    A later report of a T7 that booted (Home Assistant OS 64-bit) makes the verdict mixed; the
    2023 failure must still be counted as a failure, never set aside as fixed.
    """
    record = adapters["samsung-t7"]
    boot = record["verdict"]["boot"]["pi4"]
    failure = next(i for i, r in enumerate(record["reports"])
                   if r["source"].get("url", "").endswith("/raspberrypi/firmware/issues/1799"))
    assert failure in boot["classes"].get("fails", []) and failure in boot["counted"]
    assert boot["verdict"] in ("fails", "mixed") and not boot["fixed"]


def test_kingspec_z3_cites_the_issue_its_facts_come_from(adapters):
    urls = [r["source"].get("url", "") for r in adapters["kingspec-z3"]["reports"]]
    assert not any(url.endswith("/operating-system/issues/1045") for url in urls)


def test_an_unverified_comment_never_turns_uas_off_for_a_working_product(site, adapters):
    lists = site["lists"]
    line = lists["naughty_quirk_line"] or ""
    for entry in lists["naughty_quirk_entries"]:
        if entry["shared_with_working"]:
            assert entry["usb_id"] + ":" not in line
    assert "174c:55aa:" not in line  # the nice-list UGREEN adapter reports 174c:55aa


def test_no_quirk_line_offered_over_the_kernels_limit(site):
    lists = site["lists"]
    assert lists["naughty_quirk_line_fits"] == (lists["naughty_quirk_line_length"] <= 127)
    for entry in lists["naughty_quirk_entries"]:
        assert len(entry["entry"]) <= 127


def test_unknown_chipset_uas_reads_unknown(site):
    labels = {c["id"]: c["uas_label"] for c in site["chipsets"]}
    for chipset in site["chipsets"]:
        expected = {True: "yes", False: "no", None: "unknown"}[chipset.get("uas")]
        assert chipset["uas_label"] == expected
    assert "unknown" in labels.values()


def test_every_pi5_report_with_an_outcome_reaches_a_pi5_verdict(adapters):
    """Pi 5, Pi 500 and CM5 reports used to count nowhere; each one that shows an outcome now decides a Pi 5 row."""
    def weighed(verdict, index):  # counted, or set aside for a stated reason (blamed on the cable, fixed later,
        # a 480M success beside a failure at a faster link)
        return any(index in verdict.get(key, []) for key in ("counted", "discounted", "superseded", "set_aside_at_480m"))

    seen = 0
    for adapter in adapters.values():
        for index, report in enumerate(adapter["reports"]):
            if report["host"] not in ("pi5", "pi500", "cm5"):
                continue
            if report.get("boot"):
                seen += 1
                assert weighed(adapter["verdict"]["boot"]["pi5"], index), adapter["id"]
            if report.get("uas") or report.get("driver"):
                seen += 1
                assert weighed(adapter["verdict"]["uas"]["pi5"], index), adapter["id"]
    assert seen >= 3


def test_every_verdict_shows_its_basis(adapters):
    for adapter in adapters.values():
        for kind in ("uas", "boot"):
            for platform, v in adapter["verdict"][kind].items():
                if v["verdict"] in ("untested", "fixed"):
                    continue
                assert v["basis"]["reports"] >= 1 and v["basis_text"], (adapter["id"], kind, platform)
                if v["confidence"] == "likely":
                    assert "unverified" in v["basis_text"] and v["short"] != "Works"


def test_nice_list_entries_rest_on_observed_or_stated_reports(adapters, site):
    for adapter_id in site["lists"]["nice"]:
        verdict = adapters[adapter_id]["verdict"]["uas"]
        assert any(verdict[p]["verdict"] == "works" and verdict[p]["strength"] in ("observed", "stated")
                   for p in ("pi4", "pi5")), adapter_id
