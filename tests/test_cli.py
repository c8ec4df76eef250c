"""harness.cli: version, usage errors and internal errors, all as exit codes on the Context's streams."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest

from harness import __version__
from harness.cli import main
from harness.commands import structural as structural_command
from harness.context import Context
from tests.support.helpers import make_skill, run_cli


def test_version_prints_the_harness_version_and_exits_zero(tmp_path: Path) -> None:
    run = run_cli(["--version"], cwd=tmp_path)
    assert (run.code, run.stdout.strip()) == (0, f"skillscope {__version__}")


def test_help_lists_the_commands_and_exits_zero(tmp_path: Path) -> None:
    run = run_cli(["--help"], cwd=tmp_path)
    assert run.code == 0
    for command in ("structural", "list-skills", "template"):
        assert command in run.stdout


def test_an_unknown_command_is_a_usage_error_with_exit_2(tmp_path: Path) -> None:
    run = run_cli(["grade-everything"], cwd=tmp_path)
    assert run.code == 2
    assert "invalid choice" in run.stderr and run.stdout == ""


def test_no_command_at_all_is_a_usage_error(tmp_path: Path) -> None:
    assert run_cli([], cwd=tmp_path).code == 2


def test_an_unknown_flag_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli(["structural", "--no-such-flag"], cwd=tmp_path)
    assert run.code == 2 and "--no-such-flag" in run.stderr


def test_a_malformed_list_flag_is_exit_2_naming_the_flag(tmp_path: Path) -> None:
    make_skill(tmp_path, "demo")
    run = run_cli(["structural", "--repo", str(tmp_path), "--skill-files", '["a",'], cwd=tmp_path)
    assert run.code == 2
    assert run.stderr.startswith("error: --skill-files")


def test_an_internal_error_is_one_line_and_exit_3_never_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*_args, **_kwargs):
        raise RuntimeError("boom\nsecond line\n  third")

    monkeypatch.setattr(structural_command.catalog, "load", explode)
    make_skill(tmp_path, "demo")
    run = run_cli(["structural", "--repo", str(tmp_path)], cwd=tmp_path)
    assert run.code == 3
    assert len(run.stderr.strip().splitlines()) == 1
    assert "internal error (RuntimeError: boom second line third)" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_a_reader_that_goes_away_is_no_internal_error(tmp_path: Path) -> None:
    """`skillscope structural | head`: the closed pipe ends the run quietly (141), with no crash log."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    make_skill(tmp_path, "demo")
    ctx = Context(environ={}, cwd=tmp_path, stdin=io.StringIO(), stdout=ClosedPipe(), stderr=io.StringIO())
    logs_before = set(Path(tempfile.gettempdir()).glob("skillscope-crash-*"))
    assert main(["structural", "--repo", str(tmp_path), "--output", str(tmp_path / "r.json")], ctx) == 141
    assert ctx.stderr.getvalue() == ""
    assert set(Path(tempfile.gettempdir()).glob("skillscope-crash-*")) == logs_before
