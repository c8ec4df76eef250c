"""`skillscope routing` flags and the errors it raises before any case runs (no model call needed)."""

from __future__ import annotations

import json

import pytest

from tests.support.routing import route


def test_a_blank_room_with_several_skills_is_a_usage_error_listing_them(repo, env, fake_api):
    run = route(repo, env)
    assert run.code == 2
    assert run.stderr.startswith("error: `routing` needs the skills that go in the room")
    assert "skills with a dataset here: alpha, beta." in run.stderr
    assert fake_api.requests == [] and not run.output.exists()


def test_routing_room_none_is_an_error(repo, env, fake_api):
    run = route(repo, env, "--routing-room", "none")
    assert run.code == 2 and "`--routing-room none` empties the room" in run.stderr
    assert fake_api.requests == []


def test_an_unknown_room_member_is_named(repo, env):
    run = route(repo, env, "--routing-room", "alpha,ghost")
    assert run.code == 2 and "--routing-room names ghost" in run.stderr


def test_only_matching_nothing_is_a_usage_error(repo, env, fake_api):
    run = route(repo, env, "--routing-room", "alpha", "--only", "beta-pos-1")  # beta is not in the room
    assert run.code == 2 and "--only beta-pos-1 matched no case" in run.stderr
    assert fake_api.requests == []


def test_skill_outside_the_room_selects_nothing(repo, env):
    run = route(repo, env, "--routing-room", "alpha", "--skill", "beta")
    assert run.code == 2 and "no routing case selected" in run.stderr


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1.5", "--min-accuracy: 1.5 is outside 0..1"),
        ("-0.1", "--min-accuracy: -0.1 is outside 0..1"),
        ("most", "--min-accuracy: 'most' is not a number between 0 and 1."),
    ],
)
def test_a_bad_bar_is_a_usage_error(repo, env, value, message):
    run = route(repo, env, "--routing-room", "alpha", "--min-accuracy", value)
    assert run.code == 2 and message in run.stderr


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--jobs", "0"),
        ("--repeat", "0"),
        ("--max-tool-calls", "0"),
        ("--case-timeout", "0"),
        ("--case-timeout", "-1"),
        ("--max-budget-usd", "-1"),
    ],
)
def test_out_of_range_numbers_are_refused_by_the_parser(repo, env, fake_api, flag, value, capsys):
    run = route(repo, env, "--routing-room", "alpha", flag, value)
    assert run.code == 2
    assert flag in run.stderr + capsys.readouterr().err
    assert fake_api.requests == [] and not run.output.exists()


@pytest.mark.parametrize("where", ["flag", "env"])
def test_a_missing_cli_is_one_clear_error(repo, env, fake_api, where):
    if where == "flag":
        run = route(repo, env, "--routing-room", "alpha", "--claude", "/nonexistent/claude")
        source = "(from --claude)"
    else:
        run = route(repo, {**env, "SKILLSCOPE_CLAUDE": "/nonexistent/claude"}, "--routing-room", "alpha")
        source = "(from $SKILLSCOPE_CLAUDE)"
    assert run.code == 1
    assert run.stderr.startswith(f"error: claude CLI not found at /nonexistent/claude {source}: install it")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert fake_api.requests == []
    assert json.loads(run.output.read_text(encoding="utf-8"))["meta"]["agent_error"]  # a report all the same


def test_no_cli_on_path_names_the_install(repo, env, tmp_path):
    bare = {k: v for k, v in env.items() if k != "SKILLSCOPE_CLAUDE"}
    bare["PATH"] = str(tmp_path / "empty-bin")
    run = route(repo, bare, "--routing-room", "alpha")
    assert run.code == 1
    assert run.stderr.startswith(
        "error: claude CLI not found on PATH: install it with `npm install -g @anthropic-ai/claude-code@"
    )
    # both ways to name another CLI: the flag, and the variable that `inv route` (which has no flag) reads
    assert "or pass --claude PATH (or set SKILLSCOPE_CLAUDE)" in run.stderr
