import pytest

from helpers import BASE_CHIPSET, adapter, rule_hits


def test_id_must_match_file_name(tmp_path):
    from helpers import write_tree
    from uasdb.database import check
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
    from uasdb.database import check
    data = write_tree(tmp_path, [adapter()])
    path = data / "adapters" / "acme-box.yaml"
    path.write_text(path.read_text().split("\n", 1)[1])
    assert rule_hits(check([data]).problems, "schema-comment") == ["(record)"]


def test_an_alias_equal_to_its_own_id_is_refused(check_records):
    problems = check_records([adapter(aliases=["acme-box"])])
    assert rule_hits(problems, "unique-ids") == ["aliases[0]"]
    assert any("is this record's own id" in p.message for p in problems)


@pytest.mark.parametrize("name", ["con", "nul", "com1", "lpt9", "aux", "prn"])
def test_windows_device_names_are_refused_as_ids_and_aliases(tmp_path, name):
    from helpers import write_tree
    from uasdb.database import check
    data = write_tree(tmp_path, [adapter(id=name, aliases=[name + "x", "aux"])])
    assert rule_hits(check([data]).problems, "id-portable") == ["id", "aliases[1]"]


@pytest.mark.parametrize("name", ["con-box", "console", "com10", "nullmodem"])
def test_names_that_only_start_like_a_device_name_are_fine(check_records, name):
    assert rule_hits(check_records([adapter(id=name)]), "id-portable") == []
