"""What a workspace held before and after the agent ran, so only the run's own files get credit."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from harness.files import UnreadableFile, read_bytes

DIGEST_LIMIT = 8 * 1024 * 1024  # bigger files are compared by size and mtime only


@dataclass(frozen=True)
class FileState:
    size: int
    mtime_ns: int
    digest: str | None  # None for files too big to hash, and for symlinks


@dataclass
class Snapshot:
    """Root-relative POSIX path -> state, for every file outside the harness area: the top folder
    of the runtime's skills folder (`.claude`, `.agents`), which holds the installed skills and the
    CLI's state, never the agent's product."""

    files: dict[str, FileState] = field(default_factory=dict)
    directories: set[str] = field(default_factory=set)

    @classmethod
    def take(cls, root: Path, skills_folder: str) -> Snapshot:
        harness_area = Path(skills_folder).parts[0]
        snap = cls()
        for current, dirs, names in os.walk(root):  # does not follow directory symlinks
            here = Path(current)
            rel_dir = here.relative_to(root)
            if rel_dir == Path("."):
                dirs[:] = [d for d in dirs if d != harness_area]
            for name in dirs:
                snap.directories.add((rel_dir / name).as_posix())
            for name in names:
                path = here / name
                if path.is_dir():  # a symlink to a directory is not a file
                    snap.directories.add((rel_dir / name).as_posix())
                    continue
                state = _state(path)
                if state is not None:
                    snap.files[(rel_dir / name).as_posix()] = state
        return snap


@dataclass
class Changes:
    """What the run did to the workspace, in path order."""

    created: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    untouched: list[str] = field(default_factory=list)  # present before and after, same content
    directories: list[str] = field(default_factory=list)  # every directory present after

    @property
    def produced(self) -> list[str]:
        """Files the run created or changed: the only ones `files_exist` credits."""
        return sorted([*self.created, *self.changed])

    @property
    def present(self) -> list[str]:
        return sorted([*self.created, *self.changed, *self.untouched])

    def how(self, path: str) -> str:
        return "created" if path in self.created else "changed"

    def to_json(self) -> dict:
        return {"created": self.created, "changed": self.changed, "removed": self.removed}


def compare(before: Snapshot, after: Snapshot) -> Changes:
    changes = Changes(directories=sorted(after.directories))
    for path, state in sorted(after.files.items()):
        old = before.files.get(path)
        if old is None:
            changes.created.append(path)
        elif _differs(old, state):
            changes.changed.append(path)
        else:
            changes.untouched.append(path)
    changes.removed = sorted(set(before.files) - set(after.files))
    return changes


def _differs(old: FileState, new: FileState) -> bool:
    if old.digest is not None and new.digest is not None:
        return old.digest != new.digest  # a `touch` or a same-bytes rewrite produced nothing
    return (old.size, old.mtime_ns) != (new.size, new.mtime_ns)


def _state(path: Path) -> FileState | None:
    try:
        info = path.lstat()
    except OSError:
        return None  # vanished while we looked
    if path.is_symlink():
        return FileState(info.st_size, info.st_mtime_ns, f"link:{os.readlink(path)}")
    if not stat.S_ISREG(info.st_mode):  # a pipe or socket: reading one waits for a writer that never comes
        return FileState(info.st_size, info.st_mtime_ns, f"special:{stat.S_IFMT(info.st_mode)}")
    digest = None
    if info.st_size <= DIGEST_LIMIT:
        try:
            digest = hashlib.sha256(read_bytes(path, DIGEST_LIMIT)).hexdigest()
        except UnreadableFile:  # replaced by a pipe since the lstat, or grown past the limit
            digest = None
    return FileState(info.st_size, info.st_mtime_ns, digest)
