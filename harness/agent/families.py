"""Which family of models a model id belongs to, so a report can say who graded: a judge of the same
family as the agent tends to share its blind spots, and the advice is to judge with another.

Known by the id's own words first (an OpenCode or Copilot endpoint may serve any family); an id that
names none is taken to be of the family its runtime serves by default; else unknown.
"""

from __future__ import annotations

import re

UNKNOWN = "unknown"
# A word of the id -> its family; matched on word boundaries of the id's last path part.
WORDS = {
    "anthropic": ("claude", "sonnet", "opus", "haiku"),
    "openai": ("gpt", "codex", "o1", "o3", "o4", "chatgpt"),
    "google": ("gemini", "gemma"),
}
# The family a runtime's own default model belongs to (copilot and opencode serve several).
RUNTIME_DEFAULTS = {"claude": "anthropic", "codex": "openai", "gemini": "google"}


def family_of(runtime: str, model: str | None) -> str:
    """The family of `model` run on `runtime` (None: the runtime's own default model)."""
    if model:
        words = set(re.split(r"[^a-z0-9]+", model.lower().rsplit("/", 1)[-1]))
        for family, names in WORDS.items():
            if words & set(names):
                return family
        return UNKNOWN
    return RUNTIME_DEFAULTS.get(runtime, UNKNOWN)
