"""Repo settings ([tool.skillscope] in pyproject.toml, or skillscope.toml) are flag defaults; flags win."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import settings
from tests.support.helpers import make_skill, run_cli, structural

# Schemas of inputs, and of what is printed rather than published as a report (select's plan, history).
NOT_REPORTS = {
    "evals.schema.json",
    "machine.schema.json",
    "plan.schema.json",
    "compare-input.schema.json",
    "quarantine.schema.json",  # a committed input file, not a report
    "skill-creator-evals.schema.json",  # other tools' eval files, read in place
    "skill-creator-triggers.schema.json",
    "history-report.schema.json",  # printed on stdout, not published
    "matrix-defs.schema.json",  # the three matrix reports' shared definitions, not a report
}


def repo_with_two_catalogs(root: Path) -> Path:
    for name in ("alpha", "beta"):
        make_skill(root / "skills", name)
    make_skill(root / "more", "gamma")
    return root


def write_settings(root: Path, body: str, pyproject: bool = True) -> Path:
    path = root / ("pyproject.toml" if pyproject else "skillscope.toml")
    path.write_text(("[project]\nname = 'x'\n\n[tool.skillscope]\n" if pyproject else "") + body)
    return path


@pytest.mark.parametrize("pyproject", [True, False])
def test_the_files_keys_are_the_flags_defaults(tmp_path, pyproject):
    repo = repo_with_two_catalogs(tmp_path)
    path = write_settings(repo, 'skills-dir = ["skills/*"]\nexternal = false\njobs = 2\n', pyproject)
    run, report = structural(repo)
    assert run.code == 0, run.stdout + run.stderr
    assert report["skills"] == ["alpha", "beta"]
    assert report["settings"]["file"] == str(path)
    assert report["settings"]["from_file"] == ["external", "jobs", "skills-dir"]
    assert report["settings"]["values"]["jobs"] == 2


def test_a_flag_beats_the_file_and_the_environment_beats_it_too(tmp_path):
    repo = repo_with_two_catalogs(tmp_path)
    write_settings(repo, 'skills-dir = "skills/*"\n')
    run, report = structural(repo, "--skills-dir", "more/*")
    assert report["skills"] == ["gamma"]
    assert report["settings"]["from_file"] == []  # read, but overridden
    run, report = structural(repo, environ={"SKILLSCOPE_SKILLS": "more/*"})
    assert report["skills"] == ["gamma"]


def test_a_key_of_another_command_is_left_to_it(tmp_path):
    repo = repo_with_two_catalogs(tmp_path)
    write_settings(repo, 'skills-dir = "skills/*"\nrouting-room = "all"\nmin-accuracy = 0.9\n')
    run, report = structural(repo)
    assert run.code == 0, run.stdout + run.stderr
    assert "min-accuracy" not in report["settings"]["values"]
    assert report["settings"]["values"]["routing-room"] == "all"  # listing-budget predicts the room


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'skils-dir = "skills/*"\n',
            ":5: `skils-dir` is not a skillscope setting; did you mean `skills-dir`?",
        ),
        ('repo = "."\n', ":5: `repo` is not a skillscope setting"),
        ('external = "no"\n', ":5: `external` is a switch; write true or false."),
        ('jobs = "many"\n', ":5: `jobs` = 'many' is not what --jobs takes"),
        ("skills-dir = [1, 2]\n", ":5: `skills-dir` takes a string or a list of strings."),
        ("skills-dir = \n", "not valid TOML"),
    ],
)
def test_a_bad_setting_is_a_usage_error_naming_the_file_and_line(tmp_path, body, message):
    repo = repo_with_two_catalogs(tmp_path)
    path = write_settings(repo, body)
    run, _ = structural(repo)
    assert run.code == 2
    assert run.stderr.startswith(f"error: {path}"), run.stderr
    assert message in run.stderr


def test_settings_in_both_files_are_an_error(tmp_path):
    repo = repo_with_two_catalogs(tmp_path)
    write_settings(repo, 'skills-dir = "skills/*"\n')
    write_settings(repo, 'skills-dir = "more/*"\n', pyproject=False)
    run, _ = structural(repo)
    assert run.code == 2 and "keep one of them" in run.stderr


@pytest.mark.parametrize("text", ["[project]\nname = 'x'\n", "[project\nname = \n"])
def test_a_pyproject_without_the_table_is_no_settings(tmp_path, text):
    # Another tool's pyproject.toml, even a broken one, is that tool's to complain about.
    repo = repo_with_two_catalogs(tmp_path)
    (repo / "pyproject.toml").write_text(text)
    run, report = structural(repo, "--skills-dir", "skills/*")
    assert run.code == 0, run.stderr
    assert report["settings"]["file"] is None


def test_the_settings_are_read_from_the_repo_root_not_the_current_directory(tmp_path):
    repo = repo_with_two_catalogs(tmp_path)
    (repo / ".git").mkdir()
    write_settings(repo, 'skills-dir = "more/*"\n')
    run = run_cli(["list-skills"], cwd=repo / "skills")
    assert run.code == 0 and run.stdout.strip() == '["gamma"]'


def test_every_report_schema_has_room_for_the_settings():
    """The CLI adds `settings` to every JSON report it publishes; each report schema must allow it."""
    schemas_dir = Path(__file__).resolve().parents[2] / "schema"
    reports = [p for p in schemas_dir.glob("*.schema.json") if p.name not in NOT_REPORTS]
    assert reports
    for path in reports:
        assert "settings" in json.loads(path.read_text())["properties"], path.name


@pytest.mark.parametrize(
    ("on_disk", "at_base", "holds"),
    [
        ("[tool.skillscope]\nmin-accuracy = 0.9\n", None, True),
        ("[tool.ruff]\nline-length = 100\n", None, False),
        ("[tool.ruff]\n# skillscope is configured elsewhere\n", None, False),
        (None, None, False),
        ("[tool.ruff]\n", "[tool.skillscope]\nmin-accuracy = 0.9\n", True),  # the change removed the table
        (None, "[tool.skillscope]\nmin-accuracy = 0.9\n", True),  # the change removed the file
        ("[tool.skillscope\n", None, True),  # unreadable: counted, never passed over
    ],
)
def test_a_pyproject_counts_as_settings_when_it_holds_the_table_now_or_at_the_base(
    tmp_path, on_disk, at_base, holds
):
    if on_disk is not None:
        (tmp_path / settings.PYPROJECT).write_text(on_disk, encoding="utf-8")
    assert settings.pyproject_holds_settings(tmp_path, at_base) is holds
