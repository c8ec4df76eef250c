"""A share of pure CPU work done by a forked child while the caller does something else.

For work that needs the caller's memory as it is (an index built in place, a compiled stemmer that
cannot be pickled): the child inherits it by fork and sends back only its answer, pickled, through a
pipe. Where fork is unavailable, the caller runs threads, or the child fails in any way, the caller
does the share itself, so the answer never depends on the child.
"""

from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable
from typing import Generic, TypeVar

from harness.parse_pool import can_fork

Answer = TypeVar("Answer")


class Forked(Generic[Answer]):
    """`work()` started in a forked child when `start` is true; `answer()` collects it. Use as a context
    manager: leaving early (a failed gate, a cancelled run) ends the child."""

    def __init__(self, work: Callable[[], Answer], start: bool = True) -> None:
        self._work = work
        self._pid: int | None = None
        self._pipe: int | None = None
        if not start or not can_fork():
            return
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return
        if pid == 0:
            run_child(work, read, write)
        os.close(write)
        self._pid, self._pipe = pid, read

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs and is not collected."""
        return self._pid

    def answer(self) -> Answer:
        """The child's answer; the caller's own run of the work when no child ran or it failed."""
        if self._pid is None or self._pipe is None:
            return self._work()
        try:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                data = pipe.read()
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
            if os.waitstatus_to_exitcode(status) == 0:
                return pickle.loads(data)
        except (OSError, EOFError, pickle.UnpicklingError):
            self.close()
        return self._work()

    def close(self) -> None:
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self._pid = None

    def __enter__(self) -> Forked[Answer]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_child(work: Callable[[], object], read: int, write: int) -> None:
    """In the child: do the work, write the pickled answer, and leave without running the caller's exit
    handlers or flushing its buffers (they belong to the parent). Signals are handled as the parent
    handles them: a run that defers Ctrl-C finishes its share, one that stops on it stops here too."""
    code = 1
    try:
        os.close(read)
        data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)
