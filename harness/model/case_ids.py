"""Case ids made from another tool's ids: repo-safe, prefixed with the skill, unique in one dataset.

The native readers and `import` share this, so a file read in place and its imported copy name
their cases alike (a report, the history and a baseline keep meaning the same case).
"""

from __future__ import annotations

import re

# The id pattern datasets use; anything else in a made id becomes a hyphen.
UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9_.:-]+")


class IdMaker:
    """Ids `<skill>-<part>-...`, unique among those this maker has made."""

    def __init__(self, skill: str) -> None:
        self.skill = skill
        self.taken: set[str] = set()

    def make(self, *parts: object) -> str:
        raw = "-".join([self.skill, *(str(p) for p in parts)])
        base = UNSAFE_ID_CHARS.sub("-", raw).strip("-.:") or "case"
        chosen, n = base, 2
        while chosen in self.taken:
            chosen, n = f"{base}-{n}", n + 1
        self.taken.add(chosen)
        return chosen
