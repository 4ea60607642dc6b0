"""The documentation stays true: CONTRIBUTING.md is a short contributor's page whose example report validates and
whose links lead somewhere; the commented record validates, the yq recipes run, the rule tables follow the registry."""
import copy
import os
import re
import shutil
import subprocess

import pytest
import yaml

from helpers import BASE_ADAPTER, BASE_CHIPSET, REPO, TODAY, write_tree
from uasdb.records.database import check
from uasdb.records.rules import all_rules
from uasdb.tools.ruletable import run_rule_table, with_tables

CONTRIBUTING = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
RULES_DOC = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
EXAMPLE_DOC = (REPO / "docs" / "example-record.md").read_text(encoding="utf-8")
RECIPES_DOC = (REPO / "docs" / "yq-recipes.md").read_text(encoding="utf-8")
RECIPES_DIR = REPO / "tests" / "fixtures" / "recipes"


def test_contributing_is_three_short_paths():
    """A contributor reads it in two minutes: the probe path first, then public reports, then working on uasdb."""
    assert len(CONTRIBUTING.encode()) <= 6_000
    headings = re.findall(r"^## (.+)$", CONTRIBUTING, re.M)
    assert headings == ["I have an adapter", "I found a public report", "I work on uasdb"]
    adapter_path = CONTRIBUTING[CONTRIBUTING.index("## I have an adapter"):CONTRIBUTING.index("## I found")]
    assert "python3 probe.py" in adapter_path and "issues/new?template=adapter-report.yml" in adapter_path
    for step in ("labels it `adapter-report`", "pull request", "CI checks", "merges it and the site updates"):
        assert step in adapter_path, step
    # The site's words: a report without output or a named driver is "unverified", never "hearsay".
    assert "hearsay" not in CONTRIBUTING.lower() and "*unverified*" in CONTRIBUTING
    assert "docs/verdicts.md" in CONTRIBUTING


def test_contributing_links_lead_to_files_of_the_repository():
    for target in re.findall(r"\]\(((?!https?:|#)[^)]+)\)", CONTRIBUTING):
        assert (REPO / target.split("#")[0]).exists(), target
    for doc in ("docs/rules.md", "docs/example-record.md", "docs/yq-recipes.md", "docs/maintaining.md"):
        assert f"]({doc})" in CONTRIBUTING, doc


def test_contributings_example_report_is_valid(tmp_path):
    """The one YAML example of a public report, appended to a record, validates as it stands."""
    snippet = re.search(r"## I found a public report.*?```yaml\n(.*?)```", CONTRIBUTING, re.S).group(1)
    record = copy.deepcopy(BASE_ADAPTER)
    record["reports"] += yaml.safe_load(snippet)
    data = write_tree(tmp_path, [record], [BASE_CHIPSET])
    assert [p.render() for p in check([data], today=TODAY).problems] == []


def test_commented_example_record_is_valid(tmp_path):
    example = re.search(r"# A fully commented record.*?```yaml\n(.*?)```", EXAMPLE_DOC, re.S).group(1)
    data = write_tree(tmp_path, [], [BASE_CHIPSET])
    (data / "adapters" / "acme-sata-cable.yaml").write_text(example, encoding="utf-8")
    problems = check([data], today=TODAY).problems
    assert [p.render() for p in problems] == []


def test_rule_tables_are_generated_from_the_registry():
    """Like the field guide: docs/rules.md's tables are what `uasdb rule-table` writes, and list every rule."""
    assert with_tables(RULES_DOC) == RULES_DOC, "run `uasdb rule-table` and commit docs/rules.md"
    for rule in all_rules():
        assert f"| `{rule.id}` | {rule.severity} |" in RULES_DOC


def test_rule_table_check_fails_when_stale(tmp_path):
    stale = tmp_path / "rules.md"
    stale.write_text(RULES_DOC.replace("| `file-bom` | error |", "| `file-bom` | warning |"), encoding="utf-8")
    assert run_rule_table(stale, check_only=True) == 1
    assert run_rule_table(stale, check_only=False) == 0 and stale.read_text(encoding="utf-8") == RULES_DOC
    no_markers = tmp_path / "other.md"
    no_markers.write_text("# nothing here\n", encoding="utf-8")
    assert run_rule_table(no_markers, check_only=True) == 1


def recipes():
    found = re.findall(r"^## (.+?)\n\n```sh\n(yq .+?)\n```", RECIPES_DOC, re.M)
    assert len(found) >= 4
    return found


# What each documented recipe must print over tests/fixtures/recipes/ (three small hand-made records).
EXPECTED = {
    "Every JMicron adapter that needed a quirk on a Pi 4": "a\n",
    "All USB IDs of adapters that needed a quirk, as one quirk line": "usb-storage.quirks=152d:0578:u,174c:55aa:u\n",
    "Which products report one USB ID": "a\nc\n",
    "How Pi 4 reports split by UAS outcome": "- outcome: works-with-quirk\n  reports: 3\n- outcome: works\n  reports: 1\n",
}


def yq_binary() -> str:
    local = REPO / ".tools" / "bin" / "yq"
    found = str(local) if local.exists() else shutil.which("yq")
    assert found, "mikefarah yq v4 is not installed: run `make tools`"
    version = subprocess.run([found, "--version"], capture_output=True, text=True).stdout
    assert "mikefarah" in version and "version v4" in version, f"{found} is not mikefarah's yq v4: {version!r}"
    return found


@pytest.mark.reference  # yq comes from `make tools`
@pytest.mark.parametrize("title,command", recipes(), ids=[t for t, _ in recipes()])
def test_yq_recipe(title, command):
    assert title in EXPECTED, f"new recipe {title!r}: add its expected output to EXPECTED"
    yq = yq_binary()
    result = subprocess.run(command.replace("yq ", f"{yq} ", 1), shell=True, cwd=RECIPES_DIR,
                            capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert result.returncode == 0, result.stderr
    assert result.stdout == EXPECTED[title]


VERDICTS_DOC = (REPO / "docs" / "verdicts.md").read_text(encoding="utf-8")
_EXAMPLE = re.compile(r"^### (?P<title>.+?)\n\n```yaml\n(?P<reports>.*?)```\n(?P<claims>.*?)(?=^### |\Z)", re.S | re.M)
_CLAIM = re.compile(r"^(?P<kind>UAS|Boot): \*\*(?P<icon>\S) (?P<short>[^*]+)\*\* · (?P<basis>.+)$", re.M)


def _worked_examples():
    return [(m["title"], m["reports"], m["claims"]) for m in _EXAMPLE.finditer(VERDICTS_DOC)]


def test_the_verdict_page_has_worked_examples():
    assert len(_worked_examples()) >= 8


@pytest.mark.parametrize("title,reports,claims", _worked_examples(), ids=[e[0] for e in _worked_examples()])
def test_each_worked_example_reads_as_the_engine_computes(title, reports, claims):
    """docs/verdicts.md (also the site's /verdicts/ page) promises a badge and basis for each example: the engine
    must give exactly those, so the explanation cannot drift from the code."""
    import yaml

    from uasdb.verdicts.engine import ICON, adapter_verdict
    record = {"id": "example", "reports": [dict(r, source={"url": "https://example.org/"}) for r in yaml.safe_load(reports)]}
    verdict = adapter_verdict(record)
    found = list(_CLAIM.finditer(claims))
    assert found, f"example {title!r} states no badge"
    for claim in found:
        pv = (verdict.uas if claim["kind"] == "UAS" else verdict.boot)["pi4"]
        assert (claim["icon"], claim["short"], claim["basis"]) == (ICON[pv.tone], pv.short, pv.basis_text)
