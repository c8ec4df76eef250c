"""Stopping a paid run early. CI cancels a job with SIGINT, then SIGTERM: either sets the command's
one Cancellation, which its runners and every agent run watch. The signal handler sets it, and raises
Cancelled only inside `interruptible()`; nothing else about cancelling is global.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

CANCEL_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Cancelled(BaseException):
    """A cancelling signal arrived inside `Cancellation.interruptible()`. A BaseException, so no
    `except Exception` on the way out mistakes it for the failure of one step."""


class Cancellation:
    """Set once, by the first signal; `signum` remembers which, for the report and the exit code."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.signum: int | None = None
        self.interrupting = False  # the main thread is in interruptible(): the handler raises

    def cancel(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)

    @contextlib.contextmanager
    def interruptible(self) -> Iterator[None]:
        """Work on the main thread that watches no cancellation itself (digesting, copying a skill's
        files): inside, a cancelling signal raises Cancelled wherever it finds the thread. A system call
        blocked in a read (a hung mount) is retried after a handler that returns, so only an exception
        ends it. Already cancelled: Cancelled at once. Elsewhere than the main thread, which alone
        receives signals, the block runs as it is."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        if self.is_set():
            raise Cancelled()
        outer, self.interrupting = self.interrupting, True
        try:
            yield
        finally:
            self.interrupting = outer

    @property
    def name(self) -> str | None:
        """`SIGINT`, `SIGTERM`, or None while not cancelled."""
        return None if self.signum is None else signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        """130 after SIGINT, 143 after SIGTERM: what a shell reports for a process they ended."""
        return 128 + (self.signum or signal.SIGINT)


@contextlib.contextmanager
def on_signals(cancel: Cancellation) -> Iterator[Cancellation]:
    """Inside the block, SIGINT and SIGTERM set `cancel` instead of ending the process. Only the
    main thread can install handlers; elsewhere (a test driving a command from a thread) the
    block runs with the handlers it found."""
    if threading.current_thread() is not threading.main_thread():
        yield cancel
        return

    def handler(signum: int, _frame: object) -> None:
        cancel.cancel(signum)
        if cancel.interrupting:
            raise Cancelled()

    previous = {sig: signal.signal(sig, handler) for sig in CANCEL_SIGNALS}
    try:
        yield cancel
    finally:
        for sig, found in previous.items():
            signal.signal(sig, found)
