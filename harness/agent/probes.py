"""What an agent CLI answered to `--version` and `--help`, kept in the user's cache per machine and
per executable, so a run starts the CLI for its cases only (each probe starts Node: most of a second).

An answer is reused only while the executable it came from is the same file: the key holds its real
path and what the kernel says of it (device, inode, size, modification and change times; the change
time cannot be set by anyone, so an entry copied from another machine or written for a replaced file
never matches), and, for a file small enough to be a launcher script, its content. Like the result
cache, entries live outside any repo, are written whole (a concurrent run reads the old entry or the
new one), and one that cannot be read or written costs a probe, never an error. Failed probes are never
kept: the next run tries again and says what went wrong.

A shell sandbox's verdict is kept by the same rules (`ProbeCache.sandbox`), its key also holding what
the sandbox needs of the machine (`sandbox_context`); only "it starts here" is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from harness import __version__, jsonsafe
from harness.files import UnreadableFile, read_bytes
from harness.memo import user_cache
from harness.writer import make_folder, write_text

from .spec import SandboxSupport

PROBES = "probes"  # the folder in the user's skillscope cache
FORMAT = 1  # part of every key: bumping it retires every older entry
HASHED_BELOW = 1024 * 1024  # a launcher script or shim is hashed too; a CLI's bundle or binary is not
MOST_SAID = 64 * 1024  # an entry holds at most this much of what the CLI printed
SANDBOX = "sandbox"  # the sandbox probe's name in its key, beside the flags `--version` and `--help`
AVAILABLE = "available"  # the one sandbox verdict kept


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


def program_identity(name: str, search_path: str | None) -> dict[str, Any] | None:
    """What the key knows of the program `name` as a lookup on `search_path` finds it; None when absent."""
    found = shutil.which(name, path=search_path)
    return executable_identity(found) if found is not None else None


def sandbox_context(programs: Sequence[str], search_path: str | None, settings: object) -> dict[str, Any]:
    """What a CLI's sandbox needs besides the CLI itself: each of `programs` as found on the run's
    `search_path` (a lookup, as the CLI makes it), the kernel and the user it runs as (namespaces and
    capabilities), and the sandbox `settings` the probe passes. Any change is a new key: probe again."""
    system = os.uname()
    return {
        "programs": {name: program_identity(name, search_path) for name in programs},
        "system": system.sysname,
        "kernel": system.release,
        "user": os.geteuid(),
        "settings": settings,
    }


class ProbeCache:
    """Probe answers under `folder`; `folder` None keeps nothing (every probe runs)."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> ProbeCache:
        """The cache in the user's cache folder as `environ` names it ($XDG_CACHE_HOME, else ~/.cache)."""
        return cls(user_cache(environ) / PROBES)

    def key(self, path: str, flag: str, context: Mapping[str, Any] | None = None) -> str | None:
        """The entry's name: `flag` of the executable at `path`, and `context` (what else the answer
        depends on) when given; None when the executable cannot be read."""
        identity = executable_identity(path)
        if identity is None:
            return None
        document = {"format": FORMAT, "harness_version": __version__, "flag": flag, "executable": identity}
        if context is not None:
            document["context"] = context
        return hashlib.sha256(json.dumps(document, sort_keys=True).encode("utf-8")).hexdigest()

    def get(self, path: str, flag: str, context: Mapping[str, Any] | None = None) -> str | None:
        """What `path flag` printed when last probed, while the executable is unchanged; else None."""
        key = self.key(path, flag, context) if self.folder is not None else None
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

    def put(self, path: str, flag: str, said: str, context: Mapping[str, Any] | None = None) -> None:
        """Keep a successful probe's output; a folder that cannot be written keeps nothing, silently."""
        key = self.key(path, flag, context) if self.folder is not None else None
        if key is None or self.folder is None or len(said) > MOST_SAID:
            return
        with contextlib.suppress(OSError):
            make_folder(self.folder, self.folder.parent)
            entry = json.dumps({"key": key, "flag": flag, "said": said}, ensure_ascii=False)
            write_text(self.folder / f"{key}.json", entry, self.folder, private=True, durable=False)

    def sandbox(
        self, path: str, context: Mapping[str, Any], probe: Callable[[], SandboxSupport]
    ) -> SandboxSupport:
        """Whether the sandbox of the CLI at `path` starts here: kept from an earlier run with the same
        `context` (see `sandbox_context`), else `probe()`'s answer.

        Only "it starts" is kept: a user who installs what was missing sees it on the next run, and each
        run says again why it is off. A kept "it starts" that has gone stale misleads no grade: every
        run's own CLI still says whether its sandbox applied (a trace's `sandbox_applied`, and
        claude_sockets.broken_sandbox once a command ran), and the report says what the runs said."""
        if self.get(path, SANDBOX, context) == AVAILABLE:
            return SandboxSupport(True, kept=True)
        support = probe()
        if support.available is True:
            self.put(path, SANDBOX, AVAILABLE, context)
        return support
