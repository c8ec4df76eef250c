"""Code fetched from the network and run in the same breath (`curl … | sh`, `iwr … | iex`,
`bash <(curl …)`, `exec(urlopen(…).read())`): whatever the server sends that day runs with the
agent's rights, and nothing in the skill shows what it is. One shape is left alone: a tool's documented
install step, an installer fetched over HTTPS from a named host (not an address, not a paste or drop
host) whose URL names a tool the skill then runs as a command (`curl -LsSf https://astral.sh/uv/install.sh
| sh`, then `uv sync`). A pipe whose tool the skill never runs, over plain HTTP, from an address or a drop
host, or code that evaluates what it fetches, is reported."""

from __future__ import annotations

import re
from functools import cached_property

from harness.checks.security import commands
from harness.checks.security.content import SkillContent
from harness.checks.security.exfiltration import DROP_HOSTS
from harness.model.findings import Finding

RULE = "fetch-and-execute"
FETCH = r"(?:curl|wget|aria2c)\b"
SHELL = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S*\s+)*(?:ba|z|k|da|fi|c|tc)?sh"
    r"|python[0-9.]*|perl|ruby|node|php|pwsh|powershell"
)
PATTERN = re.compile(
    r"(?=[abcdefiknprstwz.(])(?:"  # the letters a match starts with: other places are left at once
    rf"\b{FETCH}[^\n|;&]*?(?:://|\$)[^\n|;&]*\|\s*(?:{SHELL})\b(?!\s*\|)"  # curl URL | sh (not a table)
    rf"|\b(?:{SHELL}|source|\.)\s+(?:-\S+\s+)*<\(\s*{FETCH}"  # bash <(curl …)
    rf"|\b(?:{SHELL})\s+-c\s+[\"']?\$\(\s*{FETCH}"  # sh -c "$(curl …)"
    r"|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object\s+(?:system\.)?net\.webclient\)?"
    r"\.download(?:string|data))\b[^\n|]*\|\s*(?:iex|invoke-expression)\b"  # iwr … | iex
    r"|\b(?:iex|invoke-expression)\s*\(?\s*(?:\(\s*)?(?:iwr|irm|invoke-webrequest|invoke-restmethod|"
    r"\(?new-object\s+(?:system\.)?net\.webclient)"  # iex (iwr …)
    # exec(urlopen(…
    r"|\b(?:exec|eval)\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get)\s*\("
    r"|\beval\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\("  # eval(await fetch(…
    r")",
    re.IGNORECASE,
)
CUES = (
    "curl",
    "wget",
    "aria2c",
    "iwr",
    "irm",
    "invoke-",
    "webclient",
    "urlopen",
    "requests.get",
    "httpx.get",
    "fetch",
)


# A shell's download-and-run (not code evaluating a response): the only shape an install step has.
SHELL_FETCH = re.compile(rf"\b(?:{FETCH}|iwr|irm|invoke-webrequest|invoke-restmethod)", re.IGNORECASE)
INSTALLER_URL = re.compile(r"(?P<scheme>https?)://(?P<host>[^\s/\"'`|;&)<>]+)(?P<path>/[^\s\"'`|;&)<>]*)?")
ADDRESS = re.compile(r"^\[?[0-9a-f:.]+\]?(?::\d+)?$", re.IGNORECASE)


def words(listed: str) -> frozenset[str]:
    return frozenset(listed.split())


# The commands of the install line itself: fetching and running say nothing of what is installed.
PLUMBING = words(
    "curl wget aria2c sh bash zsh dash ksh fish sudo env iex irm iwr invoke-expression "
    "invoke-webrequest invoke-restmethod powershell pwsh python python3 perl ruby node php source"
)
# Commands a system has before any install step: a host named after one (`grep.example`) names no
# tool the pipe installs, whatever the skill runs.
PRESENT = words(
    "awk basename cat cd chmod chown cp cut date dd df diff dirname du echo export false find git grep "
    "gzip head hostname id kill less ln ls make man mkdir mktemp more mv nc printf ps pwd read readlink "
    "rm rmdir scp sed seq sleep sort ssh stat tail tar tee test time top touch tr true uname uniq unzip "
    "wc which whoami xargs yes zip"
)
# Words of an installer URL that name no tool: hosting, versions, the act of installing.
NOT_TOOLS = words(
    "www get raw githubusercontent github gitlab bitbucket objects cdn dl static files download "
    "downloads release releases latest stable nightly main master refs heads tools tool scripts "
    "script bin install installer setup run sh bash ps1 py https http api docs com org net io dev "
    "app ai rs cloud"
)


def scan(content: SkillContent) -> list[Finding]:
    installed = Installs(content)
    return content.matched(
        RULE,
        [(PATTERN, CUES)],
        lambda line, words: (
            f"line {line} runs what it downloads (`{words}`): the server decides what "
            "executes; ship the script in the skill, or download, verify a checksum, then run it."
        ),
        unless=installed.documented,
    )


class Installs:
    """Which fetch-and-run matches of one skill are the install step of a tool it runs."""

    def __init__(self, content: SkillContent) -> None:
        self.content = content

    @cached_property
    def run(self) -> frozenset[str]:
        return commands.command_words(self.content)

    def documented(self, match: re.Match[str]) -> bool:
        words = match.group(0)
        url = INSTALLER_URL.search(match.string, match.start(), match.end() + 400)
        if not SHELL_FETCH.search(words) or url is None or url.group("scheme").lower() != "https":
            return False
        line_end = match.string.find("\n", match.start())
        if line_end != -1 and url.start() > line_end:
            return False  # the URL must stand on the command's own line
        host = url.group("host").lower().split("@")[-1]
        if ADDRESS.match(host) or DROP_HOSTS.match(url.group(0)):
            return False
        named = tool_words(host, url.group("path") or "")
        return any(names(word, command) for word in named for command in self.run - PLUMBING - PRESENT)


def tool_words(host: str, path: str) -> set[str]:
    """The words of an installer URL that may name the tool it installs: its host's labels but the
    top-level domain, and its path's segments, split at `-`, `_` and `.`."""
    labels = host.split(":")[0].split(".")[:-1]
    parts = [*labels, *(segment for segment in path.split("/") if segment)]
    words = {piece.lower() for part in parts for piece in re.split(r"[-_.]", part)}
    return {word for word in words if len(word) >= 2 and word not in NOT_TOOLS}


def names(word: str, command: str) -> bool:
    """Whether a URL word names a command: the same word, or the command's name extended (`fluxcd`
    for `flux`), for a name long enough not to be a prefix by chance."""
    return word == command or (len(command) >= 4 and word.startswith(command))
