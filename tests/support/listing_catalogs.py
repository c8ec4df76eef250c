"""Seeded catalogs for the golden listing tests: names of varied length, descriptions of varied length
and make-up (punctuation, markup characters, quotes, accents, wide characters, emoji, line breaks), kept
as fixture files so every agent's real CLI and its pure listing function read the same skills."""

from __future__ import annotations

import json
import random
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "agent" / "listing_catalogs"
# size -> (seed, shortest, longest description): the 120 one is the audit's catalog shape.
SHAPES = {10: (10, 40, 1300), 40: (40, 200, 1000), 120: (120, 100, 400)}
WORDS = [
    "report",
    "chart",
    "parse",
    "export",
    "invoice",
    "ledger",
    "deploy",
    "rollback",
    "review",
    "lint",
    "schema",
    "migrate",
    "audit",
    "render",
    "upload",
    "cache",
    "queue",
    "retry",
    "budget",
    "forecast",
    "ticket",
    "triage",
    "release",
    "notes",
    "summary",
    "table",
    "column",
    "widget",
    "gadget",
    "archive",
    "backup",
    "restore",
    "index",
    "search",
    "crawl",
    "token",
    "billing",
    "pricing",
]
EXTRAS = [
    " \u2014 see notes",
    " \u201cquoted\u201d",
    " caf\u00e9",
    " \u65e5\u672c\u8a9e",
    " \U0001f642",
    " \u26a0\ufe0f",
    " a & b",
    " <tag>",
    ' "plain quotes"',
    " it's",
    ": colon",
    "\nnext line",
    "  two spaces",
]


def generate(size: int) -> list[dict[str, str]]:
    """`size` skills, sorted by nothing: the same list for the same size, on any machine."""
    seed, shortest, longest = SHAPES[size]
    rnd = random.Random(seed)
    skills: list[dict[str, str]] = []
    names: set[str] = set()
    while len(skills) < size:
        name = "-".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3)))
        if name in names:
            continue
        names.add(name)
        target = rnd.randint(shortest, longest)
        text = f"Use for {name.replace('-', ' ')}."
        while len(text) < target:
            text += rnd.choice(EXTRAS) if rnd.random() < 0.08 else " " + rnd.choice(WORDS)
        text = text[:target].strip()
        skills.append({"name": name, "description": text})
    return skills


def path(size: int) -> Path:
    return FOLDER / f"catalog-{size:03d}.json"


def load(size: int) -> list[tuple[str, str]]:
    """The committed catalog of `size` skills as (name, description) pairs."""
    data = json.loads(path(size).read_text(encoding="utf-8"))
    return [(skill["name"], skill["description"]) for skill in data["skills"]]


def write_catalog(root: Path, skills: list[tuple[str, str]]) -> dict[str, Path]:
    """Each skill as `<root>/<name>/SKILL.md`, its description a YAML double-quoted scalar (JSON's
    escapes are YAML's), so line breaks and quotes reach every CLI's parser as written."""
    room = {}
    for name, description in skills:
        folder = root / name
        folder.mkdir(parents=True)
        front = f"---\nname: {name}\ndescription: {json.dumps(description, ensure_ascii=False)}\n---\n"
        (folder / "SKILL.md").write_text(front + f"# {name}\n\nDo the {name} task.\n", encoding="utf-8")
        room[name] = folder
    return room


if __name__ == "__main__":  # regenerate the fixture files: python -m tests.support.listing_catalogs
    for count in SHAPES:
        body = {"size": count, "seed": SHAPES[count][0], "skills": generate(count)}
        path(count).write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
