"""Isolation evidence: paths the agent's tools were given, paths its shell commands name, and the
Bash working directories, wherever they leave the workspace.

The installed skill lives inside the workspace, so reading it is never listed, nor is a tool reading
a file the CLI itself named in a tool result (a long output it saved aside); the runner's own copy
of the skill, its home directory, /etc or another case's workspace under /tmp are.

A shell command is read word by word (shlex): a word names a path when it starts with `/` or `~`
(or `$HOME`), follows a redirection, has a `..` segment, or holds an absolute path after `=`, a
quote or a parenthesis (`--out=/x`, `open('/x')`). Relative words resolve against where the shell
is, followed through `cd`. Not evidence: where output is thrown away or the terminal read
(/dev/null, /dev/stdout, ...), the system's program folders (/usr/bin/python, PATH=/usr/bin), and an
absolute word whose first folder does not exist on this machine (a sed or grep pattern such as
`/foo/d` names nothing). /tmp is not exempt: the other cases' workspaces and the runs' config
folders live there.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness.agent import Trace
from harness.behavioral.evidence import resolve
from harness.files import within

_LINES = re.compile(r"\n")
_PWD = re.compile(r"(?<![\w-])pwd(?![\w-])")
_ABSOLUTE_LINE = re.compile(r"^/\S*$")
# An absolute path inside a longer word: after an `=`, a quote, a parenthesis, a comma or a colon.
_EMBEDDED = re.compile(r"(?:(?<=[=\"'(,:])|^)(/[\w.@%+~-]+(?:/[\w.@%+*?~-]*)*)")
_HOME = re.compile(r"^\$(?:HOME|\{HOME\})(?=/|$)")
# Input keys that name a path in most tools, beside the runtime-neutral `written` and `read`.
PATH_KEYS = ("file_path", "path", "notebook_path")
CHANGE_DIR = ("cd", "pushd")
REDIRECTIONS = (">", ">>", "<", ">|", "&>", "&>>", "<>")
# Words that run the next word as a program: `sudo /usr/bin/x` is still the program /usr/bin/x.
PREFIXES = ("sudo", "env", "exec", "command", "nohup", "time", "nice", "timeout", "xargs")
# Where output goes to be thrown away, or the terminal is read: naming them reaches nothing.
HARMLESS = frozenset(
    {
        "/dev/null",
        "/dev/stdin",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/tty",
        "/dev/zero",
        "/dev/random",
        "/dev/urandom",
    }
)
HARMLESS_UNDER = ("/dev/fd",)
# The system's own programs: running /usr/bin/python or putting /usr/bin on PATH reads no data.
PROGRAM_DIRS = ("/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin")


@dataclass(frozen=True)
class OutsidePath:
    call: int  # the tool call's number, from 1
    tool: str
    kind: str  # "file": a path a tool was given; "cwd": where Bash ran; "command": a path a command named
    path: str

    def to_json(self) -> dict:
        return {"call": self.call, "tool": self.tool, "kind": self.kind, "path": self.path}

    @classmethod
    def from_json(cls, data: dict) -> OutsidePath:
        return cls(data["call"], data["tool"], data["kind"], data["path"])

    def describe(self) -> str:
        what = {"cwd": "worked in", "command": "named"}.get(self.kind, "touched")
        return f"{self.tool} (call {self.call}) {what} {self.path}"


def outside_workspace(trace: Trace, workspace: Path) -> list[OutsidePath]:
    root = Path(os.path.realpath(workspace))
    cwd = root
    found: list[OutsidePath] = []
    seen: set[tuple[str, str]] = set()
    own = {os.path.normpath(p) for p in trace.cli_files}

    def note(number: int, tool: str, kind: str, path: Path) -> None:
        if harmless(path) or os.path.normpath(path) in own:
            return
        real = Path(os.path.realpath(path))
        if within(real, root) or harmless(real) or (kind, str(real)) in seen:
            return
        seen.add((kind, str(real)))
        found.append(OutsidePath(number, tool, kind, str(real)))

    for number, call in enumerate(trace.tool_calls, start=1):
        if not isinstance(call.input, dict):
            continue
        if call.command is not None:
            for kind, path in command_paths(call.command, cwd):
                if kind == "cwd":
                    cwd = path
                note(number, call.name, kind, path)
            printed = printed_cwd(call.command, call.result_text or "")
            if printed is not None:
                cwd = printed
                note(number, call.name, "cwd", printed)
            continue
        for named in (call.written, call.read):
            if named is not None and named.strip():
                note(number, call.name, "file", resolve(named, root))
        for key in PATH_KEYS:
            value = call.input.get(key)
            if isinstance(value, str) and value.strip():
                note(number, call.name, "file", resolve(value, root))
    return found


def command_paths(command: str, cwd: Path) -> Iterator[tuple[str, Path]]:
    """The places a shell command goes (`cwd`, through cd/pushd) and names (`command`), in order,
    each resolved against where the shell is at that point."""
    for words in simple_commands(command):
        program = program_index(words)
        if program is not None and words[program] in CHANGE_DIR:
            args = [w for w in words[program + 1 :] if not w.startswith("-")]
            cwd = resolve(_home(args[0]) if args else "~", cwd)
            yield "cwd", cwd
            continue
        for index, word in enumerate(words):
            redirected = index > 0 and words[index - 1] in REDIRECTIONS
            if word in REDIRECTIONS or (index == program and is_system_program(word)):
                continue
            for named in named_paths(word, redirected):
                yield "command", resolve(named, cwd)


def simple_commands(command: str) -> Iterator[list[str]]:
    """Each simple command's words: lines, then `;`, `&&`, `||`, `|`, `&` and parentheses split it.
    Redirections stay as words of their own (`>`, then its target). Unbalanced quotes fall back to
    splitting on whitespace, so a broken command is still read."""
    for line in _LINES.split(command):
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError:
            tokens = line.split()
        words: list[str] = []
        for token in tokens:
            if token and set(token) <= set("();|&") and token not in ("&>", "&>>"):
                if words:
                    yield words
                words = []
            elif words and words[-1].isdigit() and token in REDIRECTIONS:
                words[-1] = token  # `2>` arrives as `2` then `>`: the number is the stream, not a word
            else:
                words.append(token)
        if words:
            yield words


def program_index(words: list[str]) -> int | None:
    """Where the program's name is: past `VAR=value` assignments and prefixes such as sudo."""
    for index, word in enumerate(words):
        if re.match(r"^[A-Za-z_]\w*=", word) or word in PREFIXES or word.startswith("-"):
            continue
        return index
    return None


def named_paths(word: str, redirected: bool = False) -> list[str]:
    """The paths one word names: itself when it looks like a path (or follows a redirection), else
    absolute paths held after `=`, a quote or a parenthesis, and `~` or `..` values after `=`;
    PATH-like lists are split on `:`."""
    word = _home(word)
    if redirected or word.startswith(("/", "~")) or ".." in word.split("/"):
        return [word] if _reachable(word) else []
    found = [
        part
        for match in _EMBEDDED.finditer(word)
        for part in match.group(1).split(":")
        if part.startswith("/") and _reachable(part)
    ]
    _, assigned, value = word.partition("=")
    for part in value.split(":") if assigned else []:
        part = _home(part)
        if part.startswith("~") or ".." in part.split("/"):
            found.append(part)
    return found


def _home(word: str) -> str:
    return _HOME.sub("~", word)


def _reachable(word: str) -> bool:
    """A relative word always resolves somewhere; an absolute one names this machine's file system
    only when its first folder exists (`/foo/d` is a pattern, `/etc/x` a place)."""
    if not word.startswith("/"):
        return True
    parts = Path(os.path.normpath(word)).parts
    return len(parts) < 2 or os.path.lexists(os.path.join("/", parts[1]))


def harmless(path: Path) -> bool:
    text = os.path.normpath(os.fspath(path))
    return (
        text in HARMLESS
        or any(within(text, folder) for folder in HARMLESS_UNDER)
        or any(within(text, folder) for folder in PROGRAM_DIRS)
    )


def is_system_program(word: str) -> bool:
    return word.startswith("/") and any(within(os.path.normpath(word), d) for d in PROGRAM_DIRS)


def change_dir_targets(command: str) -> list[str]:
    """Targets of `cd`/`pushd` in a shell command, in order (`cd` alone means home)."""
    targets = []
    for words in simple_commands(command):
        program = program_index(words)
        if program is not None and words[program] in CHANGE_DIR:
            args = [w for w in words[program + 1 :] if not w.startswith("-")]
            targets.append(args[0] if args else "~")
    return targets


def printed_cwd(command: str, output: str) -> Path | None:
    """What `pwd` printed, when the command ran it: the shell's own word on where it was."""
    if not _PWD.search(command):
        return None
    line = next((ln.strip() for ln in output.splitlines() if _ABSOLUTE_LINE.match(ln.strip())), None)
    return Path(os.path.normpath(line)) if line else None
