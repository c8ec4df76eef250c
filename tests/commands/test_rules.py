"""`skillscope rules`: every rule id of the installed harness, with its severity and what it checks,
wrapped to the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.model import rules as rule_table
from tests.support.helpers import run_cli


def printed(tmp_path: Path, columns: int = 80) -> dict[str, list[str]]:
    """Each rule's block of the output (the id line, then its indented lines), by rule; the intro under ''."""
    run = run_cli(["rules"], cwd=tmp_path, environ={"COLUMNS": str(columns)})
    assert run.code == 0 and run.stderr == ""
    intro, *blocks = run.stdout.rstrip("\n").split("\n\n")
    return {"": intro.splitlines(), **{block.split()[0]: block.splitlines() for block in blocks}}


def test_every_rule_is_printed_once_with_its_severity_in_name_order(tmp_path: Path) -> None:
    rules = rule_table.table()
    blocks = printed(tmp_path)
    assert list(blocks)[1:] == sorted(rules)
    assert all(blocks[rule][0] == f"{rule}  {rules[rule]['severity']}" for rule in rules)


@pytest.mark.parametrize("columns", [80, 120])
def test_each_description_is_the_rules_plain_text_wrapped_to_the_terminal_with_an_indent(
    tmp_path: Path, columns: int
) -> None:
    """It was one line of up to ~500 characters, which a terminal folds back to column one."""
    rules = rule_table.table()
    for rule, lines in printed(tmp_path, columns).items():
        assert all(len(line) < columns for line in lines), rule
        if rule:
            assert all(line.startswith("    ") for line in lines[1:]), rule
            text = " ".join(line.strip() for line in lines[1:])
            assert text == rule_table.plain(rule_table.described(rules[rule])), rule


def test_a_rule_is_printed_as_plain_text_without_markdown(tmp_path: Path) -> None:
    run = run_cli(["rules"], cwd=tmp_path)
    assert not any(mark in run.stdout for mark in ("](", "`", "\\|"))
    assert "equal to the folder name" in run.stdout


@pytest.mark.parametrize("columns", range(60, 90))  # a case a width, so the runs spread over workers
def test_a_command_in_a_rule_is_never_broken_across_lines(tmp_path: Path, columns: int) -> None:
    """A code span's words stay together: `curl … | sh` split after `curl …` read as two fragments."""
    lines = printed(tmp_path, columns)["fetch-and-execute"]
    assert any("curl … | sh" in line for line in lines), columns


def test_the_intro_says_what_each_rule_shows_and_how_to_change_a_severity(tmp_path: Path) -> None:
    intro = " ".join(printed(tmp_path)[""])
    assert "an error fails the run, a warning is reported and lets it pass" in intro
    assert "--warn RULES" in intro and "--error RULES" in intro
