"""Workflows, issue forms and hooks: checked by actionlint and by check-jsonschema's bundled GitHub schemas."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from uasdb.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
FORMS = sorted((REPO / ".github" / "ISSUE_TEMPLATE").glob("*.yml"))


def tool(name: str) -> str:
    """A checker from PATH, the venv, or `make tools` (.tools/bin)."""
    for candidate in (shutil.which(name), Path(sys.executable).parent / name, REPO / ".tools" / "bin" / name):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    pytest.fail(f"{name} not found: run `make setup` (actionlint comes from `make tools`, check-jsonschema from the venv)")


def run(args) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=REPO)


def test_there_are_workflows_and_forms():
    assert {p.name for p in WORKFLOWS} >= {"issue-to-pr.yml", "data-diff.yml"}
    assert {p.name for p in FORMS} >= {"adapter-report.yml", "config.yml"}


@pytest.mark.reference
def test_actionlint():
    done = run([tool("actionlint"), *map(str, WORKFLOWS)])
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor():
    """zizmor (pinned in requirements.txt) at its default persona, offline: the tests run without network, and
    its online audits need a GitHub token."""
    done = run([tool("zizmor"), "--offline", "--no-progress", *map(str, WORKFLOWS)])
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_containers_and_toolchains_are_pinned_exactly(path):
    text = path.read_text(encoding="utf-8")
    for image in re.findall(r"^\s*(?:container|image):\s*(\S+)", text, re.M):
        assert re.fullmatch(r"[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}", image), f"{image}: pin the image by digest"
    for version in re.findall(r"go-version:\s*\"?([^\"\s#]+)", text):
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"go-version {version}: pin the exact release"


@pytest.mark.parametrize("schema, files", [
    ("vendor.github-workflows", WORKFLOWS),
    ("vendor.github-issue-forms", [p for p in FORMS if p.name != "config.yml"]),
    ("vendor.github-issue-config", [p for p in FORMS if p.name == "config.yml"]),
])
def test_check_jsonschema_builtin_github_schemas(schema, files):
    # The builtin schemas ship inside check-jsonschema, so this needs no network. Its command runs in this process,
    # as check-jsonschema's own acceptance tests run it (click's CliRunner): one import, not one per schema.
    from check_jsonschema.cli.main_command import main as check_jsonschema
    from click.testing import CliRunner
    done = CliRunner().invoke(check_jsonschema, ["--builtin-schema", schema, *map(str, files)])
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_to_a_full_commit_sha(path):
    uses = re.findall(r"uses:\s*(\S+)(.*)", path.read_text(encoding="utf-8"))
    assert uses
    for action, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", action), action
        assert re.search(r"# v\d", comment), f"{action}: say which release the SHA is"


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_least_privilege_and_no_untrusted_text_in_scripts(path):
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert "permissions" in workflow and workflow["permissions"] in ({}, {"contents": "read"})
    for job in workflow["jobs"].values():
        assert job.get("timeout-minutes")
        for step in job["steps"]:
            # Issue text and titles reach scripts only through env, never through ${{ }} in `run`.
            assert not re.search(r"\$\{\{\s*github\.event\.(issue|pull_request|comment)", step.get("run", ""))


def test_issue_to_pr_needs_the_maintainers_label_not_the_forms():
    form = yaml.safe_load((REPO / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml").read_text(encoding="utf-8"))
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "issue-to-pr.yml").read_text(encoding="utf-8"))
    assert "adapter-report" not in form["labels"]
    assert "github.event.label.name == 'adapter-report'" in workflow["jobs"]["open-pull-request"]["if"]


def test_pull_requests_the_issue_bot_opens_still_get_ci():
    """GITHUB_TOKEN's pull requests trigger no workflows; the bot must dispatch CI, and CI must accept that."""
    bot = (REPO / ".github" / "workflows" / "issue-to-pr.yml").read_text(encoding="utf-8")
    ci = (REPO / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8")
    assert 'gh workflow run ci.yml --repo "$GITHUB_REPOSITORY" --ref "$branch"' in bot
    assert "actions: write" in bot
    assert re.search(r"^  workflow_dispatch:", ci, re.M)


def test_pre_commit_hooks_run_existing_commands_and_the_fast_lane():
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    commands = set(build_parser()._subparsers._group_actions[0].choices)
    targets = set(re.findall(r"^([a-z][\w-]*):", (REPO / "Makefile").read_text(encoding="utf-8"), re.M))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert all(repo["repo"] == "local" for repo in config["repos"])
    assert {" ".join(h["entry"].split()[:2]) for h in hooks} >= {".venv/bin/uasdb fmt", "make check"}
    for hook in hooks:
        program, command = hook["entry"].split()[:2]
        assert (program == ".venv/bin/uasdb" and command in commands) or (program == "make" and command in targets)
        re.compile(hook["files"])


def test_pull_request_template_has_a_checklist():
    text = (REPO / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    assert text.count("- [ ]") >= 5 and "uasdb validate" in text
