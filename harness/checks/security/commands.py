"""The shell commands a skill's own words and scripts run: the commands of its shell-tagged fenced
blocks, the commands its prose tells the agent to run in code spans ("Run `uv sync`") or writes as a
command line with options (`dwarfdump --verify file`), and the lines
of its shell scripts. Two rules weigh what a skill asks for against these: a grant of every shell
command is not wider than a task that runs shell commands, and an installer piped into a shell is
the documented install step of a tool only when the skill goes on to run that tool."""

from __future__ import annotations

import re
from pathlib import Path

from harness.checks.security.content import SkillContent, TextFile

SHELL_FENCE = re.compile(
    r"^[ \t>]*(?P<fence>`{3,}|~{3,})[ \t]*(?:bash|sh|shell|zsh|console|shell-session|sh-session|terminal|"
    r"powershell|pwsh|ps1|bat|cmd)\b[^\n]*\n(?P<body>.*?)^[ \t>]*(?P=fence)",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)
# A code span the prose tells the agent to run: "Run `semgrep --test`", "then execute `make check`".
RUN_SPAN = re.compile(
    r"\b(?:run|runs|running|execute|executes|invoke|invokes|call|calls)\b[^`\n]{0,40}?"
    r"`(?P<command>[^`\n]+)`",
    re.IGNORECASE,
)
# A code span written as a command line: a name, then options (`llvm-dwarfdump --verify <binary>`).
COMMAND_SPAN = re.compile(r"`(?P<command>[A-Za-z][\w.+-]*(?:\s+[^`\s-][^`\s]*)*\s+--?[A-Za-z][^`\n]*)`")
SCRIPT_SUFFIXES = frozenset({".sh", ".bash", ".zsh", ".ps1", ".bat", ".cmd"})
SCRIPT_NAMES = frozenset({"Dockerfile", "Makefile", "Containerfile", "justfile"})
# Where one command ends and the next starts on a line: a pipe, a list, a Dockerfile's RUN.
SEPARATOR = re.compile(r"\|\||&&|[|;&]|\$\(|\bRUN\b")
SHELL_SHEBANG = re.compile(r"#!\s*\S*?(?:/env\s+)?\b(?:ba|z|k|da)?sh\b|#!\s*\S*pwsh\b")
PREFIX = re.compile(r"^(?:\$|>|PS[^>]*>|sudo|env|exec|time|nohup|!|\w+=\S*)$")
WORD = re.compile(r"[A-Za-z][\w.+-]*$")


def runs_shell(content: SkillContent) -> bool:
    """Whether the skill's instructions or scripts run any shell command."""
    return bool(command_words(content))


def command_words(content: SkillContent) -> frozenset[str]:
    """The names (lowercase) of the commands the skill runs."""
    words: set[str] = set()
    for text in content.texts:
        words |= file_commands(text)
    return frozenset(words)


def file_commands(text: TextFile) -> frozenset[str]:
    lines: list[str] = []
    if text.markdown:
        for fence in SHELL_FENCE.finditer(text.text):
            lines.extend(fence.group("body").splitlines())
        for spans in (RUN_SPAN, COMMAND_SPAN):
            lines.extend(span.group("command") for span in spans.finditer(text.text))
    elif shell_script(text):
        lines = text.text.splitlines()
    return frozenset(word for line in lines for word in line_commands(line))


def shell_script(text: TextFile) -> bool:
    return (
        Path(text.name).suffix.lower() in SCRIPT_SUFFIXES
        or text.name in SCRIPT_NAMES
        or bool(SHELL_SHEBANG.match(text.text))
    )


def line_commands(line: str) -> list[str]:
    """The command names a shell line runs (a comment line runs none)."""
    if line.lstrip().startswith(("#", "//", "REM ")):
        return []
    out = []
    for part in SEPARATOR.split(line):
        words = [word for word in part.split() if not PREFIX.match(word)]
        if words and WORD.match(words[0]):
            out.append(words[0].lower())
    return out
