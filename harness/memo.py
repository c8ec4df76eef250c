"""What a pure function made of some content, kept between runs of the same repo in the user's cache.

A pre-commit hook checks mostly unchanged files on every commit, and parsing them (and importing the
parsers) costs more than every check together. An entry's key is the SHA-256 of its inputs and of the
memo's salt (the harness version and what made the entry), so an edited file, an upgraded harness or a
changed threshold simply misses and is computed again. Entries are plain JSON. The file is replaced
whole, so a concurrent run reads the old or the new one, never half; a damaged, unreadable or
unwritable memo behaves as an empty one and costs time, never a finding. Nothing is written inside the
repo under test.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Mapping
from pathlib import Path

from harness import __version__
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_bytes
from harness.writer import write_text

KEEP = 20_000  # entries one memo keeps: a catalog of thousands of skills, with room for its history
# A repo's memo unused this long is deleted when another memo file is first written: CI checkouts and
# temporary clones would otherwise leave a file each in the user's cache for ever.
STALE_AFTER_S = 30 * 24 * 3600
MEMO_FILE = re.compile(r"[a-z]+-[0-9a-f]{24}\.json")


def code_digest(files: list[Path], packages: tuple[str, ...] = ()) -> str:
    """SHA-256 of the code that makes a kind of entry, for its salt: `files`, then each package's
    module file and, where the release is written apart (fastjsonschema), its version.py. Packages are
    found without importing them; what cannot be read counts by its name only."""
    from importlib.util import find_spec

    paths = list(files)
    for package in packages:
        spec = find_spec(package)
        origin = Path(spec.origin) if spec and spec.origin else Path(package)
        version = origin.with_name("version.py")
        paths += [origin, version] if version.is_file() else [origin]
    digest = hashlib.sha256()
    for path in paths:
        try:
            digest.update(read_bytes(path, MAX_REPORT_BYTES))
        except UnreadableFile:
            digest.update(os.fsencode(path.name))
    return digest.hexdigest()


def user_cache(environ: Mapping[str, str] | None = None) -> Path:
    """skillscope's folder in the user's cache ($XDG_CACHE_HOME, else ~/.cache), read from `environ`
    (a command's Context; the process environment when None)."""
    env = os.environ if environ is None else environ
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")) / "skillscope"


def repo_digest(root: Path) -> str:
    """A short name for one repo in the user's cache: a digest of its root's real path."""
    return hashlib.sha256(os.fsencode(os.path.realpath(root))).hexdigest()[:24]


class Memo:
    """Entries of one `kind` for one repo; `path` None keeps them for this run only."""

    def __init__(self, path: Path | None, salt: str) -> None:
        self.path = path
        self.salt = f"{__version__}\0{salt}"
        self.salted = hashlib.sha256(self.salt.encode("utf-8", "surrogatepass"))  # copied for each key
        self.entries: dict[str, object] = self._read(path) if path is not None else {}
        self.used: dict[str, object] = {}
        self.added: dict[str, object] = {}  # new this run, until taken (a worker hands them back)
        self.changed = False

    @classmethod
    def of_repo(cls, root: Path, kind: str, salt: str) -> Memo:
        """The repo's memo of `kind`, one file per repo and kind (named by a digest of the repo's path)."""
        return cls(cls.file_of(root, kind), salt)

    @staticmethod
    def file_of(root: Path, kind: str) -> Path:
        """Where the repo's memo of `kind` is kept (absent before a first run, or once pruned)."""
        return user_cache() / "memo" / f"{kind}-{repo_digest(root)}.json"

    def key(self, *parts: str) -> str:
        digest = self.salted.copy()
        for part in parts:
            digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
        return digest.hexdigest()

    def get(self, key: str) -> object | None:
        value = self.entries.get(key)
        if value is not None:
            self.used[key] = value
        return value

    def put(self, key: str, value: object) -> None:
        self.entries[key] = self.used[key] = self.added[key] = value
        self.changed = True

    def learn(self, entries: dict[str, object]) -> None:
        """Entries another process made (a worker's parses), kept as if made here but not handed back
        by `take_added`: an in-process scan learns what it just took, and taking it again would pass
        every earlier entry on to the next file (quadratic in the files scanned)."""
        self.entries.update(entries)
        self.used.update(entries)
        self.changed = self.changed or bool(entries)

    def take_added(self) -> dict[str, object]:
        """The entries put since the last call, for a worker to return with its results."""
        added, self.added = self.added, {}
        return added

    def save(self) -> None:
        """Writes the memo when this run added to it: what the run used first, then older entries."""
        if self.path is None or not self.changed:
            return
        kept = dict(self.used)
        for key, value in self.entries.items():
            if len(kept) >= KEEP:
                break
            kept.setdefault(key, value)
        body = json.dumps({"salt": self.salt, "entries": kept}, ensure_ascii=False, separators=(",", ":"))
        first = not self.path.exists()
        with contextlib.suppress(OSError):  # an unwritable cache costs the next run time, never a result
            write_text(self.path, body, self.path.parent, durable=False)
        self.changed = False
        if first:  # the folder grows only by a new file, so only then is it pruned
            prune(self.path.parent, time.time() - STALE_AFTER_S)

    def _read(self, path: Path) -> dict[str, object]:
        try:
            data = json.loads(read_bytes(path, MAX_REPORT_BYTES))
        except (UnreadableFile, ValueError, RecursionError):
            return {}
        entries = data.get("entries") if isinstance(data, dict) and data.get("salt") == self.salt else None
        if isinstance(entries, dict):
            mark_used(path)
            return entries
        return {}  # another version's entries could never match


def prune(folder: Path, before: float) -> None:
    """Deletes the memo files in `folder` last written before `before` (a time.time() instant)."""
    try:
        names = [entry for entry in os.scandir(folder) if MEMO_FILE.fullmatch(entry.name)]
        for entry in names:
            if entry.stat(follow_symlinks=False).st_mtime < before:
                os.unlink(entry.path)
    except OSError:
        pass  # another run pruned it first, or the folder is not ours to change: nothing is lost


def mark_used(path: Path) -> None:
    """A memo read but not changed is still in use: its time moves on (once a day), so no prune takes it."""
    try:
        if path.stat().st_mtime < time.time() - 24 * 3600:
            os.utime(path)
    except OSError:
        pass
