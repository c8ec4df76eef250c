"""`skillscope new NAME`: the scaffold `inv new-skill` makes, from the installed harness alone."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.helpers import run_cli, structural


def test_new_makes_a_skill_structural_finds_and_holds_unfinished(tmp_path):
    run = run_cli(["new", "csv-tool", "--dir", "skills"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert "skills/csv-tool/SKILL.md" in run.stdout
    skill = tmp_path / "skills" / "csv-tool"
    assert "name: csv-tool" in (skill / "SKILL.md").read_text()
    cases = json.loads((skill / "evals" / "evals.json").read_text())["evaluations"]
    assert all(case["id"].startswith("csv-tool") for case in cases)
    checked, report = structural(tmp_path, "--skills-dir", "skills/*")
    assert report["skills"] == ["csv-tool"]
    assert {f["rule"] for f in report["findings"]} == {"template-leftover"}  # until its text is written


def test_a_name_that_is_not_a_folder_name_gets_the_one_to_use(tmp_path):
    run = run_cli(["new", "Changelog Writer"], cwd=tmp_path)
    assert run.code == 2
    assert "'Changelog Writer' is not lowercase-with-hyphens; try 'changelog-writer'." in run.stderr


def test_an_existing_folder_is_never_overwritten(tmp_path):
    (tmp_path / "csv-tool").mkdir()
    run = run_cli(["new", "csv-tool"], cwd=tmp_path)
    assert run.code == 2 and "already exists" in run.stderr


def test_new_refuses_a_skills_folder_that_is_a_link_leading_out(tmp_path: Path):
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    (repo / ".git").mkdir(parents=True)
    outside.mkdir()
    (repo / "skills").symlink_to("../outside")
    run = run_cli(["new", "my-skill", "--dir", "skills"], cwd=repo)
    assert run.code == 1 and run.stderr.startswith("error: refused to write the skill my-skill to ")
    assert list(outside.iterdir()) == []
