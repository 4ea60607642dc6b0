import pytest

from helpers import BASE_CHIPSET, adapter, rule_hits


def test_id_must_match_file_name(tmp_path):
    from helpers import write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [adapter()])
    (data / "adapters" / "acme-box.yaml").rename(data / "adapters" / "acme-box-2.yaml")
    problems = check([data]).problems
    [problem] = [p for p in problems if p.rule == "id-matches-filename"]
    assert problem.line == 2 and "acme-box-2.yaml" in problem.message
    assert "set `id: acme-box-2`" in problem.fix


def test_alias_may_not_reuse_another_id(check_records):
    first = adapter()
    second = adapter(id="acme-box-pro", aliases=["acme-box"])
    assert rule_hits(check_records([first, second]), "unique-ids") == ["aliases[0]"]


def test_two_aliases_clash(check_records):
    first = adapter(aliases=["old-name"])
    second = adapter(id="other", aliases=["old-name"])
    assert len(rule_hits(check_records([first, second]), "unique-ids")) == 1


def test_chipset_ids_are_unique_too(check_records):
    other = dict(BASE_CHIPSET, id="jms578b", aliases=["jms578"])
    assert rule_hits(check_records([adapter()], [BASE_CHIPSET, other]), "unique-ids") == ["aliases[0]"]


def test_schema_comment_required(tmp_path):
    from helpers import write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [adapter()])
    path = data / "adapters" / "acme-box.yaml"
    path.write_text(path.read_text().split("\n", 1)[1])
    assert rule_hits(check([data]).problems, "schema-comment") == ["(record)"]


def coded(record_id, **codes):
    return adapter(id=record_id, usb_ids=None, product_codes=codes)


PRODUCT_CODE_CASES = [
    ("one ASIN, one product", [coded("a", asin=["B07MNFH1PX"]), coded("b", asin=["B0000000AA"])], []),
    ("one ASIN on two products: both are told", [coded("a", asin=["B07MNFH1PX"]), coded("b", asin=["B0000000AA", "B07MNFH1PX"])],
     ["product_codes.asin[0]", "product_codes.asin[1]"]),
    ("one EAN on two products", [coded("a", ean=["4251000000000"]), coded("b", ean=["4251000000000"])],
     ["product_codes.ean[0]", "product_codes.ean[0]"]),
    # A maker's part number is not unique across makers, so it may repeat.
    ("one part number on two products", [coded("a", mpn="FE2002"), coded("b", mpn="FE2002")], []),
    ("same code as ASIN and EAN kinds is no clash", [coded("a", asin=["1234567890"]), coded("b", ean=["1234567890"])], []),
]


@pytest.mark.parametrize("name,records,expected", PRODUCT_CODE_CASES, ids=[c[0] for c in PRODUCT_CODE_CASES])
def test_product_code_unique(check_records, name, records, expected):
    assert sorted(rule_hits(check_records(records), "product-code-unique")) == expected


def test_product_code_message_names_the_other_record(check_records):
    problems = check_records([coded("a", asin=["B07MNFH1PX"]), coded("b", asin=["B07MNFH1PX"])])
    messages = sorted(p.message for p in problems if p.rule == "product-code-unique")
    assert messages == ["B07MNFH1PX is also given by a", "B07MNFH1PX is also given by b"]
    assert all(p.severity == "error" for p in problems if p.rule == "product-code-unique")


def test_an_alias_equal_to_its_own_id_is_refused(check_records):
    problems = check_records([adapter(aliases=["acme-box"])])
    assert rule_hits(problems, "unique-ids") == ["aliases[0]"]
    assert any("is this record's own id" in p.message for p in problems)


@pytest.mark.parametrize("name", ["con", "nul", "com1", "lpt9", "aux", "prn"])
def test_windows_device_names_are_refused_as_ids_and_aliases(tmp_path, name):
    from helpers import write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [adapter(id=name, aliases=[name + "x", "aux"])])
    assert rule_hits(check([data]).problems, "id-portable") == ["id", "aliases[1]"]


@pytest.mark.parametrize("name", ["con-box", "console", "com10", "nullmodem"])
def test_names_that_only_start_like_a_device_name_are_fine(check_records, name):
    assert rule_hits(check_records([adapter(id=name)]), "id-portable") == []
