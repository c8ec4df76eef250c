"""Digests of JSON values and of folders' files: how a result cache key digests its parts, and how a
report's ledger records what produced a verdict. No agent or cache machinery, so a free run (the
lexical engine) that records its inputs loads none of it."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from harness.files import UnreadableFile, git_listed, opened, present

CHUNK = 1024 * 1024
BYTECODE = "__pycache__"


def canonical(value: Any) -> bytes:
    """One byte string per JSON value, whatever its keys' order."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8", "surrogatepass")


def digest_of(value: Any) -> str:
    """The SHA-256 of one JSON value, whatever its keys' order: how a key digests its parts, and how a
    report's ledger digests what produced a verdict."""
    return hashlib.sha256(canonical(value)).hexdigest()


def tree_digest(folder: Path, skip_top: Sequence[str] = ()) -> str:
    """One digest of every file under `folder` (relative path, content, executable bit, link
    targets), leaving out the top-level names in `skip_top` and the bytecode Python writes locally
    (see `shipped_bytecode`); "missing" when there is no folder."""
    root = Path(folder)
    if not root.is_dir():
        return "missing"
    digest = hashlib.sha256()
    for _, record in _tree_records(root, skip_top):
        digest.update(record)
    return digest.hexdigest()


def file_digests(folder: Path, skip_top: Sequence[str] = ()) -> dict[str, str]:
    """Each file under `folder` (path relative to it) with the digest of its record as tree_digest reads
    it (content, executable bit, link target), the same files left out; none when there is no folder.
    A report's ledger keeps them, so a verdict that changed can name the file that changed."""
    root = Path(folder)
    if not root.is_dir():
        return {}
    return {rel: hashlib.sha256(record).hexdigest() for rel, record in _tree_records(root, skip_top)}


def _tree_records(root: Path, skip_top: Sequence[str]) -> Iterator[tuple[str, bytes]]:
    shipped: frozenset[str] | None = None  # asked of git at the first bytecode folder, if any
    for current, dirs, files in os.walk(root):
        here = Path(current)
        if BYTECODE in dirs and shipped is None:
            shipped = shipped_bytecode(root)
        inside = BYTECODE in here.relative_to(root).parts
        if inside:  # a bytecode folder git tracks: its tracked files only, not what Python added
            files = [f for f in files if (here / f).relative_to(root).as_posix() in (shipped or ())]
        dirs[:] = [
            d
            for d in dirs
            if not (here == root and d in skip_top)
            and ((d != BYTECODE and not inside) or _holds(shipped, (here / d).relative_to(root).as_posix()))
        ]
        if here == root:
            files = [f for f in files if f not in skip_top]
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if (here / d).is_symlink()]:
            rel = (here / name).relative_to(root).as_posix()
            yield rel, _file_record(here / name, rel)


def shipped_bytecode(root: Path) -> frozenset[str]:
    """The files under a `__pycache__` folder of `root` that git tracks (paths relative to `root`): they
    ship with the skill, so a change to one is a change to it. Loading evals/hooks.py writes untracked
    bytecode beside it, stamped with the source's mtime, which a fresh checkout would never match and
    which is made from the source, digested already; so is everything when git cannot say (no work
    tree, no git), since the harness itself writes bytecode there."""
    listed = git_listed(root, "--", f"*{BYTECODE}/*") or ()
    return frozenset(path for path in listed if BYTECODE in path.split("/")[:-1])


def _holds(shipped: frozenset[str] | None, folder: str) -> bool:
    """Whether a tracked bytecode file lies under `folder` (root-relative)."""
    return any(path.startswith(f"{folder}/") for path in shipped or ())


def file_digest(path: Path) -> str:
    """The digest of one file's bytes, "missing", or what the reader refused (a pipe, a device)."""
    if not present(path):
        return "missing"
    try:
        return _content_digest(Path(path))
    except UnreadableFile as exc:
        return f"unreadable: {exc.reason}"


def _file_record(path: Path, rel: str) -> bytes:
    if path.is_symlink():
        return f"link\0{rel}\0{os.readlink(path)}\n".encode("utf-8", "surrogateescape")
    try:
        content = _content_digest(path)
    except UnreadableFile as exc:
        # A pipe or device is recorded by what it is, never read: reading one waits or runs forever.
        return f"unreadable\0{rel}\0{exc.reason}\n".encode("utf-8", "surrogateescape")
    executable = os.access(path, os.X_OK)
    return f"file\0{rel}\0{int(executable)}\0{content}\n".encode("utf-8", "surrogateescape")


def _content_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with opened(path) as handle:
        try:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
        except OSError as exc:
            raise UnreadableFile(exc.strerror or str(exc)) from None
    return digest.hexdigest()


# --- where the cache lives --------------------------------------------------------------------------
