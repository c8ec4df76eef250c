"""Content-addressed results of graded samples: one is reused only when nothing that could change it
changed.

A key is the SHA-256 of one canonical JSON document holding everything a sample depends on (the
commands list it; docs/usage.md says exactly what). An entry is that sample's JSON, written to a
temp file and renamed into place, so two runs sharing a folder never see half an entry.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from harness import __version__

DEFAULT_FOLDER = Path(".skillscope") / "cache"
# Part of every key: bumping it retires every older entry without touching the folder.
ENTRY_FORMAT = 1
CHUNK = 1024 * 1024


def key_of(kind: str, parts: Mapping[str, Any]) -> str:
    """The key of a `kind` sample ("routing", "behavioral") whose inputs are `parts`."""
    document = {"kind": kind, "format": ENTRY_FORMAT, "harness_version": __version__, **parts}
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def tree_digest(folder: Path, skip_top: Sequence[str] = ()) -> str:
    """One digest of every file under `folder` (relative path, content, executable bit, link
    targets), leaving out the top-level names in `skip_top`; "missing" when there is no folder."""
    root = Path(folder)
    if not root.is_dir():
        return "missing"
    digest = hashlib.sha256()
    for current, dirs, files in os.walk(root):
        here = Path(current)
        if here == root:
            dirs[:] = [d for d in dirs if d not in skip_top]
            files = [f for f in files if f not in skip_top]
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            digest.update(_file_record(here / name, (here / name).relative_to(root).as_posix()))
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    """The digest of one file's bytes, or "missing"."""
    try:
        return _content_digest(Path(path))
    except OSError:
        return "missing"


def _file_record(path: Path, rel: str) -> bytes:
    if path.is_symlink():
        return f"link\0{rel}\0{os.readlink(path)}\n".encode("utf-8", "surrogateescape")
    executable = os.access(path, os.X_OK)
    content = _content_digest(path)
    return f"file\0{rel}\0{int(executable)}\0{content}\n".encode("utf-8", "surrogateescape")


def _content_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class ResultCache:
    """Graded samples by key under one folder; safe for threads and for two runs at once."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.write_error: str | None = None  # the first failed write, said once in the report

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        """The entry for `key`, or None: a missing, unreadable or damaged entry is a miss."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        """Store `entry` whole or not at all. A cache that cannot be written never fails the run."""
        target = self._path(key)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump(entry, out, ensure_ascii=False)
                os.replace(temp, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError as exc:
            if self.write_error is None:
                self.write_error = (
                    f"could not write the result cache under {self.folder} ({exc.strerror or exc}); "
                    "nothing was reused from this run: fix the folder's permissions or pass --no-cache"
                )
