"""The package's layers, read from its import graph: dependencies run cli -> commands -> features ->
model and agent -> the top-level utilities, and no two modules import each other, even lazily.

Every import counts: at module level, inside a function, or under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

import harness

ROOT = Path(harness.__file__).parent
EDGE = {"cli", "commands"}  # the program's edge: parses flags and runs commands
BASE = {"model", "agent"}  # what every feature stands on: the repo under test, and the agent boundary
REPORT_USERS = {"report", "commands", "cli"}  # results know nothing of their renderers
# Renderers read the JSON report and nothing else: beside the utilities, only the model's words.
RENDERER_BASE = {"report", "model"}
MOST_UTILITIES = 18  # writer, and one loader per format (jsonsafe, tomlsafe; yamlsafe was one)


class Import(NamedTuple):
    source: str  # the importing module, dotted
    target: str  # the imported module (or package), dotted
    where: str  # file:line, for the message

    def __str__(self) -> str:
        return f"{self.where} imports {self.target}"


def module_name(path: Path) -> str:
    parts = ["harness", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imports_of(name: str, path: Path) -> list[Import]:
    """Each harness module or package `path` imports, wherever the import statement stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: `from . import x` inside harness.agent is harness.agent.x
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # `from a import b` imports the module a.b when there is one, else a name of a.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        where = f"harness/{path.relative_to(ROOT)}:{node.lineno}"
        found += [Import(name, t, where) for t in dict.fromkeys(targets) if t in MODULES and t != name]
    return found


# The module's tests run on one worker (the group), so a parallel run parses the package once.
pytestmark = pytest.mark.xdist_group("import-graph")


# Built when a test asks, not at import: parsing every module would otherwise cost each collection.
@pytest.fixture(scope="module")
def graph() -> dict[str, list[Import]]:
    return {name: imports_of(name, path) for name, path in MODULES.items()}


@pytest.fixture(scope="module")
def every_import(graph: dict[str, list[Import]]) -> list[Import]:
    return [edge for edges in graph.values() for edge in edges]


def room(name: str) -> str | None:
    """The package a module lives in (`routing` for harness.routing.room); None for the top level."""
    parts = name.split(".")
    if len(parts) == 1 or (len(parts) == 2 and MODULES[name].name != "__init__.py"):
        return None
    return parts[1]


UTILITIES = [name for name in MODULES if room(name) is None and name not in ("harness", "harness.__main__")]


def test_the_top_level_holds_only_leaf_utilities_importing_no_package(every_import: list[Import]) -> None:
    wrong = [str(edge) for edge in every_import if edge.source in UTILITIES and room(edge.target)]
    assert not wrong, "a top-level utility imports a package: " + "; ".join(wrong)


def test_the_top_level_stays_small() -> None:
    assert len(UTILITIES) <= MOST_UTILITIES, f"{len(UTILITIES)} top-level modules: {', '.join(UTILITIES)}"


def test_model_and_agent_import_no_feature(every_import: list[Import]) -> None:
    wrong = [
        str(edge)
        for edge in every_import
        if room(edge.source) in BASE and room(edge.target) not in (None, *BASE)
    ]
    assert not wrong, "model/ or agent/ imports a layer above it: " + "; ".join(wrong)


def test_no_feature_imports_the_cli_or_the_commands(every_import: list[Import]) -> None:
    wrong = [
        str(edge)
        for edge in every_import
        if room(edge.source) not in (None, *EDGE) and room(edge.target) in EDGE
    ]
    assert not wrong, "a feature imports the CLI edge: " + "; ".join(wrong)


def test_only_the_commands_and_the_cli_import_the_renderers(every_import: list[Import]) -> None:
    wrong = [
        str(edge)
        for edge in every_import
        if room(edge.target) == "report" and room(edge.source) not in REPORT_USERS
    ]
    assert not wrong, "a renderer is imported outside report/, commands/ and cli/: " + "; ".join(wrong)


def test_the_renderers_import_no_feature(every_import: list[Import]) -> None:
    wrong = [
        str(edge)
        for edge in every_import
        if room(edge.source) == "report" and room(edge.target) not in (None, *RENDERER_BASE)
    ]
    assert not wrong, "a renderer imports a feature instead of reading the JSON report: " + "; ".join(wrong)


def test_no_two_packages_import_each_other(every_import: list[Import]) -> None:
    """A package pair tied both ways is a misplaced helper (statistics, digests) in one of the two; the
    edge's two rooms (cli dispatches to commands, commands declare their flags in cli) count as one."""
    ties: dict[tuple[str, str], str] = {}
    for edge in every_import:
        pair = (room(edge.source), room(edge.target))
        if None not in pair and pair[0] != pair[1] and set(pair) != EDGE:
            ties.setdefault(pair, str(edge))  # type: ignore[arg-type]
    wrong = [f"{ties[(a, b)]} and {ties[(b, a)]}" for a, b in sorted(ties) if a < b and (b, a) in ties]
    assert not wrong, "two packages import each other: " + "; ".join(wrong)


def test_no_import_cycle(graph: dict[str, list[Import]]) -> None:
    """Depth-first over the graph; a module met again on the current path closes a cycle."""
    done: set[str] = set()
    path: list[Import] = []
    on_path: dict[str, int] = {}
    cycles: list[str] = []

    def visit(name: str) -> None:
        on_path[name] = len(path)
        for edge in graph[name]:
            if edge.target in on_path:
                cycles.append(" -> ".join(str(e) for e in [*path[on_path[edge.target] :], edge]))
            elif edge.target not in done:
                path.append(edge)
                visit(edge.target)
                path.pop()
        del on_path[name]
        done.add(name)

    for name in MODULES:
        if name not in done:
            visit(name)
    assert not cycles, "import cycle: " + " | ".join(cycles)
