"""Places data leaves through: a URL or image whose query is filled from the environment or a file (an
agent rendering the image sends it), paste and request-capture hosts, and code posting the whole
environment or a credential file."""

from __future__ import annotations

import re

from harness.checks.security import phrases
from harness.checks.security.content import SkillContent
from harness.model import findings
from harness.model.findings import Finding

RULE = "exfiltration-sink"
# A query filled in from a variable, a command's output or a secret-looking file.
FILLED_QUERY = re.compile(
    r"https?://[^\s)\"'<>]*\?[^\s)\"'<>]*=(?:[^\s)\"'<>&]*)"
    r"(?:\$\{?[A-Za-z_]*(?:KEY|TOKEN|SECRET|PASS|PASSWORD|CRED\w*|AUTH|AWS_\w+|PRIVATE)\b|\$\((?:env|printenv|"
    r"cat|base64|whoami|hostname)\b|%24\((?:env|cat)|\{\{\s*env|process\.env|os\.environ|\$env:)",
    re.IGNORECASE,
)
# Hosts that exist to receive or publish anonymous data.
DROP_HOSTS = re.compile(
    r"https?://(?:[\w-]+\.)*(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|beeceptor\.com|"
    r"requestcatcher\.com|hookbin\.com|ngrok(?:-free)?\.(?:io|app|dev)|interact\.sh|oast\.(?:fun|live|me|"
    r"online|pro|site)|oastify\.com|burpcollaborator\.net|pastebin\.com|hastebin\.com|paste\.ee|ix\.io|"
    r"termbin\.com|transfer\.sh|0x0\.st|discord(?:app)?\.com/api/webhooks|canarytokens\.com)\b[^\s)\"'<>]*",
    re.IGNORECASE,
)
SECRET_FILES = (
    r"(?:~|\$HOME|\$\{HOME\})/\.(?:ssh|aws|gnupg|config/gcloud|docker/config|netrc|npmrc|pypirc|kube)"
)
# The whole environment or a credential file handed to something that sends it.
POSTED = re.compile(
    r"(?=[abcefhprs])(?:"  # the letters a match starts with: other places are left at once
    r"\b(?:requests|httpx|session|client|aiohttp\.\w+)\.(?:post|put|patch|get)\s*\([^)\n]*"
    r"(?:os\.environ\b(?!\s*(?:\[|\.get))|dict\(os\.environ\)|os\.getenv\(\)|open\([^)]*(?:\.ssh|\.aws|\.env\b|"
    r"id_rsa|credentials))"
    r"|\bfetch\s*\([^)\n]*JSON\.stringify\(\s*process\.env\s*\)"
    r"|\b(?:env|printenv|set)\s*\|\s*(?:curl|wget|nc|ncat|socat)\b"
    rf"|\b(?:cat|base64)\s+{SECRET_FILES}\S*\s*\|\s*(?:curl|wget|nc|ncat)\b"
    rf"|\bcurl\b[^\n]*(?:-d|--data(?:-binary|-raw|-urlencode)?|-F|--form|-T|--upload-file)\s*[\"']?\S*"
    rf"(?:@{SECRET_FILES}|@/etc/(?:passwd|shadow)|\$\((?:env|printenv|cat\s+{SECRET_FILES}))"
    r")",
    re.IGNORECASE,
)
KINDS = (
    (FILLED_QUERY, "a URL whose query is filled from the environment or a command"),
    (DROP_HOSTS, "a paste or request-capture host"),
    (POSTED, "the environment or a credential file sent over the network"),
)
CUES = (
    "http",
    "environ",
    "process.env",
    "printenv",
    "|",  # what a command's output is piped through to curl, wget, nc, ncat or socat
    "curl",
    "requests.",
    "httpx.",
    "session.",
    "client.",
    "aiohttp.",
    "fetch",
)


def scan(content: SkillContent) -> list[Finding]:
    out = []
    for text in content.texts:
        if not text.holds_any(CUES):
            continue
        for pattern, kind in KINDS:
            for match in text.finditer(pattern):
                line = text.line_at(match.start())
                made = findings.warning(
                    RULE,
                    text.rel,
                    f"line {line} holds {kind} (`{phrases.quoted(match)}`): data the agent can reach leaves "
                    "through it; remove it, or send only named, documented fields to a host the skill "
                    "declares.",
                    line,
                )
                out.append(content.finding(made, text))
    return out
