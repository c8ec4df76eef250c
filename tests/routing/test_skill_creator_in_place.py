"""skill-creator's files read in place, never converted: a lexical run, a behavioral dry run, and a run
of the real claude CLI against the scripted API whose report points into the user's own file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fakeapi import replies as R
from tests.support.helpers import run_cli
from tests.support.routing import CaseRouter, route, skills_repo

pytestmark = pytest.mark.usefixtures("private_temp")
NATIVE = Path(__file__).parents[1] / "acceptance" / "structural" / "skill-creator-native" / "pdf-tools"
TRIGGER_SET = "pdf-tools/evals/eval_set.json"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = skills_repo(tmp_path / "repo", "beta")
    shutil.copytree(NATIVE, root / "pdf-tools")
    return root


def line_of(repo: Path, rel: str, text: str) -> int:
    lines = (repo / rel).read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


def test_the_real_cli_routes_trigger_set_cases_and_reports_lines_in_the_users_file(fake_api, repo, env):
    fake_api.script(CaseRouter({"split contract.pdf": R.skill("pdf-tools")}))
    only = "pdf-tools-trigger-2,pdf-tools-no-trigger-4"
    run = route(
        repo, env, "--routing-room", "pdf-tools,beta", "--skip-preflight", "--no-cache", "--no-canary",
        "--only", only,
    )  # fmt: skip
    assert run.code == 0, run.stderr
    fired, quiet = run.case("pdf-tools-trigger-2"), run.case("pdf-tools-no-trigger-4")
    assert (fired["verdict"], quiet["verdict"]) == ("correct_trigger", "true_negative")
    assert fired["source"] == TRIGGER_SET
    assert fired["line"] == line_of(repo, TRIGGER_SET, "split contract.pdf")
    assert quiet["line"] == line_of(repo, TRIGGER_SET, "word document to markdown")
    assert not (repo / "pdf-tools" / "evals" / "evals.json").read_text().count("evaluations")  # untouched


def test_a_lexical_run_ranks_both_files_cases_in_place(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "lexical.json"
    run = run_cli(
        [
            "routing",
            "--engine",
            "lexical",
            "--repo",
            str(repo),
            "--skills-dir",
            "*",
            "--routing-room",
            "pdf-tools,beta",
            "--min-accuracy",
            "0",
            "--output",
            str(out),
        ],
        cwd=repo,
    )
    assert run.code == 0, run.stderr
    cases = {c["id"]: c for c in json.loads(out.read_text())["cases"]}
    assert {"pdf-tools-1", "pdf-tools-2", "pdf-tools-trigger-1", "pdf-tools-no-trigger-5"} <= set(cases)
    assert cases["pdf-tools-1"]["source"] == "pdf-tools/evals/evals.json"
    assert cases["pdf-tools-1"]["line"] == line_of(repo, "pdf-tools/evals/evals.json", '"id": 1') - 1  # its {


def test_a_behavioral_dry_run_lists_the_evals_as_cases(repo: Path) -> None:
    run = run_cli(
        ["behavioral", "--dry-run", "--repo", str(repo), "--skills-dir", "*", "--skill", "pdf-tools"],
        cwd=repo,
    )
    assert run.code == 0, run.stderr
    assert (
        "pdf-tools-1 (pdf-tools): not cached; Pull the table on page 2 of report.pdf into a CSV" in run.stdout
    )
    assert "pdf-tools-2 (pdf-tools)" in run.stdout


def test_a_skill_with_only_a_trigger_set_is_in_the_room_of_all(repo: Path, tmp_path: Path) -> None:
    (repo / "pdf-tools" / "evals" / "evals.json").unlink()
    out = tmp_path / "lexical.json"
    run = run_cli(
        [
            "routing",
            "--engine",
            "lexical",
            "--repo",
            str(repo),
            "--skills-dir",
            "*",
            "--routing-room",
            "all",
            "--warn",
            "tier0-behavior",
            "--min-accuracy",
            "0",
            "--output",
            str(out),
        ],
        cwd=repo,
    )
    assert run.code == 0, run.stderr
    skills = {c["skill"] for c in json.loads(out.read_text())["cases"]}
    assert skills == {"pdf-tools", "beta"}
