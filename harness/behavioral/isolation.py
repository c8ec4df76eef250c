"""Isolation evidence: file paths and Bash working directories in the trace that left the workspace.

The installed skill lives inside the workspace, so reading it is never listed; the runner's own
copy of the skill, its home directory or /etc are.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from harness.agent import Trace
from harness.behavioral.evidence import PATH_KEYS, resolve
from harness.files import within

_SEGMENTS = re.compile(r"&&|\|\||[;\n|]")
_PWD = re.compile(r"(?<![\w-])pwd(?![\w-])")
_ABSOLUTE_LINE = re.compile(r"^/\S*$")
CHANGE_DIR = ("cd", "pushd")


@dataclass(frozen=True)
class OutsidePath:
    call: int  # the tool call's number, from 1
    tool: str
    kind: str  # "file": a path a tool was given; "cwd": where Bash ran
    path: str

    def to_json(self) -> dict:
        return {"call": self.call, "tool": self.tool, "kind": self.kind, "path": self.path}

    def describe(self) -> str:
        what = "worked in" if self.kind == "cwd" else "touched"
        return f"{self.tool} (call {self.call}) {what} {self.path}"


def outside_workspace(trace: Trace, workspace: Path) -> list[OutsidePath]:
    root = Path(os.path.realpath(workspace))
    cwd = root
    found: list[OutsidePath] = []
    seen: set[tuple[str, str]] = set()

    def note(number: int, tool: str, kind: str, path: Path) -> None:
        real = Path(os.path.realpath(path))
        if within(real, root) or (kind, str(real)) in seen:
            return
        seen.add((kind, str(real)))
        found.append(OutsidePath(number, tool, kind, str(real)))

    for number, call in enumerate(trace.tool_calls, start=1):
        if not isinstance(call.input, dict):
            continue
        if call.command is not None:
            command = call.command
            for target in change_dir_targets(command):
                cwd = resolve(target, cwd)
                note(number, call.name, "cwd", cwd)
            printed = printed_cwd(command, call.result_text or "")
            if printed is not None:
                cwd = printed
                note(number, call.name, "cwd", printed)
            continue
        if call.written is not None:
            note(number, call.name, "file", resolve(call.written, root))
        for key in PATH_KEYS:
            value = call.input.get(key)
            if isinstance(value, str) and value.strip():
                note(number, call.name, "file", resolve(value, root))
    return found


def change_dir_targets(command: str) -> list[str]:
    """Targets of `cd`/`pushd` in a shell command, in order (`cd` alone means home)."""
    targets = []
    for segment in _SEGMENTS.split(command):
        try:
            words = shlex.split(segment)
        except ValueError:
            words = segment.split()
        if words and words[0] in CHANGE_DIR:
            args = [w for w in words[1:] if not w.startswith("-")]
            targets.append(args[0] if args else "~")
    return targets


def printed_cwd(command: str, output: str) -> Path | None:
    """What `pwd` printed, when the command ran it: the shell's own word on where it was."""
    if not _PWD.search(command):
        return None
    line = next((ln.strip() for ln in output.splitlines() if _ABSOLUTE_LINE.match(ln.strip())), None)
    return Path(os.path.normpath(line)) if line else None
