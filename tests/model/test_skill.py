"""harness.model.skill: SKILL.md into frontmatter, body and line numbers; never raises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.memo import Memo
from harness.model import skill
from tests.support.helpers import make_skill


def load(tmp_path: Path, text: str | bytes) -> skill.Skill:
    folder = make_skill(tmp_path, "demo", skill_md=text, evals=None)
    return skill.load("demo", folder)


def test_frontmatter_keys_carry_their_file_line(tmp_path: Path) -> None:
    parsed = load(tmp_path, "---\nname: demo\n\ndescription: Does it.\nlicense: MIT\n---\n# Body\n")
    assert parsed.problem is None
    assert parsed.frontmatter == {"name": "demo", "description": "Does it.", "license": "MIT"}
    assert (parsed.line_of("name"), parsed.line_of("description"), parsed.line_of("license")) == (2, 4, 5)
    assert parsed.frontmatter["name"] == "demo" and parsed.description == "Does it."


def test_the_body_starts_after_the_closing_line(tmp_path: Path) -> None:
    parsed = load(tmp_path, "---\nname: demo\ndescription: d\n---\n# Title\ntext\n")
    assert parsed.body == "# Title\ntext"
    assert parsed.body_line == 5


def test_crlf_line_endings_parse_like_lf(tmp_path: Path) -> None:
    parsed = load(tmp_path, b"---\r\nname: demo\r\ndescription: d\r\n---\r\nbody\r\n")
    assert parsed.problem is None
    assert parsed.frontmatter == {"name": "demo", "description": "d"}


def test_a_bom_is_remembered_and_stripped_so_the_frontmatter_still_parses(tmp_path: Path) -> None:
    parsed = load(tmp_path, "\ufeff---\nname: demo\ndescription: d\n---\n")
    assert parsed.has_bom and parsed.problem is None
    assert parsed.frontmatter["name"] == "demo"


def test_a_missing_opening_line_is_frontmatter_missing_on_line_one(tmp_path: Path) -> None:
    parsed = load(tmp_path, "name: demo\n")
    assert (parsed.problem_rule, parsed.problem_line) == ("frontmatter-missing", 1)


def test_an_unclosed_block_is_frontmatter_unclosed(tmp_path: Path) -> None:
    assert load(tmp_path, "---\nname: demo\n").problem_rule == "frontmatter-unclosed"


def test_invalid_yaml_points_at_the_file_line(tmp_path: Path) -> None:
    parsed = load(tmp_path, "---\nname: demo\ndescription: [open\n---\n")
    assert (parsed.problem_rule, parsed.problem_line) == ("frontmatter-yaml", 3)


def test_an_anchor_is_its_own_rule(tmp_path: Path) -> None:
    parsed = load(tmp_path, "---\nname: &n demo\ndescription: *n\n---\n")
    assert (parsed.problem_rule, parsed.problem_line) == ("frontmatter-alias", 2)


def test_an_empty_or_blank_file_is_skill_md_empty(tmp_path: Path) -> None:
    assert load(tmp_path, "").problem_rule == "skill-md-empty"
    assert load(tmp_path, "\n  \n").problem_rule == "skill-md-empty"


def test_an_unreadable_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    parsed = load(tmp_path, b"---\nname: caf\xe9\n---\n")
    assert parsed.problem_rule == "skill-md-unreadable"
    assert "UTF-8" in parsed.problem


def test_a_non_mapping_frontmatter_is_kept_for_the_check_to_judge(tmp_path: Path) -> None:
    parsed = load(tmp_path, "---\n- a\n---\n")
    assert parsed.problem is None and parsed.frontmatter == ["a"]
    assert "name" not in (parsed.frontmatter or {}) and parsed.description == ""


@pytest.mark.parametrize("end", ["\r", "\x0c", "\x1c", "\x85", "\u2028", "\u2029", "\x0b"])
def test_lines_ended_by_anything_but_a_newline_hide_the_frontmatter_as_they_do_from_agents(
    tmp_path: Path, end: str
) -> None:
    text = end.join(["---", "name: demo", "description: CR skill.", "---", "# demo", "Do it."]) + end
    parsed = load(tmp_path, text)
    assert (parsed.problem_rule, parsed.problem_line) == ("frontmatter-missing", 1)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("name: a\ndescription: b\n", True),
        ("flag: true\nratio: 1.0\ncount: 1\nnothing: null\nlist: [a, 1]\n", True),
        ("reviewed: 2024-05-01\n", False),  # a date: JSON would give back a string
        ("1: one\n", False),  # a non-string key: JSON would give back "1"
        ("a: .nan\n", False),
        ("a: [unclosed\n", True),  # a problem is memoized too
    ],
)
def test_a_frontmatter_is_memoized_only_when_json_gives_it_back_unchanged(
    text: str, kept: bool, tmp_path, monkeypatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    memo = Memo(tmp_path / "memo.json", "test")
    fresh = skill.frontmatter(text, memo)
    assert bool(memo.entries) == kept
    again = skill.frontmatter(text, memo)
    assert again == fresh and shape(again) == shape(fresh)


def shape(value: object) -> object:
    """The value's types all the way down: `==` takes 1 for True and 1.0 for 1, JSON does not."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


@pytest.mark.parametrize(
    "value", [{"a": [1, 1.5, True, None, "x"]}, {"n": -0.0}, ["a", {"b": {"c": [False]}}], 10**50]
)
def test_what_json_carries_comes_back_the_same(value: object):
    assert skill.same_through_json(value)
    again = json.loads(json.dumps(value))
    assert again == value and shape(again) == shape(value)


@pytest.mark.parametrize("value", [{1: "a"}, {"a": float("nan")}, {"a": float("inf")}, ("a",), {"a"}, b"x"])
def test_what_json_would_change_is_not_memoized(value: object):
    assert not skill.same_through_json(value)
