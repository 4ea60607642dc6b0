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


def test_possible_duplicates_must_name_each_other(check_records):
    one = adapter(id="one-box", may_be_same_as=["two-box"])
    two = adapter(id="two-box", usb_ids=[{"vid": "152d", "pid": "0579"}])
    problems = check_records([one, two])
    [problem] = [p for p in problems if p.rule == "may-be-same-as-mutual"]
    assert "two-box does not name one-box back" in problem.message
    assert "add `one-box` to the `may_be_same_as` of data/adapters/two-box.yaml" in problem.fix


def test_possible_duplicates_named_both_ways_pass(check_records):
    one = adapter(id="one-box", may_be_same_as=["two-box"])
    two = adapter(id="two-box", usb_ids=[{"vid": "152d", "pid": "0579"}], may_be_same_as=["one-box"])
    assert rule_hits(check_records([one, two]), "may-be-same-as-mutual") == []


def test_a_possible_duplicate_must_exist(check_records):
    problems = check_records([adapter(may_be_same_as=["no-such-box"])])
    assert rule_hits(problems, "may-be-same-as-mutual") == ["may_be_same_as[0]"]
