"""Code fetched from the network and run in the same breath (`curl … | sh`, `iwr … | iex`,
`bash <(curl …)`, `exec(urlopen(…).read())`): whatever the server sends that day runs with the
agent's rights, and nothing in the skill shows what it is."""

from __future__ import annotations

import re

from harness.checks.security.content import SkillContent
from harness.model.findings import Finding

RULE = "fetch-and-execute"
FETCH = r"(?:curl|wget|aria2c)\b"
SHELL = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S*\s+)*(?:ba|z|k|da|fi|c|tc)?sh"
    r"|python[0-9.]*|perl|ruby|node|php|pwsh|powershell"
)
PATTERN = re.compile(
    rf"\b{FETCH}[^\n|;&]*?(?:://|\$)[^\n|;&]*\|\s*(?:{SHELL})\b(?!\s*\|)"  # curl URL | sh (not a table)
    rf"|\b(?:{SHELL}|source|\.)\s+(?:-\S+\s+)*<\(\s*{FETCH}"  # bash <(curl …)
    rf"|\b(?:{SHELL})\s+-c\s+[\"']?\$\(\s*{FETCH}"  # sh -c "$(curl …)"
    r"|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?new-object\s+(?:system\.)?net\.webclient\)?"
    r"\.download(?:string|data))\b[^\n|]*\|\s*(?:iex|invoke-expression)\b"  # iwr … | iex
    r"|\b(?:iex|invoke-expression)\s*\(?\s*(?:\(\s*)?(?:iwr|irm|invoke-webrequest|invoke-restmethod|"
    r"\(?new-object\s+(?:system\.)?net\.webclient)"  # iex (iwr …)
    # exec(urlopen(…
    r"|\b(?:exec|eval)\s*\(\s*(?:urllib\.request\.)?(?:urlopen|requests\.get|httpx\.get)\s*\("
    r"|\beval\s*\(\s*(?:await\s+)?\(?\s*(?:await\s+)?fetch\s*\(",  # eval(await fetch(…
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


def scan(content: SkillContent) -> list[Finding]:
    return content.matched(
        RULE,
        [(PATTERN, CUES)],
        lambda line, words: (
            f"line {line} runs what it downloads (`{words}`): the server decides what "
            "executes; ship the script in the skill, or download, verify a checksum, then run it."
        ),
    )
