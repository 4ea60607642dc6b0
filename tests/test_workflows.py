"""GitHub workflows are checked by actionlint and keep third-party actions pinned by commit."""
import re
import shutil
import subprocess

from helpers import REPO

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))


def actionlint() -> str:
    local = REPO / ".tools" / "bin" / "actionlint"
    found = str(local) if local.exists() else shutil.which("actionlint")
    assert found, "actionlint is not installed: run `make tools`"
    return found


def test_actionlint_passes_on_every_workflow():
    assert WORKFLOWS, "no workflows found"
    result = subprocess.run([actionlint(), *map(str, WORKFLOWS)], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actions_are_pinned_by_full_commit_sha():
    for workflow in WORKFLOWS:
        for line in workflow.read_text().splitlines():
            match = re.search(r"uses:\s*([^\s#]+)", line)
            if match and not match.group(1).startswith("./"):
                assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", match.group(1)), f"{workflow.name}: {line.strip()}"


def test_every_workflow_declares_permissions():
    for workflow in WORKFLOWS:
        assert re.search(r"^permissions:", workflow.read_text(), re.M), f"{workflow.name} has no top-level permissions"


def test_pull_requests_the_issue_bot_opens_still_get_ci():
    """GITHUB_TOKEN's pull requests trigger no workflows; the bot must dispatch CI, and CI must accept that."""
    bot = (REPO / ".github" / "workflows" / "issue-to-pr.yml").read_text()
    ci = (REPO / ".github" / "workflows" / "ci.yml").read_text()
    assert 'gh workflow run ci.yml --repo "$GITHUB_REPOSITORY" --ref "$branch"' in bot
    assert "actions: write" in bot
    assert re.search(r"^  workflow_dispatch:", ci, re.M)
