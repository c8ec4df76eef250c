"""What history read from each report, kept between answers so a later one need not parse the ledger's
JSON again (a report of a thousand cases is a megabyte; the ledger holds hundreds).

One file per folder (or report) read, in the user's cache (`<cache>/history/`, named by a digest of the
folder's real path), holding per report its size and modification time and only what history reads: each
run's fields, and each case's row with its digests as an index into a table. A report whose size or
time moved is read again. The index is marshalled plain data (no code), salted with the harness version;
a damaged, unreadable or unwritable index behaves as an empty one and costs time, never a result.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from pathlib import Path
from typing import Any

from harness import __version__

SALT = f"history-index {__version__} 2"


def index_path(cache: Path, read: Path) -> Path:
    name = hashlib.sha256(os.fsencode(os.path.realpath(read))).hexdigest()[:24]
    return cache / "history" / f"{name}.marshal"


def stamp(file: Path) -> tuple[int, int] | None:
    try:
        found = file.stat()
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns


class Index:
    """The index of one folder (or report) read; `path` None keeps nothing between answers."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        files, digests = self._read(path) if path is not None else ({}, [])
        self.files: dict[str, list] = files
        self.digests: list[dict] = digests  # every distinct set of a case's digests, once
        self.where = {tuple(sorted(d.items())): i for i, d in enumerate(digests)}
        self.changed = False

    def place(self, digests: dict | None) -> int:
        """Where `digests` is in the shared table (added when new); -1 for None."""
        if digests is None:
            return -1
        key = tuple(sorted(digests.items()))
        spot = self.where.get(key)
        if spot is None:
            spot = self.where[key] = len(self.digests)
            self.digests.append(digests)
        return spot

    def get(self, file: Path, at: tuple[int, int] | None) -> list | None:
        """The compact runs kept for `file` when it has not changed since, else None."""
        kept = self.files.get(file.name)
        if at is None or kept is None or (kept[0], kept[1]) != at:
            return None
        return kept[2]

    def put(self, file: Path, at: tuple[int, int] | None, runs: list) -> None:
        if at is not None and self.path is not None:
            self.files[file.name] = [at[0], at[1], runs]
            self.changed = True

    def forget_missing(self, names: set[str]) -> None:
        """Drops reports no longer in the folder, so the index does not outgrow it."""
        gone = [name for name in self.files if name not in names]
        for name in gone:
            del self.files[name]
        self.changed = self.changed or bool(gone)

    def save(self) -> None:
        if self.path is None or not self.changed:
            return
        body = marshal.dumps({"salt": SALT, "files": self.files, "digests": self.digests})
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Written beside it and renamed over it: a concurrent answer reads the old index or the new.
            with tempfile.NamedTemporaryFile(dir=self.path.parent, prefix=".index-", delete=False) as out:
                out.write(body)
            os.replace(out.name, self.path)
        except OSError:
            pass  # an unwritable cache costs the next answer time, never a result

    @staticmethod
    def _read(path: Path) -> tuple[dict[str, list], list[dict]]:
        try:
            data: Any = marshal.loads(path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            return {}, []
        if not isinstance(data, dict) or data.get("salt") != SALT:
            return {}, []
        files, digests = data.get("files"), data.get("digests")
        if not isinstance(files, dict) or not isinstance(digests, list):
            return {}, []
        return files, digests
