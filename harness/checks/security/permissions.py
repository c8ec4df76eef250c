"""Permissions wider than the stated task: `allowed-tools` granting every shell command (so the agent
runs them without asking) to a skill whose instructions and scripts run no shell command, a grant that
is itself a way around any list of commands (`Bash(sudo:*)`, `Bash(sh:*)`), hooks the skill bundles
(commands that run on every matching event), and MCP servers it points at a remote URL."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from harness.checks.security import commands
from harness.checks.security.content import SkillContent, TextFile
from harness.model import findings
from harness.model.findings import Finding

RULE = "wide-permission"
SHELL_TOOL = r"(?:Bash|Shell|PowerShell|run_shell_command|shell)"
# A shell tool with no pattern or a pattern matching every command: what a task that runs shell
# commands needs, and wider than one that runs none.
EVERY_COMMAND = re.compile(rf"^{SHELL_TOOL}(?:\s*\(\s*(?:\*+|\*?:\*)\s*\))?$", re.IGNORECASE)
# A pattern that is itself a shell, a way to run anything, or root: it looks narrow and is not, and no
# task's own commands explain it.
AROUND_THE_LIST = re.compile(
    rf"^{SHELL_TOOL}\s*\(\s*(?:sudo|su|doas|bash|sh|zsh|fish|dash|ksh|eval|env|exec|xargs|pwsh|powershell|"
    r"cmd)(?:\s*:?\s*\*)?\s*\)$",
    re.IGNORECASE,
)
CONFIGS = {".mcp.json", "mcp.json", "hooks.json", "settings.json", "settings.local.json"}
LOOPBACK = re.compile(r"^https?://(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$)", re.IGNORECASE)
REMOTE_URL = re.compile(r"https?://[^\s\"']+", re.IGNORECASE)


def scan(content: SkillContent) -> list[Finding]:
    skill = content.skill
    out = []
    rel = content.skill_md
    data = skill.frontmatter if isinstance(skill.frontmatter, dict) else {}
    for tool in (tool.strip() for tool in granted(data.get("allowed-tools"))):
        if AROUND_THE_LIST.match(tool):
            said = "a command that runs any other command, so every shell command runs"
        elif EVERY_COMMAND.match(tool) and not commands.runs_shell(content):
            said = "every shell command, while its instructions and scripts run none, so any command runs"
        else:
            continue
        out.append(
            findings.warning(
                RULE,
                rel,
                f"`allowed-tools` grants `{tool}`: {said} without the user being asked; grant only the "
                "commands it needs, such as `Bash(python scripts/run.py:*)`.",
                skill.line_of("allowed-tools"),
            )
        )
    if "hooks" in data:
        out.append(hooks_finding(rel, skill.line_of("hooks"), "its frontmatter"))
    for text in content.texts:
        if text.name in CONFIGS:
            out.extend(config_findings(text))
    return out


def granted(value: object) -> list[str]:
    """The tools an `allowed-tools` value names (a space- or comma-separated string, or a list)."""
    if isinstance(value, list):
        return [str(item) for item in value]
    if isinstance(value, str):
        return [part for part in re.split(r",\s*|\s+(?![^()]*\))", value) if part.strip()]
    return []


def config_findings(text: TextFile) -> list[Finding]:
    try:
        data = json.loads(text.text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out = []
    if data.get("hooks"):
        out.append(hooks_finding(text.rel, None, f"`{text.name}`"))
    for name, url in remote_servers(data):
        out.append(
            findings.warning(
                RULE,
                text.rel,
                f"MCP server `{name}` points at `{url}`: its tools, and what they return into the agent's "
                "context, are whatever that host serves that day; say in the description why the skill "
                "needs it, or bundle a local server.",
            )
        )
    return out


def remote_servers(data: dict) -> Iterator[tuple[str, str]]:
    servers = data.get("mcpServers") or data.get("servers") or {}
    if not isinstance(servers, dict):
        return
    for name, server in servers.items():
        if not isinstance(server, dict):
            continue
        words = [
            str(server.get("url") or ""),
            *(str(a) for a in server.get("args") or [] if isinstance(a, str)),
        ]
        for word in words:
            for url in REMOTE_URL.findall(word):
                if not LOOPBACK.match(url):
                    yield str(name), url
                    break


def hooks_finding(rel: str, line: int | None, where: str) -> Finding:
    return findings.warning(
        RULE,
        rel,
        f"the skill bundles hooks in {where}: commands that run on every matching event without the agent "
        "or the user choosing to; describe them in the description, or leave hooks to the user's settings.",
        line,
    )
