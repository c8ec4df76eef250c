"""The docs stay true: every flag in --help, every finding rule, every session and task is documented."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
from pathlib import Path

import pytest

from harness import cli
from tests.support import rules_table

ROOT = Path(__file__).resolve().parent.parent
USAGE = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    return {
        option
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_flag_in_help_is_documented_in_usage(command):
    parser = _subparsers(cli.build_parser())[command]
    missing = sorted(flag for flag in _flags(parser) if flag not in set(FLAG.findall(USAGE)))
    assert not missing, f"docs/usage.md does not mention {missing} of `skillscope {command}`"


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_command_has_a_section_in_usage(command):
    assert re.search(rf"^#+ .*\b{re.escape(command)}\b", USAGE, re.MULTILINE), command


def _emitted_rules() -> set[str]:
    """Rule ids passed as the first argument of findings.error/warning or a skill parse failure."""
    rules = set()
    for path in (ROOT / "harness").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "error",
                "warning",
                "_fail",
            ):
                for arg in node.args[:2]:
                    if (
                        isinstance(arg, ast.Constant)
                        and isinstance(arg.value, str)
                        and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", arg.value)
                    ):
                        rules.add(arg.value)
    return rules


def test_every_finding_rule_is_in_the_rules_tables():
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", USAGE, re.MULTILINE))
    missing = sorted(_emitted_rules() - documented)
    assert not missing, f"rules emitted by the code but missing from docs/usage.md tables: {missing}"


def test_the_rules_sarif_explains_are_the_rules_tables():
    shipped = rules_table.RULES_JSON.read_text(encoding="utf-8")
    assert shipped == rules_table.rendered(rules_table.from_usage(USAGE)), (
        "harness/data/rules.json (the help of each rule in SARIF logs) is out of step with the rules "
        "tables of docs/usage.md; write it again with `python -m tests.support.rules_table`"
    )


def test_every_nox_session_is_documented():
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    sessions = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any("session" in ast.unparse(d) for d in node.decorator_list)
    ]
    assert sessions
    missing = [name for name in sessions if f"`{name}`" not in USAGE]
    assert not missing, f"nox sessions missing from docs/usage.md: {missing}"


def test_every_invoke_task_is_documented():
    tree = ast.parse((ROOT / "tasks.py").read_text(encoding="utf-8"))
    tasks = [
        node.name.replace("_", "-")
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any("task" in ast.unparse(d) for d in node.decorator_list)
    ]
    assert tasks
    missing = [name for name in tasks if not re.search(rf"`{re.escape(name)}\b", USAGE)]
    assert not missing, f"invoke tasks missing from docs/usage.md: {missing}"


# A command line in a code block: the synopsis lines (`[--flag]`, `a|b`, `…`) describe rather than run.
FENCE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1", re.S | re.M)
SYNOPSIS = re.compile(r"\[|…|\.\.\.|\w\|\w")
DOCUMENTS = ["README.md", "docs/usage.md", "docs/authoring-evals.md", ".pre-commit-hooks.yaml"]


def command_lines(text: str) -> list[str]:
    """Each `skillscope …` command in the text's code blocks (or the whole text, for YAML), cut at a
    pipe, `&&`, `;` or a redirection."""
    blocks = [m.group(2) for m in FENCE.finditer(text)] if "```" in text else [text]
    found = []
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"^\s*(\$|run:|entry:|-)\s*", "", line.strip())
            for segment in re.split(r"\s(?:&&|\|\||\||;)\s", line):
                segment = re.split(r"\s\d?>", segment.strip())[0]
                words = segment.split()
                # not a synopsis, nor a line of output shown after the command (`skillscope refs: fail: …`)
                if (
                    words[:1] == ["skillscope"]
                    and not SYNOPSIS.search(segment)
                    and not words[1].endswith(":")
                ):
                    found.append(segment)
    return found


DOCUMENTED = [
    (doc, line) for doc in DOCUMENTS for line in command_lines((ROOT / doc).read_text(encoding="utf-8"))
]


def test_the_docs_show_command_lines():
    assert len(DOCUMENTED) >= 20
    assert {doc for doc, _ in DOCUMENTED} == set(DOCUMENTS)


@pytest.mark.parametrize(("doc", "line"), DOCUMENTED, ids=[f"{doc}:{line[:60]}" for doc, line in DOCUMENTED])
def test_every_command_line_in_the_docs_parses(doc, line, capsys):
    words = shlex.split(line, comments=True)[1:]
    chosen = next((word for word in words if word in cli.COMMANDS), None)
    try:
        cli.parse(cli.build_parser(only=chosen or cli.NO_COMMAND), words)
    except SystemExit as exc:
        assert not exc.code, f"{doc}: `{line}` does not parse: {capsys.readouterr().err.strip()}"
