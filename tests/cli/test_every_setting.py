"""Every flag that a settings file may hold, of every command, generated from the parser: the key takes
the value shapes its flag takes and gives what the flag would (a list flag a TOML list or a string, a
repeatable one a list of its uses, which the command line's uses replace)."""

from __future__ import annotations

import argparse
import functools
import json
from pathlib import Path

import pytest

from harness.cli import UNSETTLED, build_parser, command_parser, parse, with_settings
from harness.cli.flags import FLAGS
from harness.commands import COMMANDS
from harness.context import Context

CANDIDATES = ("2", "1", "0.5", "a.json", "skills/*", "main", "2026-01-01")


@functools.cache  # the whole CLI costs more to build than the parses a test makes with it; none change it
def full_parser() -> argparse.ArgumentParser:
    return build_parser()


def settable() -> list[tuple[str, argparse.Action]]:
    full = full_parser()
    found = []
    for name in COMMANDS:
        if name in UNSETTLED:  # they write or never read the settings file
            continue
        for action in command_parser(full, name)._actions:
            longs = [o for o in action.option_strings if o.startswith("--")]
            if not longs or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
                continue
            flag = FLAGS.get(longs[0][2:])
            if (flag is not None and (not flag.setting or flag.refused_by)) or action.required:
                continue  # a required flag is given per call (import --skill): argparse wants it typed
            if any(
                action in g._group_actions
                for g in command_parser(full, name)._mutually_exclusive_groups
                if g.required
            ):
                continue  # select's mode (--changed, --all, ...) is chosen per call, not kept in a file
            found.append((name, action))
    return found


def required_words(name: str, tested: str) -> list[str]:
    """What the command needs besides the flag under test: its positionals (cost's PROMPT), its
    required options, and one choice of each required group (select's --all)."""
    parser = command_parser(full_parser(), name)
    words: list[str] = []
    for action in parser._actions:
        if not action.option_strings and action.required:
            words.append(str(next(iter(action.choices))) if action.choices else "x")
        elif action.required and action.dest != tested:
            words += [action.option_strings[-1], "x"]
    for group in parser._mutually_exclusive_groups:
        if group.required and all(a.dest != tested for a in group._group_actions):
            first = group._group_actions[0]
            words += [first.option_strings[-1]] + ([] if first.nargs == 0 else ["x"])
    return words


def uses(key: str, action: argparse.Action, value: str) -> list[str]:
    """The flag given `value`, as many times as it takes values (--reports OLD NEW)."""
    return [f"--{key}", *[value] * (action.nargs if isinstance(action.nargs, int) else 1)]


def accepted_value(name: str, action: argparse.Action, key: str) -> str | None:
    """A value this flag takes on the command line (its first choice, else a common shape)."""
    parser = command_parser(full_parser(), name)
    for value in [*(action.choices or ()), *CANDIDATES]:
        try:
            parser.parse_known_args([*required_words(name, action.dest), *uses(key, action, str(value))])
        except SystemExit:
            continue
        return str(value)
    return None


def parsed(
    tmp_path: Path, action: argparse.Action, name: str, words: list[str], settings: str
) -> argparse.Namespace:
    root = tmp_path / "repo"
    root.mkdir(exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    (root / "skillscope.toml").write_text(settings, encoding="utf-8")
    ctx = Context(environ={}, cwd=root)
    full = build_parser(ctx, only=name)
    words = [*required_words(name, action.dest), *words]
    with_settings(full, name, [name, *words], ctx)
    return parse(full, [name, *words])


CASES = settable()


@pytest.mark.parametrize(("name", "action"), CASES, ids=[f"{n}-{a.option_strings[-1]}" for n, a in CASES])
def test_a_settings_key_gives_what_its_flag_gives(tmp_path: Path, name: str, action: argparse.Action):
    key = next(o for o in action.option_strings if o.startswith("--"))[2:]
    if action.nargs == 0:
        switched = parsed(tmp_path, action, name, [f"--{key}"], "")
        from_file = parsed(tmp_path, action, name, [], f"{key} = true\n")
        assert getattr(from_file, action.dest) == getattr(switched, action.dest)
        return
    value = accepted_value(name, action, key)
    assert value is not None, f"no sample value found for {name} {key}"
    given = getattr(parsed(tmp_path, action, name, uses(key, action, value), ""), action.dest)
    if isinstance(action.nargs, int) and action.nargs > 1:  # a fixed count of values: a TOML list of them
        from_file = parsed(tmp_path, action, name, [], f"{key} = {json.dumps([value] * action.nargs)}\n")
        assert getattr(from_file, action.dest) == given
        return
    as_text = getattr(parsed(tmp_path, action, name, [], f"{key} = {json.dumps(value)}\n"), action.dest)
    assert as_text == given, f"{key} = {value!r}"
    if isinstance(given, list):  # a list flag: a TOML list of the same words means the same
        as_list = getattr(parsed(tmp_path, action, name, [], f"{key} = {json.dumps([value])}\n"), action.dest)
        assert as_list == given
    if isinstance(action, argparse._AppendAction):  # the command line's uses replace the file's list
        wins = parsed(
            tmp_path, action, name, uses(key, action, value), f"{key} = {json.dumps([value, 'other'])}\n"
        )
        assert getattr(wins, action.dest) == given
