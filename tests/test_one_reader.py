"""Every file the harness reads goes through one door (harness.files: `opened`, `read_bytes`,
`read_text`), which refuses a pipe, socket or device without blocking; and each format has
one loader (jsonsafe, tomlsafe, yamlsafe). The walk finds every read in harness/ that bypasses them."""

from __future__ import annotations

import ast
import os
import stat
from pathlib import Path

import pytest

from harness import files
from harness.agent.workspace import WorkspaceError, copy_tree

HARNESS = Path(__file__).resolve().parent.parent / "harness"
# The reader itself, and the one writer, whose opens write (or flush a folder it wrote in).
DOORS = ("files.py", "writer.py")
# Reads that are not of a repo file, or of a user's file, each with why: `module.py:function`.
NOT_REPO_FILES = {
    "agent/process.py:read_stat": "the kernel's /proc entry of a process the harness started",
    "agent/process.py:environ_of": "the kernel's /proc entry of a process the harness started",
    "agent/keyreach.py:holders": "the kernel's /proc entries of this user's other processes",
    "agent/runtime.py:pins": "the harness's own package data (importlib.resources)",
    "compare/versions.py:extract": "an archive held in memory (fileobj=BytesIO), no file",
    "workers.py:Forked.answer": "the pipe from a child the harness forked, which always writes",
    # A workspace file the agent wrote, read by the judge after the agent exited and after an S_ISREG
    # check; the judge keeps its own reading.
    # A config folder claude's own `plugin install` wrote under a folder the harness made this run.
    "agent/claude.py:ClaudeAgent.plugin_home": "claude's installed plugins, in a temporary folder",
    # The same for the homes `codex plugin add` and `copilot plugin install` wrote.
    "agent/codex.py:CodexAgent.home_env": "codex's installed plugins, in a temporary folder",
    "agent/copilot.py:CopilotAgent.home_env": "copilot's installed plugins, in a temporary folder",
    "behavioral/judge.py:_text_content": "a regular file of the finished agent's workspace",
}
COPIES = {"copy", "copy2", "copyfile", "copytree"}
WRITING = set("wax+")
# A format's parser, used anywhere but in its one loader.
PARSERS = {"tomllib": "tomlsafe.py", "tomli": "tomlsafe.py"}
YAML_LOADS = {"load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all"}


def text_mode(call: ast.Call) -> str | None:
    """The mode an open-like call gives, "r" when it gives none; None when it is not written out."""
    for keyword in call.keywords:
        if keyword.arg == "mode":
            return keyword.value.value if isinstance(keyword.value, ast.Constant) else None
    if len(call.args) > 1:
        given = call.args[1]
        return given.value if isinstance(given, ast.Constant) and isinstance(given.value, str) else None
    return "r"


def is_read(call: ast.Call) -> str | None:
    """What kind of read `call` is, or None when it reads no file (or only writes one)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id == "open":
        mode = text_mode(call)
        return "open()" if mode is None or not WRITING & set(mode) else None
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else None
    if func.attr in ("read_text", "read_bytes"):
        return f".{func.attr}()"
    if func.attr == "open" and owner == "os":
        flags = ast.unparse(call.args[1]) if len(call.args) > 1 else ""
        return None if "O_WRONLY" in flags or "O_RDWR" in flags else "os.open()"
    if func.attr in ("open", "fdopen"):
        mode = text_mode(call)
        return f"{ast.unparse(func)}()" if mode is None or not WRITING & set(mode) else None
    if owner == "shutil" and func.attr in COPIES:
        return f"shutil.{func.attr}()"
    if owner == "yaml" and func.attr in YAML_LOADS:
        return f"yaml.{func.attr}()"
    return None


def reads_in(path: Path) -> list[tuple[str, int, str]]:
    """(module.py:function, line, what) of each read in one module."""
    rel = path.relative_to(HARNESS).as_posix()
    found: list[tuple[str, int, str]] = []

    def walk(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = [*scope, child.name]
            if isinstance(child, ast.Call) and (what := is_read(child)):
                found.append((f"{rel}:{'.'.join(scope)}", child.lineno, what))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                names = [child.module or ""] if isinstance(child, ast.ImportFrom) else []
                names += [alias.name for alias in child.names] if isinstance(child, ast.Import) else []
                for name in names:
                    owner = PARSERS.get(name.split(".")[0])
                    if owner and rel != owner:
                        found.append((f"{rel}:{'.'.join(scope)}", child.lineno, f"import {name}"))
            walk(child, inner)

    walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel), [])
    return found


# Walking the harness costs seconds: its two tests share one walk, on one worker (the group).
SHARED_WALK = pytest.mark.xdist_group("harness-reads")


@pytest.fixture(scope="module")
def every_read() -> list[tuple[str, int, str]]:
    return [
        read
        for path in sorted(HARNESS.rglob("*.py"))
        if path.name not in DOORS or path.parent != HARNESS
        for read in reads_in(path)
    ]


@SHARED_WALK
def test_every_file_read_in_the_harness_goes_through_the_one_reader(every_read) -> None:
    bypassing = [
        f"{site} (line {line}): {what}" for site, line, what in every_read if site not in NOT_REPO_FILES
    ]
    assert bypassing == [], "read through harness.files (opened / read_bytes / read_text):\n" + "\n".join(
        bypassing
    )


@SHARED_WALK
def test_each_allowed_read_still_exists(every_read) -> None:
    # An entry whose read moved or went away would let a new read in the same place pass unseen.
    sites = {site for site, _, _ in every_read}
    assert sorted(set(NOT_REPO_FILES) - sites) == []


def test_the_walk_finds_each_kind_of_read(tmp_path: Path) -> None:
    # The sweep itself must see what it is looking for, or it passes on anything.
    source = """
import shutil, os, yaml, tomllib
def f(p):
    open(p)
    open(p, "rb")
    p.read_text()
    p.read_bytes()
    p.open()
    os.open(p, os.O_RDONLY)
    os.fdopen(3)
    shutil.copy2(p, p)
    shutil.copytree(p, p)
    yaml.safe_load(p)
    open(p, "w")
    os.open(p, os.O_WRONLY | os.O_CREAT)
"""
    tree = ast.parse(source)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    kinds = [kind for call in calls if (kind := is_read(call))]
    assert kinds == [
        "open()",
        "open()",
        ".read_text()",
        ".read_bytes()",
        "p.open()",
        "os.open()",
        "os.fdopen()",
        "shutil.copy2()",
        "shutil.copytree()",
        "yaml.safe_load()",
    ]


# --- the door itself -----------------------------------------------------------------------------


def special_files(folder: Path) -> dict[str, Path]:
    """One of each kind of file the reader must refuse without blocking, made without root."""
    import socket

    made = {"pipe": folder / "pipe", "folder": folder / "folder", "device": Path("/dev/zero")}
    os.mkfifo(made["pipe"])  # nothing ever writes to it
    made["folder"].mkdir()
    made["socket"] = folder / "sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(made["socket"]))
    return made


@pytest.mark.parametrize("kind", ["pipe", "folder", "device", "socket"])
def test_the_reader_refuses_what_is_no_regular_file_at_once(tmp_path: Path, kind: str) -> None:
    path = special_files(tmp_path)[kind]
    for read in (files.read_bytes, files.read_text, lambda p: files.opened(p).__enter__()):
        with pytest.raises(files.UnreadableFile) as caught:
            read(path)
        assert caught.value.reason.startswith("it is a"), caught.value.reason
    if kind != "folder":
        assert "not a regular file; replace it with a plain file or remove it" in caught.value.reason


def test_the_reader_refuses_a_symlink_where_its_caller_follows_none(tmp_path: Path) -> None:
    (tmp_path / "real").write_text("x")
    (tmp_path / "link").symlink_to("real")
    assert files.read_bytes(tmp_path / "link") == b"x"
    with pytest.raises(files.UnreadableFile, match="it is a symlink"):
        files.read_bytes(tmp_path / "link", follow_links=False)


def test_the_workspace_copy_refuses_a_pipe_and_keeps_a_files_mode_and_times(tmp_path: Path) -> None:
    made = special_files(tmp_path)
    with pytest.raises(WorkspaceError, match="named pipe"):
        copy_tree(made["pipe"].parent, tmp_path / "copy-of-pipe")
    skill = tmp_path / "skill"
    skill.mkdir()
    source = skill / "run.sh"
    source.write_bytes(b"#!/bin/sh\n" * 100_000)
    source.chmod(0o751)
    os.utime(source, ns=(1_000_000_000, 2_000_000_000))
    copy_tree(skill, tmp_path / "copy")
    copied = (tmp_path / "copy" / "run.sh").stat()
    assert (tmp_path / "copy" / "run.sh").read_bytes() == source.read_bytes()
    assert (stat.S_IMODE(copied.st_mode), copied.st_mtime_ns) == (0o751, 2_000_000_000)
