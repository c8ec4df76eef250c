"""The one door for every file the harness writes into a repo or a report path.

Where a write may land (docs/usage.md#where-skillscope-writes says the same for users):
- A symlink that lies inside the repo may lead anywhere inside it, and the write goes where it leads (the
  link itself is kept). A symlink inside the repo that leads out of it, or would once created (a dangling
  one), at any depth of the path, is refused: a pull request can commit links, and none may carry a write
  of the harness out of the checkout.
- A path the user names outside the repo (`--output /tmp/x.json`), and the links that lie outside the
  repo, are the user's own: followed as the system follows them.
- Files are replaced whole: written to a temporary file beside the destination, flushed to disk, then
  renamed over it, so a crash or a full disk leaves the earlier file as it was.
- A character device or a FIFO (`/dev/null`, `/dev/stdout`, a pipe) is written into, never replaced
  (renamed over as root, it would be replaced for the whole machine); a block device, a folder or a
  socket is refused.

`inside` is the folder whose links are held to it: the repo for repo and report paths, the cache folder
for cache entries.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from harness.errors import HarnessError
from harness.files import within

# What os.link raises on a file system without hard links (some network and FAT mounts).
NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK}
MAX_LINKS = 40  # as the kernel's own limit on links followed in one path (ELOOP beyond it)
STREAMS = (stat.S_ISCHR, stat.S_ISFIFO)
NOT_FILES = {stat.S_ISBLK: "a block device", stat.S_ISDIR: "a folder", stat.S_ISSOCK: "a socket"}


class Refused(OSError):
    """A write the harness will not make. `strerror` says why and how to fix it, as one clause."""

    def __init__(self, reason: str):
        super().__init__(errno.EPERM, reason)


def cannot(what: str, path: Path | str, exc: OSError, fix: str) -> str:
    """The one sentence a failed write becomes: the file, why, and the fix."""
    if isinstance(exc, Refused):
        return f"refused to write {what} to {path}: {exc.strerror}."
    return f"cannot write {what} to {path} ({exc.strerror or exc}); {fix}."


@contextlib.contextmanager
def writing(what: str, path: Path | str, fix: str) -> Iterator[None]:
    """A block of writes whose OSError becomes the one sentence of `cannot`, as a HarnessError."""
    try:
        yield
    except OSError as exc:
        raise HarnessError(cannot(what, path, exc, fix)) from None


def write_text(path: Path, text: str, inside: Path, private: bool = False, durable: bool = True) -> None:
    """`path` replaced whole by `text` (UTF-8)."""
    write_bytes(path, text.encode("utf-8", "surrogatepass"), inside, private, durable=durable)


def write_bytes(
    path: Path,
    data: bytes,
    inside: Path,
    private: bool = False,
    mode: int | None = None,
    durable: bool = True,
) -> None:
    """`path` replaced whole by `data`; `private` makes it readable by its owner only, `mode` gives it
    those permission bits (as a copy keeps its source's)."""
    with replacing(path, inside, private, mode=mode, durable=durable) as out:
        out.write(data)


@contextlib.contextmanager
def replacing(
    path: Path, inside: Path, private: bool = False, mode: int | None = None, durable: bool = True
) -> Iterator[BinaryIO]:
    """A binary file whose content replaces `path` whole when the block ends. When the block (or the
    disk) fails, the earlier file is kept as it was and the new content dropped. `durable=False` skips
    flushing it to disk: for a cache, whose file lost in a crash is only read as empty next time."""
    real = destination(path, inside)
    if streamed(path):
        with open(os.open(path, os.O_WRONLY), "wb") as stream:
            yield stream
        return
    folder = os.path.dirname(real)
    os.makedirs(folder, exist_ok=True)
    temp, handle = beside(real, private, mode)
    try:
        try:
            yield handle
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        finally:
            handle.close()
        os.replace(temp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        synced(folder)


@contextlib.contextmanager
def growing(path: Path, inside: Path, private: bool = False) -> Iterator[BinaryIO]:
    """A file written as it comes, such as an agent's log (read while it grows, so not renamed into place
    at the end): the links rule of every write, then created, or emptied, where it really lies."""
    real = destination(path, inside)
    if streamed(path):
        descriptor = os.open(path, os.O_WRONLY)
    else:
        os.makedirs(os.path.dirname(real), exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
        descriptor = os.open(real, flags, 0o600 if private else 0o666)
        if private:  # an existing file keeps its old mode through O_CREAT
            os.fchmod(descriptor, 0o600)
    with open(descriptor, "wb") as stream:
        yield stream


def write_new(path: Path, text: str | bytes, inside: Path, private: bool = False) -> None:
    """`path` created with `text`, or FileExistsError when anything is there (a dangling link too). The
    name is taken by one atomic link of a finished file: no reader sees it half written, and of two
    runs taking the same name one wins."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "it exists", str(path))
    real = destination(path, inside)
    os.makedirs(os.path.dirname(real), exist_ok=True)
    temp, handle = beside(real, private)
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temp, real)
        except OSError as exc:
            if isinstance(exc, FileExistsError) or exc.errno not in NO_HARD_LINKS:
                raise
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL  # still exclusive, though not atomic
            with open(os.open(real, flags, 0o600 if private else 0o666), "wb") as out:
                out.write(data)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    synced(os.path.dirname(real))


def append_text(path: Path, text: str, inside: Path) -> None:
    """`text` added at the end of `path` (made if missing), as GitHub's step summary expects: what was
    there stays whole; a write cut short leaves at most a partial tail."""
    real = destination(path, inside)
    if streamed(path):
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)
    else:
        os.makedirs(os.path.dirname(real), exist_ok=True)
        descriptor = os.open(real, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    with open(descriptor, "wb") as stream:
        stream.write(text.encode("utf-8", "surrogatepass"))


def make_folder(path: Path, inside: Path) -> Path:
    """`path` made a folder (with its parents) where it really lies; the links rule of every write."""
    real = destination(path, inside)
    os.makedirs(real, exist_ok=True)
    return Path(real)


# --- where a write lands ----------------------------------------------------------------------------


def destination(path: Path | str, inside: Path | str) -> str:
    """Where writing `path` lands, every link resolved; Refused when a link inside `inside` leads out."""
    try:
        real, followed = resolved(os.path.abspath(path))
        root = os.path.realpath(inside)
    except ValueError:  # a NUL in the name
        raise Refused("its name holds a character no file name can; name another file") from None
    for link, led in followed:
        if within(os.path.dirname(link), root) and not within(led, root):
            raise Refused(
                f"{link} is a symlink leading out of {root} (to {led}); replace the link with a plain "
                "file or point it inside"
            )
    return real


def resolved(path: str) -> tuple[str, list[tuple[str, str]]]:
    """`path` with every link resolved, as the system would (missing parts kept as written), and each
    link followed on the way: (where the link lies, where it leads)."""
    followed: list[tuple[str, str]] = []
    known: dict[str, str | None] = {}  # a link already resolved; None while it is being resolved

    def walk(base: str, rest: str, depth: int) -> str:
        for name in rest.split(os.sep):
            if name in ("", "."):
                continue
            if name == "..":
                base = os.path.dirname(base)
                continue
            here = os.path.join(base, name)
            try:
                is_link = stat.S_ISLNK(os.lstat(here).st_mode)
            except OSError:  # missing (or not a folder on the way): kept as written
                is_link = False
            if not is_link:
                base = here
                continue
            if here in known:
                led = known[here]
                if led is None:
                    raise OSError(errno.ELOOP, "its symlinks form a loop", here)
                base = led
                continue
            if depth >= MAX_LINKS:
                raise OSError(errno.ELOOP, "too many levels of symlinks", here)
            known[here] = None
            target = os.readlink(here)
            led = walk(os.sep if os.path.isabs(target) else base, target, depth + 1)
            known[here] = led
            followed.append((here, led))
            base = led
        return base

    return walk(os.sep, path, 0), followed


def streamed(path: Path | str) -> bool:
    """Whether `path` is a device or a FIFO to write into rather than replace; Refused when it is no file
    at all. Asked of the system along `path` itself: `/dev/stdout`'s links lead through /proc, where
    only the kernel can follow them."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    if any(kind(mode) for kind in STREAMS):
        return True
    what = next((name for kind, name in NOT_FILES.items() if kind(mode)), None)
    if what is not None:
        raise Refused(f"it is {what}, not a file; name a file, or - for stdout")
    return False


def beside(real: str, private: bool, mode: int | None = None) -> tuple[str, BinaryIO]:
    """A new hidden file in `real`'s folder, opened for writing: on the same file system, so the rename
    that follows is atomic. Made with `mode`, else the earlier file's mode, else the one a plain write
    would give (owner only when `private`)."""
    if mode is None:
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(real).st_mode)
    folder, name = os.path.split(real)
    while True:
        # What secrets.token_hex(6) returns, without importing secrets (and random, hmac) for a name.
        temp = os.path.join(folder, f".{name}.{os.urandom(6).hex()}.tmp")
        try:
            descriptor = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o666)
        except FileExistsError:
            continue
        break
    if private:
        os.fchmod(descriptor, 0o600)
    elif mode is not None:
        with contextlib.suppress(OSError):
            os.fchmod(descriptor, mode)
    return temp, open(descriptor, "wb")


def synced(folder: str) -> None:
    """The folder's entry for the renamed file flushed to disk too (where the system allows it)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
