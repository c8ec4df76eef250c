"""No function in harness/commands/ takes more than 15 branches: a command parses, hands over and reports;
a decision that needs more belongs in a feature or in the paid leg loop (harness/paid/loop.py)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

COMMANDS = Path(__file__).resolve().parents[2] / "harness" / "commands"
MOST_BRANCHES = 15
# Each is one way through a function more: a test, a loop, a handler, a case, a conditional value, each
# `for` and `if` of a comprehension, and each `and`/`or` beyond the first operand.
BRANCHES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.IfExp, ast.ExceptHandler, ast.match_case)
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def branches(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The function's own branches; a function or class defined inside it counts on its own."""
    count, pending = 0, list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, SCOPES):
            continue
        if isinstance(node, BRANCHES):
            count += 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        pending.extend(ast.iter_child_nodes(node))
    return count


def over(source: str, name: str) -> list[str]:
    """`name:line function (branches)` for each function of `source` over MOST_BRANCHES."""
    return [
        f"{name}:{node.lineno} {node.name} ({count})"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (count := branches(node)) > MOST_BRANCHES
    ]


def test_no_command_function_takes_more_than_15_branches():
    found = [
        line
        for path in sorted(COMMANDS.glob("*.py"))
        for line in over(path.read_text(encoding="utf-8"), path.name)
    ]
    assert found == [], f"split these into named steps, or move the decisions out of commands/: {found}"


def test_the_count_takes_every_kind_of_branch_and_leaves_nested_functions_to_themselves():
    source = textwrap.dedent(
        """
        def busy(items):
            for item in items:
                if item and item.ok or item is None:
                    continue
                elif item.late:
                    pass
            while items:
                items.pop()
            try:
                pass
            except ValueError:
                pass
            except KeyError:
                pass
            shown = [x for x in items if x if not x.hidden]
            value = 1 if items else 2
            match value:
                case 1:
                    pass
                case _:
                    pass

            def inner(a):
                return a if a else (b for b in a if b)
        """
    )
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    # for, if, and/or (2), elif, while, two handlers, a comprehension with two ifs (3), if-else, two cases;
    # `inner`'s three are its own.
    assert branches(function) == 14
    assert over(source, "busy.py") == []
    two_more = source.replace("1 if items else 2", "0 if items else 1 if value else 2 if shown else 3")
    assert over(two_more, "x.py") == ["x.py:2 busy (16)"]
