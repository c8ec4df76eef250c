"""Scripts that do more than the skill says: a script that opens network connections, or writes outside
the workspace (the user's dotfiles, SSH keys, shell start-up files, system folders), in a skill whose
description and instructions say nothing of the network, or of changing the user's setup."""

from __future__ import annotations

import re

from harness.checks.security import phrases
from harness.checks.security.content import SkillContent
from harness.model import findings
from harness.model.findings import Finding

RULE = "undeclared-capability"
NETWORK = re.compile(
    r"\bsocket\.(?:socket|create_connection)\s*\(|\brequests\.(?:get|post|put|patch|delete|request|Session)\b|"
    r"\burllib\.request\b|\burlopen\s*\(|\bhttp\.client\b|\bhttpx\.|\baiohttp\.|\bparamiko\.|\bsmtplib\.|\bftplib\.|"
    r"\bfetch\s*\(\s*[\"'`]https?:|\baxios\.|\bnet\.(?:connect|createConnection)\s*\(|\bnew\s+WebSocket\s*\(|"
    r"^\s*(?:curl|wget|nc|ncat|socat|ssh|scp|rsync)\s|\$\((?:curl|wget)\s|\b(?:Invoke-WebRequest|Invoke-RestMethod)\b|"
    r"/dev/tcp/",
    re.IGNORECASE | re.MULTILINE,
)
OUTSIDE = re.compile(
    r"(?:~|\$HOME|\$\{HOME\}|expanduser\(\s*[\"']~|Path\.home\(\))[/\"'\s,)]*\s*[/+]?\s*[\"']?/?"
    r"\.(?:bashrc|zshrc|profile|bash_profile|ssh|aws|config/autostart|gitconfig|npmrc|pypirc)"
    r"|/etc/(?:passwd|shadow|sudoers|crontab|cron\.d|profile|hosts|ld\.so\.preload)|\bcrontab\s+-|"
    r"\bauthorized_keys\b|\bLD_PRELOAD=|\bsystemctl\s+(?:enable|start)\b|/Library/LaunchAgents",
    re.IGNORECASE,
)
SAYS_NETWORK = re.compile(
    r"\b(?:api|apis|http|https|url|urls|web|website|internet|online|network|download\w*|upload\w*|fetch\w*|"
    r"request\w*|server\w*|service\w*|remote|cloud|endpoint\w*|webhook\w*|socket\w*|database\w*|query\w*|"
    r"search\w*|retriev\w*|send\w*|post\w*|sync\w*|connect\w*|github|slack|email\w*|smtp|ssh|registry|"
    r"install\w*|deploy\w*|hosted|mcp)\b",
    re.IGNORECASE,
)
SAYS_SETUP = re.compile(
    r"\b(?:install\w*|configur\w*|setup|set up|dotfiles?|shell|profile|home directory|ssh|keys?|cron|"
    r"startup|service|system\w*|environment)\b|~/",
    re.IGNORECASE,
)
KINDS = (
    (NETWORK, SAYS_NETWORK, "opens a network connection", "the network"),
    (OUTSIDE, SAYS_SETUP, "writes outside the workspace", "changing the user's setup"),
)


def scan(content: SkillContent) -> list[Finding]:
    scripts = content.scripts()
    if not scripts:
        return []
    out = []
    for does, says, what, subject in KINDS:
        if says.search(content.words):
            continue
        for text in scripts:
            match = does.search(text.text)
            if match:
                line = text.line_at(match.start())
                out.append(
                    findings.warning(
                        RULE,
                        text.rel,
                        f"line {line} {what} (`{phrases.quoted(match)}`), while the skill's description and "
                        f"instructions say nothing of {subject}; say what it reaches and why, or remove it.",
                        line,
                    )
                )
                break  # one script shows the mismatch
    return out
