"""Reading the repo's text files defensively: any bad file becomes a reason, not a traceback."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

MAX_TEXT_BYTES = 5 * 1024 * 1024  # far above any real SKILL.md or dataset


class UnreadableFile(Exception):
    """`reason` completes the sentence "<path> cannot be read: <reason>"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def read_text(path: Path, limit: int = MAX_TEXT_BYTES) -> str:
    """UTF-8 text of `path`, refusing binary, oversized and undecodable files."""
    try:
        # Unbuffered, and sized from fstat: a buffered read(limit + 1) would allocate the whole limit
        # and ask the OS whether each file is a terminal.
        with open(path, "rb", buffering=0) as handle:
            data = read_up_to(handle, os.fstat(handle.fileno()).st_size, limit + 1)
    except IsADirectoryError:
        raise UnreadableFile("it is a directory, not a file") from None
    except OSError as exc:
        raise UnreadableFile(exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise UnreadableFile(f"it is larger than {limit // (1024 * 1024)} MB, too big to be hand-written")
    if b"\0" in data:
        raise UnreadableFile("it holds NUL bytes, so it is binary rather than text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableFile(f"it is not valid UTF-8 (line {line}); save it as UTF-8") from None


def read_up_to(handle, size: int, most: int) -> bytes:
    """At most `most` bytes, asked for in one read when `size` is right, and read on to EOF or `most`
    when it is not (special files report 0, growing files more than they had)."""
    chunks, total, want = [], 0, min(size + 1, most)
    while want > 0:
        chunk = handle.read(want)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = most - total
    return b"".join(chunks)


def present(path: Path) -> bool:
    """Whether something is at `path`. Unlike Path.exists, a permission error counts as present, so the
    reader that follows reports "permission denied" as a finding instead of the run crashing."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    except ValueError:  # a path the OS cannot encode
        return False
    return True


def is_inside(path: Path, root: Path, realpath: Callable[[str], str] = os.path.realpath) -> bool:
    """True when `path`, with every symlink resolved, stays under `root`."""
    try:
        Path(realpath(os.fspath(path))).relative_to(realpath(os.fspath(root)))
    except ValueError:
        return False
    return True


class RealPaths:
    """`os.path.realpath` that resolves each directory once: a catalog resolves thousands of paths under
    the same parents, and realpath costs a system call per component of every one of them."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        if path not in self.known:
            parent, name = os.path.split(path)
            if not os.path.isabs(path) or name in ("", ".", "..") or parent == path:
                self.known[path] = os.path.realpath(path)  # the cases a plain join would get wrong
            elif self.is_link(path):
                self.known[path] = os.path.realpath(path)
            else:
                self.known[path] = os.path.join(self(parent), name)
        return self.known[path]

    @staticmethod
    def is_link(path: str) -> bool:
        try:
            return stat.S_ISLNK(os.lstat(path).st_mode)
        except (OSError, ValueError):
            return False  # as realpath does: a component it cannot stat is kept as written
