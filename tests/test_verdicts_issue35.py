"""The products issue 35 found misread, pinned on the real data/: failures of two kinds read as a failure, a Pi of
unknown model counts on no platform, reports that merely disagree never put a product on the avoid list, and the
lists and the what-to-buy pages place every product the same way."""
import pytest

from uasdb.records.database import check
from uasdb.verdicts.engine import adapter_verdict


@pytest.fixture(scope="module")
def records():
    return {r.data["id"]: r.data for r in check().records if r.kind == "adapter"}


@pytest.fixture(scope="module")
def verdicts(records):
    return {i: adapter_verdict(r) for i, r in records.items()}


@pytest.mark.parametrize("adapter_id", ["adata-sd600q", "generic-rtl9210-nvme-enclosure"])
def test_a_quirk_and_a_broken_report_read_as_a_failure_not_mixed(verdicts, adapter_id):
    pi4 = verdicts[adapter_id].uas["pi4"]
    assert pi4.verdict == "works-with-quirk" and pi4.confidence == "confirmed"
    assert set(pi4.classes) == {"works-with-quirk", "broken"}
    assert "other report" in pi4.text and "broken" in pi4.text
    assert not any("disagree" in reason for reason in verdicts[adapter_id].reasons if "Pi 4 UAS" in reason)


def test_adatas_two_kinds_of_failed_boot_read_as_one(verdicts):
    boot = verdicts["adata-sd600q"].boot["pi4"]
    assert boot.verdict == "works-with-workaround" and "does not boot" in boot.text


@pytest.mark.parametrize("adapter_id", ["generic-asm1153-sata-adapter-174c-1153", "generic-jms578-sata-adapter",
                                        "hp-x5600c-usb-flash-drive", "generic-rtl9210-nvme-enclosure"])
def test_a_pi_of_unknown_model_is_never_a_linux_pc(records, verdicts, adapter_id):
    reports = records[adapter_id]["reports"]
    unplaced = [i for i, report in enumerate(reports) if report["host"] == "pi-unknown"]
    verdict = verdicts[adapter_id]
    assert unplaced and verdict.unplaced == unplaced
    counted = {n for v in [*verdict.uas.values(), *verdict.boot.values()] for n in v.counted + v.discounted + v.unverified}
    assert not counted & set(unplaced)
    assert "model the source does not give" in verdict.as_dict()["unplaced"]["text"]


def test_the_two_adapters_of_one_readme_no_longer_need_a_quirk_on_a_linux_pc(verdicts):
    for adapter_id in ("generic-asm1153-sata-adapter-174c-1153", "generic-jms578-sata-adapter"):
        linux = verdicts[adapter_id].uas["linux"]
        assert not (linux.verdict == "works-with-quirk" and {1, 10} & set(linux.counted))
    assert verdicts["generic-asm1153-sata-adapter-174c-1153"].uas["linux"].verdict == "untested"
