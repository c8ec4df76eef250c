"""harness.cli.resolve: report and log paths checked before any work, naming the flag."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.cli.resolve import writable
from harness.errors import UsageError
from tests.support.helpers import make_skill, run_cli


@pytest.mark.parametrize(
    "command, flag, where",
    [
        ("structural", "--output", "file/report.json"),
        ("structural", "--output", "folder"),
        ("structural", "--summary", "file/summary.md"),
        ("refs", "--output", "file/deeper/report.json"),
        ("routing", "--junit", "file/x.xml"),
        ("routing", "--keep-logs", "file"),
        ("behavioral", "--keep-logs", "file/logs"),
        ("behavioral", "--junit", "folder"),
    ],
)
def test_a_report_or_log_path_that_cannot_be_written_is_a_usage_error_before_any_work(
    tmp_path: Path, command: str, flag: str, where: str
) -> None:
    make_skill(tmp_path / "repo", "demo")
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder").mkdir()
    run = run_cli([command, "--repo", str(tmp_path / "repo"), flag, where], cwd=tmp_path)
    assert run.code == 2 and run.stdout == ""
    assert run.stderr.startswith(f"error: {flag} {tmp_path / where}") and run.stderr.count("\n") == 1


def test_a_folder_without_write_permission_is_named_as_such(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # root writes anywhere: deny directly
    with pytest.raises(UsageError, match="permission denied"):
        writable("--output", tmp_path / "report.json", folder=False)


def test_paths_that_can_be_created_pass(tmp_path: Path) -> None:
    writable("--output", tmp_path / "new" / "deeper" / "report.json", folder=False)
    writable("--keep-logs", tmp_path / "logs", folder=True)


@pytest.mark.parametrize(
    "command, flag, where",
    [
        ("routing", "--keep-logs", "logs"),
        ("behavioral", "--keep-logs", "logs/deeper"),
        ("behavioral", "--junit", "logs/junit.xml"),
        ("show", "--html", "logs/page.html"),
        ("history", "--html", "logs/page.html"),
        ("history", "--summary", "logs/summary.md"),
    ],
)
def test_a_report_or_log_path_behind_a_link_of_the_repo_leading_out_is_refused_before_any_work(
    tmp_path: Path, command: str, flag: str, where: str
) -> None:
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    make_skill(repo, "demo")
    (repo / ".git").mkdir()
    outside.mkdir()
    (repo / "logs").symlink_to("../outside")
    given = ["show", "report.json"] if command == "show" else [command]
    run = run_cli([*given, flag, where], cwd=repo)
    assert run.code == 2 and run.stdout == "", run.stderr
    assert run.stderr.startswith(f"error: {flag} {repo / where}: {os.path.realpath(repo)}/logs is a symlink")
    assert run.stderr.count("\n") == 1 and list(outside.iterdir()) == []
