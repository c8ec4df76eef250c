"""Known secret values: which environment variables hold credentials, and the one place their values
are blanked out of what the harness keeps or shows (kept logs, judge evidence, reports).

Kept logs are written mode 0600 here too: they hold the agent's whole transcript.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
# Shorter values are not blanked: replacing a one-letter "key" everywhere would garble every text.
MIN_SECRET_CHARS = 8


@dataclass(frozen=True)
class Redactor:
    """Replaces each known secret value with `[redacted NAME]`, longest value first."""

    secrets: tuple[tuple[str, str], ...] = ()  # (value, variable name)

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> Redactor:
        found = {
            environ[name].strip(): name
            for name in SECRET_VARS
            if len(environ.get(name, "").strip()) >= MIN_SECRET_CHARS
        }
        return cls(tuple(sorted(found.items(), key=lambda item: -len(item[0]))))

    def __call__(self, text: str) -> str:
        for value, name in self.secrets:
            if value in text:
                text = text.replace(value, f"[redacted {name}]")
        return text

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
