"""Skill folders a Windows checkout keeps whole: no symbolic link in them, and no file that already is one
flattened.

git writes a symlink as a one-line text file holding the link's target wherever links are off (Windows
by default, `core.symlinks=false`): the agent then reads `../shared/guide.md` as the file's whole text,
and the skill is broken there while it passes every check on Linux and macOS.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from harness.checks import CheckOptions
from harness.files import UnreadableFile, read_bytes
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding

# A flattened link is its target's path and nothing else: short, one line, no trailing newline.
MOST_TARGET_BYTES = 1024
FIX = (
    "copy the file (or folder) into the skill in its place, or have every checkout enable links "
    "(`git config core.symlinks true`, on Windows with Developer Mode)"
)


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    for key, skill in catalog.skills.items():
        rel = catalog.repo.rel(skill.path)
        if linked(skill.path):
            out.append(link_finding(rel, skill.path))
            continue
        for step in catalog.tree(key).walk():  # links to folders are listed, not followed
            if isinstance(step, OSError):
                continue  # a folder that cannot be listed is left to the checks that read it
            here = Path(step.path)
            for name in [*step.dirs, *step.files]:
                path = here / name
                try:
                    seen = path.lstat()
                except OSError:
                    continue  # one that cannot be looked at is left to the checks that read it
                if stat.S_ISLNK(seen.st_mode):
                    out.append(link_finding(catalog.repo.rel(path), path))
                elif name in step.files and could_be_flattened(seen) and (target := flattened_target(path)):
                    out.append(
                        findings.warning(
                            "symlink-as-text",
                            catalog.repo.rel(path),
                            f"the file holds only `{target}`, the path of an existing file or folder: what a "
                            "symbolic link becomes in a checkout without links (Windows, "
                            f"`core.symlinks=false`), so the agent reads that path as its text; {FIX}.",
                        )
                    )
    return out


def linked(path: Path) -> bool:
    """Whether `path` is a symbolic link; one that cannot be looked at is left to the checks that read it."""
    try:
        return path.is_symlink()
    except OSError:
        return False


def link_finding(rel: str, path: Path) -> Finding:
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return findings.warning(
        "symlink-in-skill",
        rel,
        f"`{rel}` is a symbolic link to `{target}`; a checkout without links (Windows by default) writes it "
        f"as a one-line text file holding `{target}`, and the agent sees a broken skill there; {FIX}.",
    )


def could_be_flattened(seen: os.stat_result) -> bool:
    """Whether a file is small enough to be a flattened link: most are not, and then it is not read."""
    return stat.S_ISREG(seen.st_mode) and 0 < seen.st_size <= MOST_TARGET_BYTES


def flattened_target(path: Path) -> str | None:
    """The relative path a one-line file holds when it names an existing file or folder beside it."""
    try:
        text = read_bytes(path, MOST_TARGET_BYTES).decode("utf-8")
    except (UnreadableFile, UnicodeDecodeError):
        return None  # too long to be a link's target, not text, or not a regular file
    if not text or text != text.strip() or any(c.isspace() for c in text) or text.startswith("/"):
        return None
    target = path.parent / text
    try:
        exists = target.exists() and target.resolve() != path.resolve()
    except (OSError, ValueError):
        return None
    return text if exists else None
