"""Stopping a run early: a paid run, or a link check's fetching. CI cancels a job with SIGINT, then
SIGTERM, and Ctrl-C sends SIGINT: either sets the command's one Cancellation, which its runners, every
agent run and every host's chain of requests watch. The signal handler sets it, and raises
Cancelled only inside `interruptible()`; nothing else about cancelling is global.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

CANCEL_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Cancelled(BaseException):
    """A cancelling signal arrived inside `Cancellation.interruptible()`. A BaseException, so no
    `except Exception` on the way out mistakes it for the failure of one step."""


class Cancellation:
    """Set once, by the first signal; `signum` remembers which, for the report and the exit code."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.signum: int | None = None
        self.signals = 0  # how many cancelling signals came: a second one says "stop waiting"
        self._spared: int | None = None  # in interruptible(): the signals it lets by before raising

    def cancel(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        self.signals += 1
        self._event.set()

    @property
    def interrupting(self) -> bool:
        """The main thread is in `interruptible()`: a signal past those it spares raises Cancelled."""
        return self._spared is not None

    def raises(self) -> bool:
        """Whether the signal just counted must end the main thread's work where it is."""
        return self._spared is not None and self.signals > self._spared

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)

    @contextlib.contextmanager
    def interruptible(self, spare: int = 0) -> Iterator[None]:
        """Work on the main thread that watches no cancellation itself (digesting, copying a skill's
        files): inside, a cancelling signal raises Cancelled wherever it finds the thread. A system call
        blocked in a read (a hung mount) is retried after a handler that returns, so only an exception
        ends it. `spare` signals in all only set the cancellation: with 1, the main thread waits for work
        that stops on its own once cancelled, and a second signal gives up on it. Past them already:
        Cancelled at once. Elsewhere than the main thread, which alone receives signals, the block runs
        as it is."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        # Armed before the count is read: a signal between the two raises, and none goes unseen.
        outer, self._spared = self._spared, spare
        try:
            if self.signals > spare:
                raise Cancelled()
            yield
        finally:
            self._spared = outer

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
    """Inside the block, SIGINT and SIGTERM set `cancel` instead of ending the process, whatever the
    process found: a background job of a non-interactive shell starts with SIGINT ignored, and Python
    then never raises KeyboardInterrupt, so nothing may rely on it. Only the main thread can install
    handlers; elsewhere (a test driving a command from a thread) the block runs with the handlers it
    found."""
    if threading.current_thread() is not threading.main_thread():
        yield cancel
        return

    def handler(signum: int, _frame: object) -> None:
        cancel.cancel(signum)
        if cancel.raises():
            raise Cancelled()

    previous = {sig: signal.signal(sig, handler) for sig in CANCEL_SIGNALS}
    try:
        yield cancel
    finally:
        for sig, found in previous.items():
            signal.signal(sig, found)


def while_sending(sending: bool, work: Callable[[Cancellation | None], int]) -> int:
    """`work(cancel)` of a link check. When it sends requests, SIGINT or SIGTERM, inherited as ignored or
    not, stops the sending and its report is still written; offline and bounded (None), a signal ends it
    as it ends any such command."""
    if not sending:
        return work(None)
    with on_signals(Cancellation()) as cancel:
        return work(cancel)
