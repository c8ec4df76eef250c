"""What history read from each report, kept between answers so a later one need not parse the ledger's
JSON again (a report of a thousand cases is a megabyte; the ledger holds hundreds).

One file per folder (or report) read, in the user's cache (`<cache>/history/`, named by a digest of the
folder's real path), laid out per case: each run's fields once, then per case its rows as columns of
small integers (run, status and verdict words, digests as a place in one shared table, flags), each
column packed as bytes, so reading it back costs a few thousand objects, not one per verdict. Per report
it keeps its size and modification time: when every report is as indexed the index is the answer; a
report whose size or time moved is read again and the index rewritten. Marshalled plain data (no code),
salted with the harness version; a damaged, unreadable or unwritable index behaves as an empty one and
costs time, never a result.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
from array import array
from pathlib import Path
from typing import Any

from harness import __version__
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_bytes
from harness.writer import write_bytes

SALT = f"history-index {__version__} 6 copies read last"  # a change of what an index holds
COLUMN = "i"  # each column's items as signed 32-bit integers (a digest's -1 is "none recorded")


def index_path(cache: Path, read: Path) -> Path:
    name = hashlib.sha256(os.fsencode(os.path.realpath(read))).hexdigest()[:24]
    return cache / "history" / f"{name}.marshal"


def stamp(file: Path) -> tuple[int, int] | None:
    try:
        found = file.stat()
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns


def packed(column: list[int]) -> bytes:
    return array(COLUMN, column).tobytes()


def unpacked(column: bytes) -> list[int]:
    items = array(COLUMN)
    items.frombytes(column)
    return items.tolist()


class Index:
    """The index of one folder (or report) read; `path` None keeps nothing between answers.

    `data` holds: files (report name -> [size, mtime, run positions, why it was left out or None]),
    runs (each run's report name and fields), words, digests, cases (key -> [skill, source, packed
    columns]); empty when none is kept."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.data: dict[str, Any] = self._read(path) if path is not None else {}

    def current(self, stamps: dict[str, tuple[int, int] | None]) -> bool:
        """Whether every report is as indexed (none added, moved or removed)."""
        files = self.data.get("files")
        if not files or len(files) != len(stamps):
            return False
        return all(
            at is not None and (kept := files.get(name)) is not None and (kept[0], kept[1]) == at
            for name, at in stamps.items()
        )

    def unchanged(self, name: str, at: tuple[int, int] | None) -> tuple[list[int] | None, str | None]:
        """When report `name` has not changed since: the positions of its indexed runs, or why it was
        left out; else (None, None)."""
        kept = (self.data.get("files") or {}).get(name)
        if at is None or kept is None or (kept[0], kept[1]) != at:
            return None, None
        return kept[2], kept[3]

    def save(self, data: dict[str, Any]) -> None:
        if self.path is None:
            return
        body = marshal.dumps({"salt": SALT, **data})
        # Replaced whole: a concurrent answer reads the old index or the new. An unwritable cache costs
        # the next answer time, never a result.
        with contextlib.suppress(OSError):
            write_bytes(self.path, body, self.path.parent)

    @staticmethod
    def _read(path: Path) -> dict[str, Any]:
        try:
            data: Any = marshal.loads(read_bytes(path, MAX_REPORT_BYTES))
        except (UnreadableFile, ValueError, EOFError, TypeError):
            return {}
        if not isinstance(data, dict) or data.get("salt") != SALT:
            return {}
        shapes = {"files": dict, "runs": list, "words": list, "digests": list, "cases": dict}
        if not all(isinstance(data.get(key), kind) for key, kind in shapes.items()):
            return {}
        return data
