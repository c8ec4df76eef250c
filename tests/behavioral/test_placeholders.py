"""Placeholders are replaced literally: JSON braces, regex counts and unknown names survive."""

from __future__ import annotations

from harness.behavioral.placeholders import fill, fill_case
from harness.model.dataset import Case


def test_known_names_are_replaced_and_every_other_brace_survives():
    text = 'Use {repo} with {"a": 1}, \\d{3}, {unknown} and {{repo}}.'
    assert fill(text, {"repo": "/src/x"}) == 'Use /src/x with {"a": 1}, \\d{3}, {unknown} and {/src/x}.'


def test_replacement_is_one_pass_so_a_value_is_never_reread():
    assert fill("{a} {b}", {"a": "{b}", "b": "B"}) == "{b} B"


def test_values_are_stringified_and_longer_names_win():
    assert fill("{n}/{name}", {"n": 3, "name": None}) == "3/None"


def test_fill_case_covers_prompt_literals_files_and_judged_statements():
    case = Case(
        id="c",
        prompt="make {f}",
        should_trigger=True,
        skill="s",
        source="s/evals/evals.json",
        expected_behavior=["writes {f}"],
        unexpected_behavior=["deletes {f}"],
        logs_contain=["{f}"],
        files_exist=["out/{f}"],
    )
    filled = fill_case(case, {"f": "plan.md"})
    assert (
        filled.prompt,
        filled.expected_behavior,
        filled.unexpected_behavior,
        filled.logs_contain,
        filled.files_exist,
    ) == ("make plan.md", ["writes plan.md"], ["deletes plan.md"], ["plan.md"], ["out/plan.md"])
    assert case.prompt == "make {f}"  # the dataset's case is left as written
