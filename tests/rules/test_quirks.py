import pytest

from helpers import adapter, rule_hits

CASES = [
    ("quirk with flags", adapter(report={"uas": "works-with-quirk", "quirks": "u"}), "quirk-needs-flags", []),
    ("quirk without flags", adapter(report={"uas": "works-with-quirk"}), "quirk-needs-flags", ["reports[0].uas"]),
    ("flags but works", adapter(report={"uas": "works", "quirks": "u"}), "quirk-needs-flags", ["reports[0].quirks"]),
    ("known letters", adapter(report={"uas": "works-with-quirk", "quirks": "ut"}), "quirk-letter-known", []),
    ("unknown letter q", adapter(report={"uas": "works-with-quirk", "quirks": "uq"}), "quirk-letter-known", ["reports[0].quirks"]),
    ("letters once", adapter(report={"uas": "works-with-quirk", "quirks": "ut"}), "quirk-letters-once", []),
    ("letter repeated", adapter(report={"uas": "works-with-quirk", "quirks": "uuu"}), "quirk-letters-once", ["reports[0].quirks"]),
    ("quirk needs an id", adapter(usb_ids=None, report={"uas": "works-with-quirk", "quirks": "u"}), "quirk-needs-usb-id", ["reports[0].uas"]),
]


@pytest.mark.parametrize("name,record,rule,expected", CASES, ids=[c[0] for c in CASES])
def test_quirk_rules(check_records, name, record, rule, expected):
    assert rule_hits(check_records([record]), rule) == expected


def test_unknown_letter_message_lists_the_kernel_table(check_records):
    [problem] = [p for p in check_records([adapter(report={"uas": "works-with-quirk", "quirks": "q"})]) if p.rule == "quirk-letter-known"]
    assert "unknown quirk letter(s) q" in problem.message
    assert "u=IGNORE_UAS" in problem.fix and "t=NO_ATA_1X" in problem.fix


def test_a_repeated_letter_is_named_with_the_fix(check_records):
    [problem] = [p for p in check_records([adapter(report={"uas": "works-with-quirk", "quirks": "uutu"})])
                 if p.rule == "quirk-letters-once"]
    assert problem.message == "quirk letters written more than once (u 3 times)" and problem.fix == "write each letter once: `ut`"
