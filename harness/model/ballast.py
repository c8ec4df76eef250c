"""Ballast: the skills users have installed beside a catalog, which share the agent's listing with it.

Either the skills a repo declares (root-relative globs naming skill folders, as --skills-dir does: the
other plugins its users run) or a count drawn from the built-in set (harness/data/ballast.json,
generated from templates across many trades by tests/support/ballast_data.py). A draw is a seeded
ordering, so the same seed gives the same skills, and a larger size adds skills to a smaller one's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from harness.errors import UsageError
from harness.files import packaged_text
from harness.model import repo as repo_mod
from harness.model import skill as skill_mod

BUILT_IN = "built-in"


@dataclass(frozen=True)
class Ballast:
    """Skills beside the catalog, as (name, description), and where they came from."""

    source: str  # BUILT_IN, or the globs as given
    skills: tuple[tuple[str, str], ...]

    def ordering(self, seed: int | str) -> list[tuple[str, str]]:
        """Every ballast skill in one seeded order: the first k are the k-skill draw."""
        drawn = list(self.skills)
        random.Random(f"ballast:{seed}").shuffle(drawn)
        return drawn

    def beside(self, catalog: Mapping[str, str]) -> Ballast:
        """Without the skills named like one of the catalog's (the catalog's own is what is installed)."""
        return Ballast(self.source, tuple((n, d) for n, d in self.skills if n not in catalog))


@cache
def built_in_skills() -> tuple[tuple[str, str], ...]:
    text = packaged_text("data", "ballast.json")
    return tuple((item["name"], item["description"]) for item in json.loads(text))


def built_in() -> Ballast:
    return Ballast(BUILT_IN, built_in_skills())


def declared(root: Path, globs: Sequence[str], flag: str) -> Ballast:
    """The skills under `globs` (root-relative, one level down each, as --skills-dir reads them)."""
    found = repo_mod.discover(root, list(globs))
    if not found.skill_dirs:
        raise UsageError(
            f"{flag} {','.join(globs)}: no folder there holds a SKILL.md; name the skill folders users "
            "have beside this catalog, such as 'vendor/some-plugin/skills/*', or give a number of "
            "built-in ballast skills."
        )
    skills = []
    for name, folder in sorted(found.skill_dirs.items()):
        loaded = skill_mod.load(name, folder)
        skills.append((name, loaded.description))
    return Ballast(",".join(globs), tuple(skills))
