"""A TMPDIR short enough for claude's sandbox sockets, and what a run says when its sandbox broke.

On Linux claude's sandbox bridges the network through two Unix sockets it makes in its TMPDIR at the
first shell command (`claude-http-<16 hex>.sock`, measured on 2.1.332). Past the kernel's limit for a
socket path those fail, and claude then runs every later command of the session with no sandbox at
all, while its init event still says the sandbox is on.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping

from .trace import Trace

# The smaller of macOS's (104) and Linux's (108) limits, less the terminating NUL.
SOCKET_PATH_MAX = 103
LONGEST_SOCKET_NAME = "/claude-socks-0123456789abcdef.sock"
# Node's os.tmpdir() on POSIX: the first of these that is set, else /tmp.
TEMP_VARIABLES = ("TMPDIR", "TMP", "TEMP")
SHORT_PARENTS = ("/tmp", "/var/tmp", "/dev/shm")
SANDBOX_BROKEN = re.compile(r"Sandbox is enabled but failed to initialize:?\s*([^\n]*)")


def temp_dir_of(environ: Mapping[str, str]) -> str:
    """The temp folder claude takes from `environ`, as its Node runtime reads it."""
    chosen = next((environ[name] for name in TEMP_VARIABLES if environ.get(name)), "/tmp")
    return chosen.rstrip("/") or "/"


def fits(folder: str) -> bool:
    return len((folder + LONGEST_SOCKET_NAME).encode()) <= SOCKET_PATH_MAX


@contextlib.contextmanager
def short_temp_dir(environ: Mapping[str, str]) -> Iterator[str | None]:
    """A private folder for one run whose sockets fit, removed after it; None when the run's own
    TMPDIR already fits or no short folder can be made (the run then says why its sandbox broke)."""
    if fits(temp_dir_of(environ)):
        yield None
        return
    for parent in SHORT_PARENTS:
        try:
            made = tempfile.mkdtemp(prefix="skillscope-", dir=parent)
        except OSError:
            continue
        if not fits(made):
            shutil.rmtree(made, ignore_errors=True)
            continue
        try:
            yield made
        finally:
            shutil.rmtree(made, ignore_errors=True)
        return
    yield None


def broken_sandbox(trace: Trace, environ: Mapping[str, str]) -> str | None:
    """Why the sandbox of this run stopped applying after it started, or None: claude's own words,
    or, when a TMPDIR too long for its sockets is the cause, that and the fix."""
    said = next(
        (found for call in trace.tool_calls if (found := SANDBOX_BROKEN.search(call.result_text or ""))),
        None,
    )
    if said is None:
        return None
    folder = temp_dir_of(environ)
    if not fits(folder):
        room = SOCKET_PATH_MAX - len(LONGEST_SOCKET_NAME)
        return (
            f"claude could not make its sandbox's sockets in TMPDIR {folder} ({len(folder)} characters; "
            f"they fit under {room}), so its shell commands ran unconfined: set TMPDIR to a shorter folder"
        )
    return f"claude's sandbox failed after it started ({said.group(1).strip() or 'no detail'})"
