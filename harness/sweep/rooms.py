"""The rooms of an agent sweep: at each size, the catalog's own skill folders beside that size's ballast,
each ballast skill a real skill folder (a SKILL.md of its name and description) in a throwaway folder,
so the agent renders its own listing of them as it would of any installed skill."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import yaml

from harness.writer import make_folder, write_text

BODY = "Follow the request this skill was chosen for.\n"


def skill_md(name: str, description: str) -> str:
    """A SKILL.md of the name and description alone (a ballast skill has nothing else to say)."""
    head = yaml.safe_dump({"name": name, "description": description}, allow_unicode=True, width=float("inf"))
    return f"---\n{head}---\n\n{BODY}"


@contextlib.contextmanager
def ballast_folders(
    skills: Sequence[tuple[str, str]], parent: Path | None = None
) -> Iterator[dict[str, Path]]:
    """Each (name, description) as a skill folder in a throwaway folder under `parent` (default: the
    system's temp folder), removed afterwards: name -> its folder."""
    base = Path(tempfile.mkdtemp(prefix="skillscope-ballast-", dir=parent))
    try:
        folders = {}
        for name, description in skills:
            folder = make_folder(base / name, base)
            write_text(folder / "SKILL.md", skill_md(name, description), base)
            folders[name] = folder
        yield folders
    finally:
        shutil.rmtree(base, ignore_errors=True)


def room_at(
    catalog: Mapping[str, Path], ordering: Sequence[tuple[str, str]], size: int, folders: Mapping[str, Path]
) -> dict[str, Path]:
    """The room of one size: every catalog folder and the first skills of the ballast ordering."""
    extra = ordering[: max(0, size - len(catalog))]
    return {**catalog, **{name: folders[name] for name, _ in extra}}


def needed(
    orderings: Sequence[Sequence[tuple[str, str]]], largest: int, catalog: int
) -> list[tuple[str, str]]:
    """Every ballast skill some repeat's largest room holds, once each, in first-seen order."""
    seen: dict[str, str] = {}
    for ordering in orderings:
        for name, description in ordering[: max(0, largest - catalog)]:
            seen.setdefault(name, description)
    return list(seen.items())
