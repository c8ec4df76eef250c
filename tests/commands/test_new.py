"""`skillscope new NAME`: the scaffold `inv new-skill` makes, from the installed harness alone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.helpers import run_cli, structural

CATALOGS = Path(__file__).parent / "catalogs"


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


def settled(tmp_path: Path) -> Path:
    """A repo whose skillscope.toml says its skills live under skills/."""
    repo = Path(shutil.copytree(CATALOGS / "settled", tmp_path / "repo"))
    (repo / ".git").mkdir()
    return repo


def test_new_puts_the_skill_where_the_settings_say_skills_live(tmp_path):
    # Made at the root (the folder new ran in), it was outside skills/*: no command ever checked it.
    repo = settled(tmp_path)
    run = run_cli(["new", "csv-tool"], cwd=repo)
    assert run.code == 0 and run.stderr == ""
    assert "created skills/csv-tool/SKILL.md" in run.stdout
    assert not (repo / "csv-tool").exists()
    _, report = structural(repo)
    assert report["skills"] == ["csv-tool"]


def test_a_skill_made_outside_skills_dir_is_said_to_be_unseen(tmp_path):
    repo = settled(tmp_path)
    run = run_cli(["new", "csv-tool", "--dir", "."], cwd=repo)
    assert run.code == 0 and (repo / "csv-tool" / "SKILL.md").is_file()
    assert run.stderr == (
        "note: csv-tool is not under --skills-dir skills/*, so skillscope commands here will not see it; "
        "move it there (or create it with --dir), or add its folder to skills-dir.\n"
    )


def test_the_variable_comes_before_the_settings_file_and_the_flag_before_both(tmp_path):
    """`new` reads skills-dir as every command does (flag, then $SKILLSCOPE_SKILLS, then the file),
    through the settings, not a reading of its own."""
    repo = settled(tmp_path)
    env = {"SKILLSCOPE_SKILLS": "agents/*"}
    assert run_cli(["new", "from-env"], cwd=repo, environ=env).code == 0
    run = run_cli(["new", "from-flag", "--skills-dir", "tools/*"], cwd=repo, environ=env)
    assert run.code == 0 and run.stderr == ""
    assert (repo / "agents" / "from-env").is_dir() and (repo / "tools" / "from-flag").is_dir()


def test_a_skills_dir_setting_of_the_wrong_shape_is_an_error_naming_its_line(tmp_path):
    """Read on its own, a skills-dir that was no glob list was passed over: the skill went to the
    current folder, where no command looked."""
    repo = settled(tmp_path)
    (repo / "skillscope.toml").write_text("# settings\nskills-dir = 3\n")
    run = run_cli(["new", "csv-tool"], cwd=repo)
    assert run.code == 2 and not (repo / "csv-tool").exists()
    assert "skillscope.toml:2: `skills-dir`" in run.stderr


def test_a_new_skill_ships_the_files_the_repos_policy_asks_for_and_nothing_else_fails(tmp_path):
    """After init noticed every skill ships skill-card.md with three sections, a new skill that lacked
    it failed the repo's own policy at once; now only its placeholders do, until they are written."""
    repo = Path(shutil.copytree(CATALOGS / "staged", tmp_path / "repo"))
    assert run_cli(["init"], cwd=repo).code == 0
    run = run_cli(["new", "csv-tool"], cwd=repo)
    assert run.code == 0 and run.stderr == ""  # in skills/, the first of the two globs init wrote
    assert "skills/csv-tool/skill-card.md" in run.stdout
    card = (repo / "skills" / "csv-tool" / "skill-card.md").read_text()
    assert [line for line in card.splitlines() if line.startswith("## ")] == [
        "## Description",
        "## Owner",
        "## License",
    ]
    _, report = structural(repo)
    mine = [f for f in report["findings"] if f["path"].startswith("skills/csv-tool")]
    assert {f["rule"] for f in mine} == {"template-leftover"}
    assert {f["path"] for f in mine} >= {"skills/csv-tool/skill-card.md"}
