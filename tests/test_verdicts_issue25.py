"""The products issue 25 found overstated, read from the real data: each reads as its sources support (the
engine before graded verdicts gave every one of these another answer)."""
import pytest

from uasdb.verdicts.engine import summary_line


@pytest.mark.parametrize("adapter_id", ["lacie-rugged-usb-c", "renkforce-pi-102-msata-adapter"])
def test_uas_seen_only_at_480m_is_pending_not_nice(real_verdicts, adapter_id):
    pi4 = real_verdicts[adapter_id].uas["pi4"]
    assert real_verdicts[adapter_id].listing == "pending" and not pi4.recommended
    assert "480M" in pi4.basis_text


def test_a_bind_only_snapshot_is_not_a_best_pick(real_verdicts):
    pi4 = real_verdicts["icy-box-ib-1817m-c31"].uas["pi4"]
    assert (pi4.grade, pi4.short) == ("bound", "Binds UAS")
    assert "not tried under load" in pi4.basis_text


def test_a_boot_that_works_sometimes_says_so(real_verdicts):
    boot = real_verdicts["icy-box-ib-1817m-c31"].boot["pi4"]
    assert (boot.verdict, boot.short) == ("intermittent", "Boots sometimes")
    assert real_verdicts["icy-box-ib-1817m-c31"].reasons[0].startswith("boots a Pi 4 only some of the time")


def test_failure_on_usb3_and_success_at_480m_is_a_quirk_on_usb3_not_mixed(real_verdicts):
    pi4 = real_verdicts["icy-box-ib-183m2"].uas["pi4"]
    assert pi4.verdict == "works-with-quirk" and pi4.link_note and "480M" in pi4.link_note


def test_one_abort_blamed_on_the_clone_is_not_broken(real_verdicts):
    assert real_verdicts["uugear-pigear-nano"].uas["pi4"].verdict != "broken"
    assert real_verdicts["uugear-pigear-nano"].listing is None


def test_boots_from_usb2_fails_on_usb3_is_said_with_the_port(real_verdicts):
    verdict = real_verdicts["sabrent-ec-snve"]
    assert verdict.reasons[0].startswith("does not boot a Pi 5 from a USB 3 port")
    assert "from a USB 2 port it boots" in verdict.boot["pi5"].text


def test_a_relayed_quirk_shows_as_the_disagreement_it_is(real_verdicts):
    pi4 = real_verdicts["samsung-m3-portable"].uas["pi4"]
    assert pi4.disagreeing and real_verdicts["samsung-m3-portable"].listing is None


def test_a_linux_pc_quirk_is_never_offered_as_the_pis(real_verdicts):
    for adapter_id in ("samsung-t7", "startech-usb3s2sat3cb"):
        advice = real_verdicts[adapter_id].advice
        assert advice["scope"] == "elsewhere-pi-works" and "Linux PC" in advice["text"]


def test_every_nice_product_rests_on_uas_used_at_5gbits_on_a_pi(real_verdicts):
    nice = [i for i, v in real_verdicts.items() if v.listing == "nice"]
    assert nice
    for adapter_id in nice:
        v = real_verdicts[adapter_id]
        assert any(f.counted and f.outcome == "works" and f.depth != "bound" and f.superspeed and f.strength != "hearsay"
                   for p in ("pi4", "pi5") for f in v.uas[p].findings), adapter_id
        assert summary_line(v).startswith("On the nice list")
