"""One listing of a skill's folder, made once per run and replayed by every check that looks at each
file in it (the symlink and name checks, the security reader), instead of each listing the disk again.

The listing is the walk those checks made themselves: `os.walk` top-down, folders entered in name
order, links to folders listed but not entered, hidden files and folders included, and each folder that
could not be listed kept as the error `os.walk` reported for it, at its place in the walk.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Folder:
    """One listed folder: its path as the walk reached it, its sub-folders and files, each sorted."""

    path: str
    dirs: tuple[str, ...]
    files: tuple[str, ...]


Step = Folder | OSError  # an OSError: a folder the walk could not list (its `filename` says which)


class SkillTree:
    """The walk of one skill folder, in the order os.walk made it."""

    def __init__(self, top: Path) -> None:
        self.top = top
        steps: list[Step] = []
        for current, dirs, files in os.walk(top, onerror=steps.append):
            dirs.sort()
            steps.append(Folder(current, tuple(dirs), tuple(sorted(files))))
        self.steps = tuple(steps)

    def walk(self, skip: frozenset[str] = frozenset()) -> Iterator[Step]:
        """The steps, leaving out the top folder's sub-folders named in `skip` and everything under
        them: what a walk that removed them from the top folder's list would have reached."""
        top = os.fspath(self.top)
        left_out = tuple(os.path.join(top, name) for name in sorted(skip))
        for step in self.steps:
            if not left_out:
                yield step
            elif isinstance(step, OSError):
                if not (isinstance(step.filename, str) and under(step.filename, left_out)):
                    yield step
            elif step.path == top:
                yield Folder(top, tuple(name for name in step.dirs if name not in skip), step.files)
            elif not under(step.path, left_out):
                yield step


def under(path: str, folders: tuple[str, ...]) -> bool:
    return any(path == folder or path.startswith(folder + os.sep) for folder in folders)
