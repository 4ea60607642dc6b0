"""The documentation stays true: its example validates, its recipes run, its rule catalogue is complete."""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import BASE_CHIPSET, REPO, TODAY, write_tree
from uasdb.database import check
from uasdb.rules import all_rules

CONTRIBUTING = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
RECIPES_DIR = REPO / "tests" / "fixtures" / "recipes"


def section(title: str) -> str:
    start = CONTRIBUTING.index(f"## {title}")
    end = CONTRIBUTING.find("\n## ", start + 1)
    return CONTRIBUTING[start: end if end != -1 else None]


def test_commented_example_record_is_valid(tmp_path):
    example = re.search(r"## A fully commented record.*?```yaml\n(.*?)```", CONTRIBUTING, re.S).group(1)
    data = write_tree(tmp_path, [], [BASE_CHIPSET])
    (data / "adapters" / "acme-sata-cable.yaml").write_text(example, encoding="utf-8")
    problems = check([data], today=TODAY).problems
    assert [p.render() for p in problems] == []


def test_every_rule_is_in_the_catalogue():
    catalogue = section("Validation rules")
    for rule in all_rules():
        assert f"`{rule.id}`" in catalogue, f"rule {rule.id} is not documented in CONTRIBUTING.md"


def test_every_problem_id_the_code_can_emit_is_documented():
    source = "\n".join(p.read_text() for p in (REPO / "scripts" / "uasdb").glob("*.py"))
    emitted = set(re.findall(r'"((?:file|yaml|schema)-[a-z0-9-]+)"', source))
    catalogue = section("Validation rules")
    missing = sorted(r for r in emitted if f"`{r}`" not in catalogue and r != "schema-internal")
    assert missing == []


def recipes():
    found = re.findall(r"### (.+?)\n\n```sh\n(yq .+?)\n```", section("Querying the data with yq"))
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
