"""The docs stay true: every flag in --help is in the generated flag reference, every flag a page
names exists, every finding rule, session and task is documented, and every docs link the harness
prints leads to a page and a heading."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
from functools import cache
from pathlib import Path

import pytest

from harness import cli
from harness.cli import reference
from tests.support import docs_pages, rules_table

ROOT = Path(__file__).resolve().parent.parent
CI_REFERENCE = (ROOT / "docs" / "ci-reference.md").read_text(encoding="utf-8")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


@cache
def _commands() -> dict[str, argparse.ArgumentParser]:
    return reference.commands(cli.build_parser())


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    """Every long flag the parser takes, the ones --help hides included."""
    return {
        option
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


def _every_flag() -> set[str]:
    return {"--help"}.union(_flags(cli.build_parser()), *(_flags(parser) for parser in _commands().values()))


def _page(command: str) -> str:
    return (ROOT / "docs" / "commands" / f"{command}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_flag_in_help_is_in_the_generated_reference(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "10000")  # unwrapped: argparse breaks a long line at a flag's hyphen
    parser = _commands()[command]
    entries = "\n".join(line for line in reference.section(command, parser) if line.startswith("- `"))
    printed = set(FLAG.findall(parser.format_help())) - {"--help"}
    assert printed, command
    missing = sorted(printed - set(FLAG.findall(entries)))
    assert not missing, f"the flag reference leaves out {missing} of `skillscope {command} --help`"


def test_the_reference_has_one_section_per_command_in_the_clis_order():
    page = docs_pages.generated()[reference.PAGE]
    assert re.findall(r"^## (\S+)$", page, re.MULTILINE) == list(_commands())


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_every_command_has_a_page_linking_its_flags(command):
    page = _page(command)
    assert page.startswith(f"# {command}\n"), f"docs/commands/{command}.md does not start with `# {command}`"
    assert f"](../reference.md#{command})" in page, f"docs/commands/{command}.md does not link its flags"


# A table row whose first cell names flags: `| `--cache DIR` / `--no-cache` | … |`.
FLAG_ROW = re.compile(r"^\| (`--[^|]*)\|", re.MULTILINE)


@pytest.mark.parametrize("command", sorted(cli.COMMANDS))
def test_a_flag_table_on_a_command_page_lists_only_that_commands_flags(command):
    listed = {flag for cell in FLAG_ROW.findall(_page(command)) for flag in FLAG.findall(cell)}
    stale = sorted(listed - _flags(_commands()[command]))
    assert not stale, f"docs/commands/{command}.md lists flags `skillscope {command}` does not take: {stale}"


# Flags of other programs the pages name (git, the agent CLIs, pre-commit's hooks, the benchmarks'
# scripts, the invoke tasks), by page: anything else that looks like a flag must be one of ours.
FOREIGN = {
    "docs/adoption/amd-skills.md": {"--validate"},
    "docs/agents.md": {"--allow-all-tools", "--allow-tool", "--allowed-tools", "--approval-mode"},
    "docs/authoring-evals.md": {"--runs"},
    "docs/benchmarks.md": {"--mode", "--offline"},  # amd's runner, lychee; the scripts' own: SCRIPT_FLAGS
    "docs/ci-reference.md": {"--args", "--list", "--name-only"}
    | {"--find-links", "--force-reinstall", "--index-url", "--no-compile"},
    "docs/commands/behavioral.md": {"--permission-mode", "--tools"},
    "docs/commands/init.md": {"--validate"},
    "docs/commands/routing.md": {"--no-session-persistence", "--setting-sources", "--settings"},
    "docs/commands/select.md": {"--name-only"},
    "docs/index.md": {"--list"},
    "docs/packaging.md": {"--json"},
    "docs/security-rules.md": {"--benign", "--figures", "--size", "--verify"},
    # the "did you mean --routing-room?" a mistyped flag gets
    "docs/usage.md": {"--routing-rooom"},
}
# The benchmark scripts' own flags, which docs/benchmarks.md may name (each script's argparse calls).
SCRIPT_FLAGS = {
    flag
    for script in (ROOT / "benchmarks").glob("*.py")
    for flag in re.findall(r'add_argument\(\s*"(--[\w-]+)"', script.read_text(encoding="utf-8"))
}
FLAG_PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", FLAG_PAGES)
def test_every_flag_a_page_names_exists(page):
    named = set(FLAG.findall((ROOT / page).read_text(encoding="utf-8")))
    foreign = FOREIGN.get(page, set())
    scripts = SCRIPT_FLAGS if page == "docs/benchmarks.md" else set()
    stale = sorted(named - _every_flag() - foreign - scripts)
    assert not stale, f"{page} names flags no skillscope command (or benchmark script) takes: {stale}"
    assert foreign <= named, f"{page} no longer names {sorted(foreign - named)}: drop them from FOREIGN"


# A docs page the harness names in what it prints or writes: docs/<page>.md, with a heading's anchor.
DOCS_LINK = re.compile(r"docs/([a-z0-9/-]+\.md)(?:#([a-z0-9_-]+))?")


def _printed_links() -> list[tuple[str, str, str]]:
    """(file:line, page, anchor) for every docs link in the harness's code and data."""
    found = []
    for path in sorted((ROOT / "harness").rglob("*")):
        if path.suffix not in (".py", ".json") or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in DOCS_LINK.finditer(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", match[1], match[2] or ""))
    return found


def test_every_docs_link_the_harness_prints_leads_to_a_page_and_heading():
    links = _printed_links()
    assert {page for _, page, anchor in links if anchor} >= {"commands/select.md", "commands/history.md"}
    broken = []
    for where, page, anchor in links:
        text = docs_pages.text(page)
        if text is None:
            broken.append(f"{where}: docs/{page} is no page of the site")
        elif anchor and anchor not in docs_pages.anchors(text):
            broken.append(f"{where}: docs/{page} has no heading #{anchor}")
    assert not broken, broken


def test_no_docs_link_the_harness_prints_names_a_page_only_the_site_build_writes():
    """docs/rules.md is written when the site is built: neither an installed harness nor the user's
    repo nor the project's source has it, so a message sending the user there sent them nowhere."""
    built = docs_pages.generated()
    named = [f"{where}: docs/{page}" for where, page, _ in _printed_links() if page in built]
    assert not named, named


def test_the_anchor_check_fails_on_a_heading_that_is_gone():
    assert "runner-types" in docs_pages.anchors(_page("select"))
    assert "runner-types" not in docs_pages.anchors(_page("select").replace("## Runner types", "## Runners"))


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
    documented = set(rules_table.from_docs())
    missing = sorted(_emitted_rules() - documented)
    assert not missing, f"rules emitted by the code but missing from the rules tables of the docs: {missing}"


def test_the_rules_sarif_explains_are_the_rules_tables():
    shipped = rules_table.RULES_JSON.read_text(encoding="utf-8")
    assert shipped == rules_table.rendered(rules_table.from_docs()), (
        "harness/data/rules.json (the help of each rule in SARIF logs) is out of step with the rules "
        "tables of the docs pages; write it again with `python -m tests.support.rules_table`"
    )


def _decorated(module: str, decorator: str, dashes: bool = False) -> list[str]:
    """The functions of a top-level module carrying the decorator: nox sessions, invoke tasks."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    return [
        node.name.replace("_", "-") if dashes else node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and any(decorator in ast.unparse(d) for d in node.decorator_list)
    ]


SESSIONS = _decorated("noxfile.py", "session")
TASKS = _decorated("tasks.py", "task", dashes=True)


def test_every_nox_session_is_documented():
    assert SESSIONS
    missing = [name for name in SESSIONS if f"`{name}`" not in CI_REFERENCE]
    assert not missing, f"nox sessions missing from docs/ci-reference.md: {missing}"


def test_every_invoke_task_is_documented():
    assert TASKS
    missing = [name for name in TASKS if not re.search(rf"`{re.escape(name)}\b", CI_REFERENCE)]
    assert not missing, f"invoke tasks missing from docs/ci-reference.md: {missing}"


# A command line in a code block: the synopsis lines (`[--flag]`, `a|b`, `…`) describe rather than run.
FENCE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1", re.S | re.M)
SYNOPSIS = re.compile(r"\[|…|\.\.\.|\w\|\w")
# The pages whose command lines are checked: the README, every page of the site, the hooks.
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))]
DOCUMENTS = [*PAGES, ".pre-commit-hooks.yaml"]


def command_lines(text: str, markdown: bool = True) -> list[str]:
    """Each `skillscope …` command in the text's code blocks (or the whole text, for YAML), cut at a
    pipe, `&&`, `;` or a redirection."""
    blocks = [m.group(2) for m in FENCE.finditer(text)] if markdown else [text]
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
    (doc, line)
    for doc in DOCUMENTS
    for line in command_lines((ROOT / doc).read_text(encoding="utf-8"), markdown=doc.endswith(".md"))
]


def test_the_docs_show_command_lines():
    assert len(DOCUMENTED) >= 20
    core = {"README.md", "docs/commands/routing.md", "docs/authoring-evals.md", "docs/getting-started.md"}
    assert core | {".pre-commit-hooks.yaml"} <= {doc for doc, _ in DOCUMENTED}


@pytest.mark.parametrize(("doc", "line"), DOCUMENTED, ids=[f"{doc}:{line[:60]}" for doc, line in DOCUMENTED])
def test_every_command_line_in_the_docs_parses(doc, line, capsys):
    words = shlex.split(line, comments=True)[1:]
    chosen = next((word for word in words if word in cli.COMMANDS), None)
    try:
        cli.parse(cli.build_parser(only=chosen or cli.NO_COMMAND), words)
    except SystemExit as exc:
        assert not exc.code, f"{doc}: `{line}` does not parse: {capsys.readouterr().err.strip()}"


# What the docs name, in their code (inline code and code blocks, where commands are written): a
# `skillscope <command>`, `inv <task>` (after an optional `-r PATH`) or `nox -s <session>`.
NAMED = {
    "skillscope command": (re.compile(r"(?<![\w/.-])skillscope\s+([a-z][a-z-]*)\b"), set(cli.COMMANDS)),
    "invoke task": (re.compile(r"(?<![\w/.-])inv\s+(?:-r\s+\S+\s+)?([a-z][a-z-]*)\b"), set(TASKS)),
    "nox session": (re.compile(r"(?<![\w/.-])nox\s+(?:-s|--session)\s+([a-z][a-z-]*)\b"), set(SESSIONS)),
}
# The folders of this repository's own code: a path into one of them that the docs name must exist
# (a module that moved leaves a sentence pointing nowhere).
OWN_CODE = re.compile(r"^(?:harness|schema|benchmarks|tests)/[\w./-]*$")


def code_in(text: str) -> list[tuple[int, str]]:
    """(line, code) for every code block and inline code span of a markdown text."""
    from markdown_it import MarkdownIt

    found = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        line = token.map[0] + 1 if token.map else 0
        if token.type in ("fence", "code_block"):
            found.append((line, token.content))
        found.extend((line, child.content) for child in token.children or [] if child.type == "code_inline")
    return found


# usage.md shows the "did you mean structural?" a mistyped command gets.
MISSPELT_ON_PURPOSE = {"structual"}
NAME_PAGES = [*PAGES, "CONTRIBUTING.md"]


# Parsed when a test asks, not at import: markdown-parsing every page would otherwise cost each collection.
@pytest.fixture(scope="module")
def names() -> list[tuple[str, str, str]]:
    """(page:line, kind, name) for each command, task and session the docs' code names."""
    return [
        (f"{doc}:{line}", kind, name)
        for doc in NAME_PAGES
        for line, code in code_in((ROOT / doc).read_text(encoding="utf-8"))
        for kind, (pattern, _) in NAMED.items()
        for name in pattern.findall(code)
    ]


def test_the_name_scan_sees_what_the_docs_name(names):
    """A pattern that matched nothing would pass every page: count what it finds."""
    for kind in NAMED:
        assert {name for _, k, name in names if k == kind}, kind


@pytest.mark.parametrize("kind", sorted(NAMED))
def test_every_command_task_and_session_the_docs_name_exists(kind, names):
    known = NAMED[kind][1] | MISSPELT_ON_PURPOSE
    stale = sorted({f"{where}: {name}" for where, k, name in names if k == kind and name not in known})
    assert not stale, f"the docs name a {kind} that does not exist (known: {sorted(known)}): {stale}"


def test_every_path_into_this_repos_code_the_docs_name_exists():
    named = [
        (f"{doc}:{line}", code.strip())
        for doc in NAME_PAGES
        for line, code in code_in((ROOT / doc).read_text(encoding="utf-8"))
        if OWN_CODE.match(code.strip())
    ]
    assert len(named) >= 10
    missing = [f"{where}: {path}" for where, path in named if not (ROOT / path).exists()]
    assert not missing, f"the docs name paths that do not exist: {missing}"
