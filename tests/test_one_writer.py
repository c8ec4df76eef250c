"""Every file the harness writes into a repo or a report path goes through harness.writer: a walk of the
package's syntax finds each call that writes a file some other way. The few writes that are genuinely
not into a repo or a report path are listed below, each with why."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "harness"
THE_WRITER = "writer.py"

# (module under harness/, the function holding the write) -> why it need not be the one writer.
ALLOWED = {
    # Not files: stdout re-opened on the null device once the reader of a pipe has gone, and the write
    # end of a pipe to a worker process.
    ("cli/__init__.py", "_quiet_stdout"): "stdout re-opened on the null device",
    ("workers.py", "run_child"): "a pipe to the parent process",
    # The crash log: a new file mkstemp made in the system's temp folder.
    ("cli/__init__.py", "_crash_log"): "the crash log, in the system's temp folder",
    # The agent's throwaway workspace and config, each under a folder mkdtemp made for this run (the
    # agent package owns them; none is a repo or report path).
    ("agent/workspace.py", "copy_tree"): "the skill copied into the agent's temporary workspace",
    ("agent/workspace.py", "_copy_link"): "a link inside the agent's temporary workspace",
    (
        "agent/codex.py",
        "CodexAgent.home_env",
    ): "codex's config and plugins, in its temporary home",
    (
        "agent/copilot.py",
        "CopilotAgent.home_env",
    ): "copilot's config and plugins, in its temporary home",
    ("agent/gemini.py", "GeminiAgent.command"): "gemini's settings, in its temporary home",
    ("agent/opencode.py", "OpenCodeAgent.command"): "opencode's config, in its temporary home",
    ("agent/claude.py", "ClaudeAgent.plugin_home"): "claude's installed plugins, into its temporary config",
    # The same for the harness's own scratch copies: the canary's planted skill (a TemporaryDirectory),
    # a tune candidate's copy of the skill (tune_end's TemporaryDirectory), a skill as of a git ref
    # (compare's mkdtemp folder).
    ("routing/canary.py", "check"): "the canary's skill, in a temporary folder",
    ("tune/candidates.py", "stage"): "a candidate's copy of the skill, in a temporary folder",
    ("compare/versions.py", "extract"): "a skill at a git ref, in a temporary folder",
}

# Calls that write whatever object they are made on (pathlib.Path's writers).
WRITING_METHODS = {"write_text", "write_bytes", "touch", "mkdir", "symlink_to", "hardlink_to", "extractall"}
# Module functions that create, replace or fill a file or folder.
WRITING_FUNCTIONS = {
    "os.makedirs",
    "os.mkdir",
    "os.replace",
    "os.rename",
    "os.renames",
    "os.link",
    "os.symlink",
    "os.truncate",
    "os.mkfifo",
    "os.mknod",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.copytree",
    "shutil.move",
}
# tempfile's file makers write where `dir=` says (without it, in the system's temp folder: no repo path).
# Its folder makers (mkdtemp, TemporaryDirectory) are not writes: each makes a new, empty folder.
TEMP_MAKERS = {"tempfile.mkstemp", "tempfile.NamedTemporaryFile", "tempfile.SpooledTemporaryFile"}
OPENERS = {"open": 1, "io.open": 1, "os.fdopen": 1, "codecs.open": 1}  # -> the position of `mode`
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND", "O_TRUNC"}


@dataclass(frozen=True)
class Write:
    module: str
    function: str
    line: int
    call: str


def writes(source: str, module: str) -> Iterator[Write]:
    """Each call in `source` that writes a file other than through harness.writer."""
    tree = ast.parse(source)
    names = imported_names(tree)
    for node, function in calls(tree):
        called = dotted(node.func, names)
        if called is not None and is_write(node, called):
            yield Write(module, function, node.lineno, called)


def imported_names(tree: ast.Module) -> dict[str, str]:
    """Each name a module binds by import -> what it stands for (`from os import replace` -> os.replace)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def calls(tree: ast.Module) -> Iterator[tuple[ast.Call, str]]:
    """Every call with the qualified name of the function (or class method) it is in."""

    def visit(node: ast.AST, scope: list[str]) -> Iterator[tuple[ast.Call, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                yield from visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.Call):
                yield child, ".".join(scope) or "<module>"
            yield from visit(child, scope)

    yield from visit(tree, [])


def dotted(func: ast.expr, names: dict[str, str]) -> str | None:
    """`os.replace`, `open`, or `.write_text` for a method of any object."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if isinstance(func, ast.Name):
        parts.append(names.get(func.id, func.id))
        return ".".join(reversed(parts))
    return "." + parts[0] if parts else None


def is_write(node: ast.Call, called: str) -> bool:
    method = called.rsplit(".", 1)[-1]
    if called in WRITING_FUNCTIONS or called in TEMP_MAKERS and any(k.arg == "dir" for k in node.keywords):
        return True
    if called == "os.open":
        return opens_to_write(node.args[1] if len(node.args) > 1 else None)
    if called in OPENERS or method == "open" and called not in ("os.open", "tarfile.open"):
        position = OPENERS.get(called, 0)  # Path.open(mode)
        return writes_mode(mode_of(node, position))
    return "." in called and method in WRITING_METHODS and not called.startswith("harness.")


def opens_to_write(flags: ast.expr | None) -> bool:
    """Whether os.open's flags write, or are not spelled out (a variable cannot be shown not to)."""
    words = set()
    for node in ast.walk(flags) if flags is not None else ():
        if isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words.add(node.value)  # getattr(os, "O_NOFOLLOW", 0)
    unknown = {word for word in words if not word.startswith("O_")} - {"os", "getattr"}
    return bool(words & WRITE_FLAGS or unknown)


def mode_of(node: ast.Call, position: int) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == "mode":
            return keyword.value
    return node.args[position] if len(node.args) > position else None


def writes_mode(mode: ast.expr | None) -> bool:
    """A mode that writes, or one not written out (which cannot be shown not to)."""
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(letter in mode.value for letter in "wax+")
    return True


# Walking the package costs seconds: its two tests share one walk, on one worker (the group).
SHARED_WALK = pytest.mark.xdist_group("package-writes")


@pytest.fixture(scope="module")
def package_writes() -> list[Write]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module != THE_WRITER:
            found.extend(writes(path.read_text(encoding="utf-8"), module))
    return found


@SHARED_WALK
def test_every_write_in_the_package_goes_through_the_one_writer(package_writes: list[Write]):
    stray = [w for w in package_writes if (w.module, w.function) not in ALLOWED]
    assert not stray, "write through harness.writer instead:\n" + "\n".join(
        f"harness/{w.module}:{w.line} ({w.function}): {w.call}" for w in stray
    )


@SHARED_WALK
def test_every_allowed_write_is_still_there(package_writes: list[Write]):
    """An entry whose write went away (or moved) is dropped from ALLOWED, so the list stays honest."""
    used = {(w.module, w.function) for w in package_writes}
    assert sorted(set(ALLOWED) - used) == []


STRAY_WRITES = [
    "open(p, 'w')",
    "open(p, mode='a', encoding='utf-8')",
    "open(p, 'x')",
    "open(p, 'rb+')",
    "open(p, chosen_mode)",
    "io.open(p, 'wb')",
    "os.fdopen(fd, 'w')",
    "Path(p).open('w')",
    "p.write_text('x')",
    "p.write_bytes(b'x')",
    "p.touch()",
    "p.mkdir(parents=True)",
    "p.symlink_to(q)",
    "tar.extractall(p)",
    "os.open(p, os.O_WRONLY | os.O_CREAT)",
    "os.open(p, O_RDWR)",
    "os.open(p, flags)",
    "os.open(p, getattr(os, 'O_WRONLY'))",
    "os.replace(a, b)",
    "os.rename(a, b)",
    "os.link(a, b)",
    "os.makedirs(p)",
    "replace(a, b)",
    "shutil.copy2(a, b)",
    "shutil.copytree(a, b)",
    "shutil.move(a, b)",
    "copyfile(a, b)",
    "tempfile.mkstemp(dir=p)",
    "tempfile.NamedTemporaryFile(dir=p, delete=False)",
]


@pytest.mark.parametrize("call", STRAY_WRITES)
def test_the_walk_finds_each_kind_of_write(call: str):
    imports = "import io, os, shutil, tempfile\nfrom os import replace\nfrom shutil import copyfile\n"
    source = f"{imports}\n\ndef f():\n    {call}\n"
    assert [w.function for w in writes(source, "m.py")] == ["f"]


@pytest.mark.parametrize(
    "call",
    [
        "open(p)",
        "open(p, 'rb')",
        "Path(p).open()",
        "os.open(p, os.O_RDONLY | os.O_NONBLOCK)",
        "os.open(p, os.O_RDONLY | getattr(os, 'O_NOFOLLOW', 0))",
        "text.replace('a', 'b')",
        "tempfile.mkdtemp(prefix='x')",
        "harness.writer.write_text(p, 'x', root)",
        "writer.write_text(p, 'x', root)",
    ],
)
def test_the_walk_passes_reads_and_the_writer(call: str):
    source = (
        f"import os, tempfile\nimport harness.writer\nfrom harness import writer\n\n\ndef f():\n    {call}\n"
    )
    assert list(writes(source, "m.py")) == []
