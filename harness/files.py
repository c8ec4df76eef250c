"""Reading the repo's text files defensively (any bad file becomes a reason, not a traceback), and asking
git which of them it tracks or ignores. Every write goes through harness.writer."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path

MAX_TEXT_BYTES = 5 * 1024 * 1024  # far above any real SKILL.md or dataset
MAX_REPORT_BYTES = 256 * 1024 * 1024  # a report is ours; a large run's runs to megabytes
GIT_TIMEOUT_S = 30.0  # one `git ls-files` in one folder: a hung git must not hang the run
# The installed package folder: pip always unpacks wheels, and importlib.resources would import zipfile
# and its compressors on every start-up.
PACKAGE = Path(__file__).resolve().parent


class UnreadableFile(Exception):
    """`reason` completes the sentence "<path> cannot be read: <reason>"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def read_text(path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES) -> str:
    """UTF-8 text of `path`, refusing binary, oversized and undecodable files."""
    data = read_bytes(path, limit)
    if b"\0" in data:
        raise UnreadableFile("it holds NUL bytes, so it is binary rather than text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise UnreadableFile(f"it is not valid UTF-8 (line {line}); save it as UTF-8") from None


def read_bytes(
    path: str | os.PathLike[str], limit: int = MAX_TEXT_BYTES, *, follow_links: bool = True
) -> bytes:
    """The content of a regular file of at most `limit` bytes (see `opened`); read unbuffered and sized
    from fstat (a buffered read(limit + 1) would allocate the whole limit for every small file), from the
    descriptor itself: a file object would cost more than reading a small file does."""
    descriptor, status = open_regular(path, follow_links)
    try:
        size = status.st_size
        if size > limit:
            raise UnreadableFile(too_large(limit))
        try:
            data = read_up_to(partial(os.read, descriptor), size, limit + 1)
        except OSError as exc:
            raise UnreadableFile(exc.strerror or str(exc)) from None
    finally:
        os.close(descriptor)
    if len(data) > limit:
        raise UnreadableFile(too_large(limit))
    return data


@contextlib.contextmanager
def opened(path: str | os.PathLike, *, follow_links: bool = True) -> Iterator[io.FileIO]:
    """The one door for reading a repo file: an unbuffered handle on `path` when it is a regular file,
    else UnreadableFile saying what it is and the fix (see `open_regular`)."""
    descriptor, _ = open_regular(path, follow_links)
    with open(descriptor, "rb", buffering=0) as handle:  # closes the descriptor
        yield handle


def open_regular(path: str | os.PathLike, follow_links: bool) -> tuple[int, os.stat_result]:
    """A descriptor open on `path` and its fstat, when it is a regular file, else UnreadableFile saying
    what it is and the fix. Opened with O_NONBLOCK, so a named pipe is refused at once instead of
    waiting for a writer forever, and judged by fstat of what was opened (no check then open for the
    file to change in between): a device such as /dev/zero would be read forever. `follow_links=False`
    refuses a symlink itself (O_NOFOLLOW)."""
    try:
        if follow_links:
            descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        else:
            descriptor = os.open(
                path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
            )
    except IsADirectoryError:
        raise UnreadableFile(NOT_A_FILE[stat.S_IFDIR]) from None
    except OSError as exc:
        if not follow_links and exc.errno == errno.ELOOP:
            raise UnreadableFile(
                "it is a symlink, which is not followed here; replace it with the file"
            ) from None
        raise UnreadableFile(refused(path, exc)) from None
    except ValueError:  # a NUL in the name
        raise UnreadableFile("its name holds a character the system cannot open") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise UnreadableFile(NOT_A_FILE.get(stat.S_IFMT(status.st_mode), NOT_A_FILE[stat.S_IFIFO]))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor, status


def refused(path: str | os.PathLike, error: OSError) -> str:
    """Why opening `path` failed: what it is when that is no file (opening a socket says only "No such
    device or address"), else the system's reason."""
    if error.errno == errno.ENXIO:
        with contextlib.suppress(OSError):
            return NOT_A_FILE.get(stat.S_IFMT(os.stat(path).st_mode), error.strerror or str(error))
    return error.strerror or str(error)


# Why a file that is not a regular one is refused, by its kind; the fix is the same for each.
NOT_REGULAR = "not a regular file; replace it with a plain file or remove it"
NOT_A_FILE = {
    stat.S_IFDIR: "it is a directory, not a file",
    stat.S_IFIFO: f"it is a named pipe (FIFO), {NOT_REGULAR}",
    stat.S_IFCHR: f"it is a character device, {NOT_REGULAR}",
    stat.S_IFBLK: f"it is a block device, {NOT_REGULAR}",
    stat.S_IFSOCK: f"it is a socket, {NOT_REGULAR}",
}


def too_large(limit: int) -> str:
    return f"it is larger than {limit // (1024 * 1024)} MB, too big to be hand-written"


def read_up_to(read: Callable[[int], bytes], size: int, most: int) -> bytes:
    """At most `most` bytes, asked for in one read when `size` is right, and read on to EOF or `most`
    when it is not (special files report 0, growing files more than they had)."""
    chunks, total, want = [], 0, min(size + 1, most)
    while want > 0:
        chunk = read(want)
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


def within(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """`path` is `folder` or lies under it, compared as written (callers pass resolved paths)."""
    path, folder = os.fspath(path), os.fspath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def is_inside(path: Path, root: Path, realpath: Callable[[str], str] = os.path.realpath) -> bool:
    """True when `path`, with every symlink resolved, stays under `root`."""
    return within(realpath(os.fspath(path)), realpath(os.fspath(root)))


def links_leaving(folder: Path, boundary: Path) -> list[Path]:
    """Every symlink under `folder` (the folder itself included) whose target, resolved, lies outside
    `boundary`: a folder copied whole must not carry a way out of the folder it was named from."""
    out, real_boundary = [], os.path.realpath(boundary)
    candidates = [Path(folder)]
    for current, dirs, files in os.walk(folder):  # does not descend into linked folders
        candidates += [Path(current) / name for name in (*dirs, *files)]
    for path in candidates:
        if path.is_symlink() and not within(os.path.realpath(path), real_boundary):
            out.append(path)
    return out


def rel_to(root: str | os.PathLike, path: str | os.PathLike) -> str:
    """`path` relative to `root`, with forward slashes. A path under the root with no dot segment is
    cut by prefix: relpath's normalising is measurable on large catalogs."""
    text, base = os.fspath(path), os.fspath(root)
    if text.startswith(base.rstrip(os.sep) + os.sep) and os.sep + "." not in text:
        return text[len(base.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    try:
        return Path(os.path.relpath(text, base)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(text).as_posix()


class RealPaths:
    """`os.path.realpath` that resolves each directory once: a catalog resolves thousands of paths under
    the same parents, and realpath costs a system call per component of every one of them."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}

    def __call__(self, path: str) -> str:
        # Walks up to a known (or realpath-resolved) ancestor, then joins back down: a loop, not
        # recursion, since a link may be written with thousands of components.
        below: list[str] = []
        current = path
        while current not in self.known:
            parent, name = os.path.split(current)
            # A link, and the names a plain join would get wrong, go to realpath itself.
            if (
                not os.path.isabs(current)
                or name in ("", ".", "..")
                or parent == current
                or self.is_link(current)
            ):
                self.known[current] = os.path.realpath(current)
                break
            below.append(current)
            current = parent
        real = self.known[current]
        for child in reversed(below):
            real = self.known[child] = os.path.join(real, os.path.basename(child))
        return self.known[path]

    @staticmethod
    def is_link(path: str) -> bool:
        try:
            return stat.S_ISLNK(os.lstat(path).st_mode)
        except (OSError, ValueError):
            return False  # as realpath does: a component it cannot stat is kept as written


def packaged_text(*parts: str) -> str:
    """A data file shipped inside the package (schemas, templates, rules), by its parts under harness/."""
    return PACKAGE.joinpath(*parts).read_text(encoding="utf-8")


def git_listed(
    folder: str | os.PathLike[str],
    *args: str,
    literal: bool = False,
    environ: Mapping[str, str] | None = None,
) -> list[str] | None:
    """The paths `git ls-files -z ARGS` gives in `folder` (relative to it); None when git cannot say (no
    git, no work tree, a failure, a hang): each caller decides what that silence means. `literal`: the
    pathspecs in ARGS are names, not patterns."""
    import subprocess  # only where a caller asks git: most runs start no process

    options = ["--literal-pathspecs"] if literal else []
    try:
        done = subprocess.run(
            ["git", *options, "-C", os.fspath(folder), "ls-files", "-z", *args],
            env=None if environ is None else dict(environ),
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return [name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name]
