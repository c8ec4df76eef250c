"""What an agent CLI answered to `--version` and `--help`, kept in the user's cache per machine and
per executable, so a run starts the CLI for its cases only (each probe starts Node: most of a second).

An answer is reused only while the executable it came from is the same file: the key holds its real
path and what the kernel says of it (device, inode, size, modification and change times; the change
time cannot be set by anyone, so an entry copied from another machine or written for a replaced file
never matches), and, for a file small enough to be a launcher script, its content. Like the result
cache, entries live outside any repo, are written whole (a concurrent run reads the old entry or the
new one), and one that cannot be read or written costs a probe, never an error. Failed probes are never
kept: the next run tries again and says what went wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness import __version__, jsonsafe
from harness.files import UnreadableFile, read_bytes
from harness.memo import user_cache
from harness.writer import make_folder, write_text

PROBES = "probes"  # the folder in the user's skillscope cache
FORMAT = 1  # part of every key: bumping it retires every older entry
HASHED_BELOW = 1024 * 1024  # a launcher script or shim is hashed too; a CLI's bundle or binary is not
MOST_SAID = 64 * 1024  # an entry holds at most this much of what the CLI printed


def executable_identity(path: str) -> dict[str, Any] | None:
    """What the key knows of the executable at `path` (links followed); None when it cannot be read."""
    real = os.path.realpath(path)
    try:
        facts = os.stat(real)
    except OSError:
        return None
    identity: dict[str, Any] = {
        "path": real,
        "device": facts.st_dev,
        "inode": facts.st_ino,
        "size": facts.st_size,
        "modified_ns": facts.st_mtime_ns,
        "changed_ns": facts.st_ctime_ns,
    }
    if facts.st_size < HASHED_BELOW:
        try:
            identity["sha256"] = hashlib.sha256(read_bytes(Path(real), HASHED_BELOW)).hexdigest()
        except UnreadableFile:
            return None
    return identity


class ProbeCache:
    """Probe answers under `folder`; `folder` None keeps nothing (every probe runs)."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> ProbeCache:
        """The cache in the user's cache folder as `environ` names it ($XDG_CACHE_HOME, else ~/.cache)."""
        return cls(user_cache(environ) / PROBES)

    def key(self, path: str, flag: str) -> str | None:
        identity = executable_identity(path)
        if identity is None:
            return None
        document = {"format": FORMAT, "harness_version": __version__, "flag": flag, "executable": identity}
        return hashlib.sha256(json.dumps(document, sort_keys=True).encode("utf-8")).hexdigest()

    def get(self, path: str, flag: str) -> str | None:
        """What `path flag` printed when last probed, while the executable is unchanged; else None."""
        key = self.key(path, flag) if self.folder is not None else None
        if key is None or self.folder is None:
            return None
        try:
            entry = jsonsafe.loads(read_bytes(self.folder / f"{key}.json", 2 * MOST_SAID), "probe entry")
        except (UnreadableFile, jsonsafe.JsonProblem):
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("said"), str):
            return None
        said: str = entry["said"]
        return said

    def put(self, path: str, flag: str, said: str) -> None:
        """Keep a successful probe's output; a folder that cannot be written keeps nothing, silently."""
        key = self.key(path, flag) if self.folder is not None else None
        if key is None or self.folder is None or len(said) > MOST_SAID:
            return
        with contextlib.suppress(OSError):
            make_folder(self.folder, self.folder.parent)
            entry = json.dumps({"key": key, "flag": flag, "said": said}, ensure_ascii=False)
            write_text(self.folder / f"{key}.json", entry, self.folder, private=True)
