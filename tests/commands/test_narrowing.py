"""--skill and --only on the offline commands: structural and refs check only the skills named, or
the skills owning the case ids named, like the graded commands select their cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.helpers import run_cli, structural

CATALOG = Path(__file__).parent / "catalogs" / "adopting"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(CATALOG, root)
    (root / ".git").mkdir()
    return root


def test_skill_narrows_structural_to_the_named_skills(repo: Path, tmp_path: Path):
    run, report = structural(repo, "--skill", "pdf-forms,csv-cleaner", tmp=tmp_path)
    assert run.code == 0 and report["skills"] == ["pdf-forms", "csv-cleaner"]
    assert report["totals"]["skills"] == 2


def test_only_takes_a_case_id_for_the_skill_that_owns_it(repo: Path, tmp_path: Path):
    run, report = structural(repo, "--only", "release-notes-pos-2", "--skill", "pdf-forms", tmp=tmp_path)
    assert run.code == 1 and report["skills"] == ["release-notes"]  # --only wins over --skill
    assert [f["rule"] for f in report["findings"]] == ["tier0-behavior"]


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--skill", "ghost", "--skill ghost: no such skill"),
        ("--only", "ghost-1", "--only ghost-1: no skill or case"),
    ],
)
def test_a_name_that_matches_nothing_is_a_usage_error(repo: Path, tmp_path: Path, flag, value, said):
    run, _ = structural(repo, flag, value, tmp=tmp_path)
    assert run.code == 2 and said in run.stderr


def test_refs_narrows_the_same_way(repo: Path, tmp_path: Path):
    output = tmp_path / "refs.json"
    run = run_cli(["refs", "--no-external", "--skill", "csv-cleaner", "--output", str(output)], cwd=repo)
    assert run.code == 0 and json.loads(output.read_text(encoding="utf-8"))["skills"] == ["csv-cleaner"]


@pytest.mark.parametrize(
    "command",
    [
        ["routing", "--engine", "lexical", "--routing-room", "all", "--min-accuracy", "0"],
        ["routing", "--routing-room", "all", "--dry-run"],
        ["behavioral", "--dry-run"],
    ],
    ids=["lexical", "agent-dry-run", "behavioral-dry-run"],
)
def test_a_typo_in_an_only_list_is_a_usage_error_naming_the_near_id(repo: Path, tmp_path: Path, command):
    """`--only good,typo` used to run the good one and say nothing of the typo."""
    only = ["--only", "release-notes-pos-2,release-notes-pos-9x", "--warn", "tier0-behavior"]
    run = run_cli([*command, *only, "--output", str(tmp_path / "r.json")], cwd=repo)
    assert run.code == 2, run.stdout + run.stderr
    assert "--only release-notes-pos-9x: no case id or skill name" in run.stderr
    assert "did you mean release-notes-pos-" in run.stderr
