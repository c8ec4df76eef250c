"""Live credentials shipped in a skill: keys with a provider's prefix, private key blocks, and
high-entropy values assigned to a secret-sounding name. Placeholders (`sk-...xxxx`, `<your-key>`,
`AKIAIOSFODNN7EXAMPLE`, a value counting up such as `AIzaSyA1B2C3D4…`) are what documentation should
show, and are left alone; so is code that calls something with a secret's name
(`privateKey = Curve25519.KeyAgreement.PrivateKey()`)."""

from __future__ import annotations

import math
import re
from collections import Counter

from harness.checks.security.content import SkillContent, TextFile
from harness.model.findings import Finding

RULE = "secret"
PROVIDERS = (
    ("an AWS access key id", r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
    ("a GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b"),
    ("an Anthropic API key", r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{40,}"),
    ("an OpenAI API key", r"\bsk-(?:proj-|svcacct-|None-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}"),
    ("a Slack token", r"\bxox[abposr]-[0-9A-Za-z-]{20,}"),
    ("a Google API key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("a GitLab token", r"\bglpat-[0-9A-Za-z_-]{20,}"),
    ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("a Hugging Face token", r"\bhf_[A-Za-z]{34,}\b"),
    ("a Stripe live key", r"\b[sr]k_live_[0-9A-Za-z]{24,}"),
    ("a SendGrid key", r"\bSG\.[\w-]{22}\.[\w-]{43}\b"),
    ("a private key", r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----"),
)
# The lookahead holds the characters a key starts with: the engine leaves every other place at once
# rather than trying each provider's pattern there (about 6x faster on large files, same matches).
PROVIDER = re.compile(
    "(?=[AgsxnhrS-])(?:" + "|".join(f"(?P<p{i}>{pattern})" for i, (_, pattern) in enumerate(PROVIDERS)) + ")"
)
ASSIGNED = re.compile(
    r"(?=(?i:[apst]))(?:"  # the letters a match starts with: other places are left at once
    r"(?i:(?:secret|token|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|auth)[\w.-]*)"
    r"[\"']?\s*(?::|=|:=|=>)\s*[\"']?(?P<value>[A-Za-z0-9/+_\-=.]{24,})"
    r")",
)
PLACEHOLDER = re.compile(
    r"x{4,}|X{4,}|\*{3,}|\.{3}|<|>|\{|\}|your|example|sample|dummy|fake|placeholder|changeme|redacted|"
    r"test|demo|abcd|1234|0000|here|replace|token_?value|secret_?value|insert|env|getenv",
    re.IGNORECASE,
)
PROVIDER_CUES = (
    "akia",
    "asia",
    "abia",
    "acca",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "sk-",
    "xox",
    "aiza",
    "glpat-",
    "npm_",
    "hf_",
    "_live_",
    "sg.",
    "private key",
)
NAME_CUES = (
    "secret",
    "token",
    "passw",
    "api_key",
    "api-key",
    "apikey",
    "access_key",
    "access-key",
    "accesskey",
    "private_key",
    "private-key",
    "privatekey",
    "auth",
)
SAY = (
    "line {line} holds {kind}: whoever installs the skill gets it; revoke it, and read it from the "
    "environment instead (show a placeholder such as `<your-key>` in examples)."
)
COUNTING_RUN = 8
MIN_ENTROPY = 4.0  # bits per character: random keys sit above it, words and identifiers below
KEY_BLOCK_BODY = re.compile(r"-----BEGIN[^\n]*-----\s*\n([A-Za-z0-9+/=\s]{200,}?)-----END", re.DOTALL)


def scan(content: SkillContent) -> list[Finding]:
    return content.per_text(in_file)


def in_file(content: SkillContent, text: TextFile) -> list[Finding]:
    out = []
    if text.holds_any(PROVIDER_CUES):
        out.extend(provider_keys(content, text))
    if text.holds_any(NAME_CUES):
        out.extend(assigned(content, text))
    return out


def provider_keys(content: SkillContent, text: TextFile) -> list[Finding]:
    out = []
    for match in text.finditer(PROVIDER):
        kind = PROVIDERS[int(next(k for k, v in match.groupdict().items() if v)[1:])][0]
        if kind == "a private key" and not key_body_follows(text.text, match.start()):
            continue  # a header alone documents the format
        if kind != "a private key" and placeholder(match.group(0)):
            continue
        out.append(report(content, text, match.start(), kind))
    return out


def assigned(content: SkillContent, text: TextFile) -> list[Finding]:
    out = []
    for match in text.finditer(ASSIGNED):
        value = match.group("value")
        if text.text.startswith("(", match.end()):
            continue  # a call: the value is code that makes the secret, not the secret
        if not placeholder(value) and entropy(value) >= MIN_ENTROPY and mixed(value):
            out.append(
                report(content, text, match.start("value"), "a high-entropy value given a secret's name")
            )
    return out


def report(content: SkillContent, text: TextFile, at: int, kind: str) -> Finding:
    return content.warning_at(RULE, text, at, lambda line: SAY.format(line=line, kind=kind))


def placeholder(value: str) -> bool:
    return bool(PLACEHOLDER.search(value)) or len(set(value)) <= 4 or counts_up(value)


def counts_up(value: str, run: int = COUNTING_RUN) -> bool:
    """Whether the value's letters, or its digits, count up for `run` characters (`A1B2C3D4E5F6G7H8`,
    `abcdefgh`): typed by a person writing an example; a generated key does so by chance less than once
    in a million."""
    for kept in (
        [c.lower() for c in value if c.isascii() and c.isalpha()],
        [c for c in value if c.isdigit()],
    ):
        length = 1
        for before, after in zip(kept, kept[1:], strict=False):
            length = length + 1 if ord(after) == ord(before) + 1 or (before, after) == ("9", "0") else 1
            if length >= run:
                return True
    return False


def entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def mixed(value: str) -> bool:
    """Digits and letters of both cases, as generated keys have; a path or a word list rarely does."""
    return (
        any(c.isdigit() for c in value)
        and any(c.islower() for c in value)
        and any(c.isupper() for c in value)
    )


def key_body_follows(text: str, at: int) -> bool:
    return bool(KEY_BLOCK_BODY.match(text, at))
