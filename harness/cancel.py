"""Stopping a paid run early. CI cancels a job with SIGINT, then SIGTERM: either sets the command's
one Cancellation, which its runners and every agent run watch. The signal handler only sets it;
nothing else about cancelling is global.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

CANCEL_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Cancellation:
    """Set once, by the first signal; `signum` remembers which, for the report and the exit code."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.signum: int | None = None

    def cancel(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)

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

    previous = {sig: signal.signal(sig, handler) for sig in CANCEL_SIGNALS}
    try:
        yield cancel
    finally:
        for sig, found in previous.items():
            signal.signal(sig, found)
