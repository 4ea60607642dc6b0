from helpers import adapter, rule_hits


def test_chipset_must_exist(check_records):
    problems = check_records([adapter(chipset="jms579")])
    assert rule_hits(problems, "chipset-exists") == ["chipset"]
    [problem] = [p for p in problems if p.rule == "chipset-exists"]
    assert "did you mean `jms578`?" in problem.fix


def test_known_chipset_passes(check_records):
    assert rule_hits(check_records([adapter()]), "chipset-exists") == []


def test_chipset_left_out_is_fine(check_records):
    assert rule_hits(check_records([adapter(chipset=None)]), "chipset-exists") == []
