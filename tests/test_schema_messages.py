"""Schema findings are rewritten into sentences that say how to fix them."""
from helpers import adapter


def only(problems, rule):
    found = [p for p in problems if p.rule == rule]
    assert len(found) == 1, [p.render() for p in problems]
    return found[0]


def test_unknown_field_suggests_the_near_name(check_records):
    p = only(check_records([adapter(report={"quirk": "u"})]), "schema-unknown-field")
    assert p.field == ("reports", 0, "quirk") and "did you mean `quirks`?" in p.fix


def test_unknown_top_level_field_without_near_name_lists_fields(check_records):
    p = only(check_records([adapter(colour="red")]), "schema-unknown-field")
    assert "remove it, or use one of:" in p.fix and "vendor" in p.fix


def test_enum_suggests(check_records):
    p = only(check_records([adapter(report={"uas": "work"})]), "schema-enum")
    assert "did you mean `works`?" in p.fix and "works-with-quirk" in p.fix


def test_unquoted_version_is_explained(tmp_path):
    from helpers import write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [adapter(firmware=[{"version": "1.10"}])])
    path = data / "adapters" / "acme-box.yaml"
    path.write_text(path.read_text().replace("version: '1.10'", "version: 1.10"))
    p = only(check([data]).problems, "schema-type")
    assert "YAML reads unquoted `1.10` as the number 1.1" in p.message and p.fix == "quote it: '1.10'"


def test_missing_required_field_names_it(check_records):
    p = only(check_records([adapter(kind=None)]), "schema-required")
    assert "`kind`" in p.message and p.fix.startswith("add `kind:`")


def test_bad_usb_id_shows_an_example(check_records):
    p = only(check_records([adapter(usb_ids=[{"vid": "152D", "pid": "0578"}])]), "schema-pattern")
    assert p.field == ("usb_ids", 0, "vid") and "'152d'" in p.fix


def test_javascript_link_is_called_out(check_records):
    p = only(check_records([adapter(report={"source": {"url": "javascript:alert(1)"}})]), "schema-pattern")
    assert "not an https URL" in p.message


def test_empty_source_explains_the_two_options(check_records):
    p = only(check_records([adapter(report={"source": {}})]), "schema-minproperties")
    assert "tested_by" in p.fix and "url" in p.fix


def test_empty_value(tmp_path):
    from helpers import write_tree
    from uasdb.records.database import check
    data = write_tree(tmp_path, [adapter(vendor="X")])
    path = data / "adapters" / "acme-box.yaml"
    path.write_text(path.read_text().replace("vendor: X", "vendor:"))
    line = path.read_text().split("\n").index("vendor:") + 1
    p = only(check([data]).problems, "schema-type")
    assert p.message == "the value is empty" and (p.line, p.column) == (line, 8)


def test_patterns_mean_the_same_to_python_and_ecmascript_validators(check_records):
    """Python's `$` also matches before a final newline and its `\\d` takes any script's digits; ECMAScript's do
    not. The schema is written so both read it alike: a trailing newline and Arabic-Indic digits are refused by
    the fast validator and explained by the full one (no `schema-internal` disagreement)."""
    problems = check_records([adapter(report={"usb_id": "152d:0578\n", "date": "\u0662\u0660\u0662\u0661"})])
    assert not [p for p in problems if p.rule == "schema-internal"]
    fields = {p.field for p in problems if p.rule == "schema-pattern"}
    assert ("reports", 0, "usb_id") in fields and ("reports", 0, "date") in fields
