"""`skillscope structural`: reports (JSON, markdown, step summary, annotations) and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator

from harness import schemas
from tests.support.helpers import evals_for, make_skill, run_cli, structural


def report_schema() -> Draft202012Validator:
    return Draft202012Validator(schemas.load("structural-report"))


def test_a_clean_repo_exits_zero_with_a_schema_valid_report(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 0 and run.stderr == ""
    assert list(report_schema().iter_errors(report)) == []
    assert report["skills"] == ["alpha"] and report["passed"] is True
    assert report["totals"] == {
        "skills": 1,
        "datasets": 1,
        "cases": 5,
        "errors": 0,
        "warnings": 0,
        "known": 0,
    }
    assert report["repo"] == str((tmp_path / "repo").resolve())
    assert report["harness_version"]


def test_findings_exit_one_and_carry_every_field(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha", frontmatter={"name": "Alpha", "description": "d"})
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1
    assert list(report_schema().iter_errors(report)) == []
    finding = next(f for f in report["findings"] if f["rule"] == "name-format")
    assert finding == {
        "rule": "name-format",
        "severity": "error",
        "path": "alpha/SKILL.md",
        "line": 2,
        "message": finding["message"],
    }
    assert report["totals"]["errors"] == len(report["findings"])


def test_warnings_alone_exit_zero(tmp_path: Path) -> None:
    make_skill(
        tmp_path / "repo", "alpha", frontmatter={"name": "alpha", "description": "Does alpha.", "owner": "me"}
    )
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 0
    assert report["totals"]["warnings"] == 1 and report["passed"] is True


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    run = run_cli(["structural", "--repo", str(tmp_path / "missing")], cwd=tmp_path)
    assert run.code == 2 and "--repo" in run.stderr


def test_without_output_the_report_lands_under_skillscope_runs(tmp_path: Path) -> None:
    make_skill(tmp_path, "alpha")
    first = run_cli(["structural", "--repo", str(tmp_path)], cwd=tmp_path)
    second = run_cli(["structural", "--repo", str(tmp_path)], cwd=tmp_path)
    assert first.code == second.code == 0
    reports = sorted((tmp_path / ".skillscope" / "runs").glob("structural-*.json"))
    assert len(reports) == 2, "a second run in the same second must not overwrite the first"
    for path in reports:
        assert list(report_schema().iter_errors(json.loads(path.read_text()))) == []
        assert f"JSON report: {path}" in first.stdout + second.stdout


def test_a_relative_output_is_resolved_from_the_current_directory(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    run = run_cli(["structural", "--repo", "repo", "--output", "out/r.json"], cwd=tmp_path)
    assert run.code == 0
    assert (tmp_path / "out" / "r.json").is_file()


def test_an_unwritable_output_is_a_clear_error_not_a_crash(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    (tmp_path / "taken").write_text("a file where a directory is needed")
    run = run_cli(["structural", "--repo", "repo", "--output", "taken/r.json"], cwd=tmp_path)
    assert run.code == 2  # a usage error, found before any check runs
    assert run.stderr.startswith("error: --output") and "taken is a file, not a folder" in run.stderr


def test_format_markdown_puts_a_table_of_findings_on_stdout(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha", evals=evals_for("alpha", positives=2))
    run, _ = structural(tmp_path / "repo", "--format", "markdown", tmp=tmp_path)
    assert run.stdout.startswith("## Structural check")
    assert "**failed**" in run.stdout
    assert "| error" in run.stdout and "tier0-positives" in run.stdout


def test_a_pipe_in_a_message_does_not_break_the_table(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha", frontmatter={"name": "al|pha", "description": "d"})
    run, _ = structural(tmp_path / "repo", "--format", "markdown", tmp=tmp_path)
    rows = [line for line in run.stdout.splitlines() if line.startswith("| error")]
    assert rows and all(row.count(" | ") == 3 for row in rows)


def test_summary_flag_appends_the_markdown(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    summary = tmp_path / "summary.md"
    summary.write_text("# Earlier step\n")
    structural(tmp_path / "repo", "--summary", str(summary), tmp=tmp_path)
    text = summary.read_text()
    assert text.startswith("# Earlier step\n") and "## Structural check" in text


def test_github_step_summary_is_appended_when_set(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    summary = tmp_path / "step-summary.md"
    structural(tmp_path / "repo", tmp=tmp_path, environ={"GITHUB_STEP_SUMMARY": str(summary)})
    structural(tmp_path / "repo", tmp=tmp_path, environ={"GITHUB_STEP_SUMMARY": str(summary)})
    assert summary.read_text().count("## Structural check") == 2


def test_a_relative_summary_path_is_resolved_from_the_current_directory(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    run = run_cli(["structural", "--repo", "repo", "--output", "r.json", "--summary", "s.md"], cwd=tmp_path)
    assert run.code == 0
    assert "## Structural check" in (tmp_path / "s.md").read_text()


def test_annotations_are_printed_only_under_github_actions(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha", frontmatter={"name": "Alpha", "description": "d"})
    quiet, _ = structural(tmp_path / "repo", tmp=tmp_path)
    loud, _ = structural(tmp_path / "repo", tmp=tmp_path, environ={"GITHUB_ACTIONS": "true"})
    assert not [line for line in quiet.lines if line.startswith("::")]
    annotations = [line for line in loud.lines if line.startswith("::")]
    assert "::error file=alpha/SKILL.md,line=2,title=skillscope name-format::" in "\n".join(annotations)
    assert len(annotations) == 2  # name-format and name-mismatch


def test_matching_no_skill_fails_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "repo" / "docs").mkdir(parents=True)
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.code == 1
    assert [f["rule"] for f in report["findings"]] == ["no-skill"]


def test_skills_dir_narrows_the_check(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo" / "skills", "alpha")
    make_skill(tmp_path / "repo" / "broken", "beta", evals=None)
    run, report = structural(tmp_path / "repo", "--skills-dir", "skills/*", tmp=tmp_path)
    assert (run.code, report["skills"]) == (0, ["alpha"])


def test_skill_files_and_sections_accept_comma_lists(tmp_path: Path) -> None:
    card = "# Card\n\n## Purpose\n\nx\n\n## Limits\n\ny\n"
    make_skill(tmp_path / "repo", "alpha", files={"skill-card.md": card, "LICENSE.txt": "MIT"})
    run, _ = structural(
        tmp_path / "repo",
        "--skill-files",
        "skill-card.md,LICENSE.txt",
        "--skill-sections",
        "purpose, limits",
        tmp=tmp_path,
    )
    assert run.code == 0
