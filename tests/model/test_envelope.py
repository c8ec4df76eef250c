"""harness.model.envelope: one head for every JSON report, and the status words it counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import schemas
from harness.model.envelope import counts, status
from tests.support.helpers import make_skill, run_cli, structural
from tests.support.select import select

HEAD = ["command", "harness_version", "repo", "started_at", "elapsed_s", "passed", "status", "counts"]


def test_counts_tally_each_status_word():
    assert counts(["pass", "fail", "pass", "error"]) == {"total": 4, "pass": 2, "fail": 1, "error": 1}
    assert counts([]) == {"total": 0, "pass": 0, "fail": 0, "error": 0}


@pytest.mark.parametrize(
    ("passed", "words", "expected"),
    [
        (True, ["pass"], "pass"),
        (False, ["pass", "fail", "error"], "fail"),
        (False, ["pass", "error"], "error"),  # nothing failed: what is wrong is what could not be graded
        (False, [], "fail"),  # a run that graded nothing is a failure, never a pass
    ],
)
def test_the_run_status_says_why_it_did_not_pass(passed, words, expected):
    assert status(passed, counts(words)) == expected


def head(report: dict, command: str) -> None:
    assert list(report)[: len(HEAD)] == HEAD
    assert report["command"] == command and report["status"] in ("pass", "fail", "error")
    assert report["passed"] is (report["status"] == "pass")
    assert schemas.errors(f"{command}-report" if command != "select" else "plan", report) == []


def test_structural_counts_skills_and_fails_the_one_with_an_error(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    make_skill(root, "beta", frontmatter={"name": "Beta", "description": "d"})
    run, report = structural(root, tmp=tmp_path)
    head(report, "structural")
    assert run.code == 1 and report["status"] == "fail"
    assert report["counts"] == {"total": 2, "pass": 1, "fail": 1, "error": 0}


def test_refs_counts_markdown_files(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root, "alpha", body="See [the guide](missing.md).\n")
    output = tmp_path / "refs.json"
    run = run_cli(["refs", "--repo", str(root), "--no-external", "--output", str(output)], cwd=root)
    report = json.loads(output.read_text(encoding="utf-8"))
    head(report, "refs")
    assert run.code == 1 and report["counts"]["fail"] == 1
    assert report["counts"]["total"] == report["totals"]["files"]


def test_select_prints_the_envelope_before_the_plan(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    report = select(root, "--all").plan
    head(report, "select")
    assert report["counts"]["total"] == 1 and report["repo"] == str(root.resolve())
