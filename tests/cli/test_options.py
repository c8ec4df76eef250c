"""harness.cli.options: list flags as JSON arrays or comma lists, typed options, errors naming the flag."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from harness.checks.external import ExternalOptions
from harness.cli.options import add_external, external_options, parse_list, writable
from harness.errors import UsageError
from harness.select.policy import parse_runner_types
from tests.support.helpers import make_skill, run_cli


def test_a_list_flag_takes_a_json_array() -> None:
    assert parse_list("--skills-dir", '["skills/*", "extra/*"]') == ["skills/*", "extra/*"]


def test_a_list_flag_takes_a_comma_list_and_strips_blanks_around_items() -> None:
    assert parse_list("--skills-dir", " skills/* , extra/*,") == ["skills/*", "extra/*"]


def test_a_blank_or_absent_list_flag_is_empty() -> None:
    assert parse_list("--skill-files", None) == []
    assert parse_list("--skill-files", "   ") == []


@pytest.mark.parametrize("text", ['["a", ', '{"a": 1}', '["a", 3]', "a,,b", '["  "]'])
def test_a_malformed_list_names_the_flag(text: str) -> None:
    with pytest.raises(UsageError, match="^--skill-sections"):
        parse_list("--skill-sections", text)


def external_args(*argv: str, fetching: bool = True) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_external(parser, fetching=fetching)
    return parser.parse_args(list(argv))


def test_external_options_come_from_the_flags_given(tmp_path: Path) -> None:
    args = external_args("--jobs", "3", "--retries", "0", "--cache", "urls.json", "--exclude-url", "a,b")
    made = external_options(args, tmp_path)
    assert (made.jobs, made.retries, made.exclude) == (3, 0, ("a", "b"))
    assert made.cache_path == tmp_path / "urls.json" and made.request_timeout_s == 15.0


def test_a_command_without_the_fetching_flags_gets_their_defaults(tmp_path: Path) -> None:
    made = external_options(external_args(fetching=False), tmp_path)
    assert made == ExternalOptions()


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (("--jobs", "0"), "--jobs"),
        (("--retries", "-1"), "--retries"),
        (("--request-timeout", "0"), "--request"),
    ],
)
def test_an_external_value_that_cannot_work_names_its_flag(tmp_path: Path, argv, flag) -> None:
    with pytest.raises(UsageError, match=f"^{flag}"):
        external_options(external_args(*argv), tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1000 + "]" * 1000,
        '{"a":' * 1000 + "1" + "}" * 1000,
        "[" * 20000 + "]" * 20000,
        "[" * 40 + "]" * 40,
    ],
)
def test_json_nested_past_any_hand_written_list_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="^--names: the JSON .*(deep|deeply)"):
        parse_list("--names", text)


def test_an_int_too_long_to_convert_is_a_usage_error_not_a_crash() -> None:
    with pytest.raises(UsageError, match="^--names: the JSON cannot be read") as caught:
        parse_list("--names", "[" + "9" * 5000 + "]")
    assert "sys." not in str(caught.value)


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "{}" + "}" * 1000])
def test_runner_types_nested_too_deep_are_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="^--runner-types: the JSON"):
        parse_runner_types(text)


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
