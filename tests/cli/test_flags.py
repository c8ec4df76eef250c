"""harness.cli.flags: list flags as JSON arrays or comma lists, typed options, errors naming the flag."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from harness.checks.external import ExternalOptions
from harness.cli.flags import ENGINES, FLAGS, add_external, external_options, parse_list
from harness.errors import UsageError
from harness.select.policy import parse_runner_types


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


def declared_by() -> dict[str, dict[str, argparse.Action]]:
    """Each long flag's action in every command declaring it (and the top-level parser's, as `skillscope`)."""
    from harness.cli import COMMANDS, build_parser, command_parser

    full = build_parser()
    found: dict[str, dict[str, argparse.Action]] = {}
    for name, parser in [("skillscope", full), *((c, command_parser(full, c)) for c in COMMANDS)]:
        for action in parser._actions:
            for option in action.option_strings:
                if option.startswith("--"):
                    found.setdefault(option[2:], {})[name] = action
    return found


def test_every_row_of_the_flag_table_is_a_flag_some_command_declares() -> None:
    declared = declared_by()
    assert set(FLAGS) <= set(declared)
    for flag in FLAGS.values():
        assert {a.dest for a in declared[flag.name].values()} <= {flag.dest, "help", "version"}, flag.name


def test_an_environment_fallback_is_named_in_its_flags_help() -> None:
    """In every command that reads the flag as a setting: `init --skills-dir` is the glob it writes."""
    from harness.cli import UNSETTLED

    declared = declared_by()
    for flag in (f for f in FLAGS.values() if f.env):
        for command, action in declared[flag.name].items():
            if command not in UNSETTLED:
                assert f"${flag.env}" in action.help, (flag.name, command)


def test_engine_rows_are_routing_flags_and_refused_rows_are_refused_by_behavioral() -> None:
    declared = declared_by()
    for flag in FLAGS.values():
        if flag.engine or flag.refused_by:
            assert "routing" in declared[flag.name], flag.name
        for command in flag.refused_by:
            assert declared[flag.name][command].help == argparse.SUPPRESS, (flag.name, command)
    assert set(ENGINES) == set(next(a for a in declared["engine"].values()).choices)
