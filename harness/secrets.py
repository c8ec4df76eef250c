"""Known secret values: which environment variables hold credentials, and the one place their values
are blanked out of what the harness keeps or shows (kept logs, judge evidence, reports).

Kept logs are written mode 0600 here too: they hold the agent's whole transcript.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

from harness.writer import write_text

# The credentials of every agent runtime the harness drives (and of the gateways in front of them).
SECRET_VARS = (
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENAI_API_KEY",
    "CODEX_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "COPILOT_PROVIDER_API_KEY",
    "COPILOT_GITHUB_TOKEN",
    "GH_TOKEN",
    "GITHUB_TOKEN",
)
# Any other variable whose name says it holds a secret (a cloud key, a CI token, the cache's key).
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE", re.IGNORECASE)
# Shorter values are not blanked: replacing a one-letter "key" everywhere would garble every text.
MIN_SECRET_CHARS = 8
URL_SAFE = str.maketrans("+/", "-_")


def base64_cores(raw: bytes) -> Iterator[str]:
    """What base64 shows of `raw` wherever it sits in a longer stream: for each of the three byte
    alignments, the characters that depend on `raw`'s bytes alone (padded or not, alone or inside)."""
    for shift in range(3):
        encoded = base64.b64encode(bytes(shift) + raw).decode("ascii")
        start = (0, 2, 3)[shift]  # the characters that mix in the bytes before it
        total = shift + len(raw)
        stop = 4 * (total // 3) + (0, 1, 2)[total % 3]  # and those that mix in the bytes after
        yield encoded[start:stop]


def encodings(value: str) -> set[str]:
    """`value` as a log or a page may show it: as is, base64 (standard and URL-safe, any alignment,
    padded or not), hex (lower and upper case) and percent-encoded (either case of the escapes)."""
    raw = value.encode("utf-8")
    forms = {value, raw.hex(), raw.hex().upper()}
    for core in base64_cores(raw):
        forms |= {core, core.translate(URL_SAFE)}
    for escaped in (quote(value, safe=""), quote(value), quote_plus(value)):
        forms |= {escaped, re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), escaped)}
    return forms


def secret_names(environ: Mapping[str, str]) -> list[str]:
    """The variables of `environ` holding a secret: the known credentials and any named like one."""
    return [name for name in environ if name in SECRET_VARS or SECRET_NAME.search(name)]


@dataclass(frozen=True)
class Redactor:
    """Replaces each known secret value, and each of its usual encodings, with `[redacted NAME]`,
    longest first."""

    secrets: tuple[tuple[str, str], ...] = ()  # (value, variable name)
    names: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # form -> name
    pattern: re.Pattern[str] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> Redactor:
        found: dict[str, str] = {}
        for name in secret_names(environ):
            value = environ[name].strip()
            if len(value) >= MIN_SECRET_CHARS:
                found.setdefault(value, name)
        secrets = tuple(sorted(found.items(), key=lambda item: -len(item[0])))
        names: dict[str, str] = {}
        for value, name in secrets:
            for form in encodings(value):
                names.setdefault(form, name)
        if not names:
            return cls(secrets)
        alternatives = sorted(names, key=len, reverse=True)
        return cls(secrets, names, re.compile("|".join(map(re.escape, alternatives))))

    def __call__(self, text: str) -> str:
        if self.pattern is None:
            return text
        return self.pattern.sub(lambda found: f"[redacted {self.names[found.group()]}]", text)

    def data(self, value: Any) -> Any:
        """A JSON-like document with every string in it redacted."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {self(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(item) for item in value]
        return value


def write_private(path: Path, text: str) -> None:
    """`path` replaced whole by `text`, readable by its owner only; no link in its folder leads it out."""
    write_text(Path(path), text, Path(path).parent, private=True)
