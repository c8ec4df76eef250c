"""harness.cancel: a cancelling signal sets the Cancellation; inside `interruptible()` it also ends
the main thread's work where it is, even a system call that would block forever."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from harness.cancel import Cancellation, Cancelled, on_signals


def test_a_signal_inside_interruptible_ends_a_blocked_read(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # an open for reading blocks until a writer comes, and none does

    # The signal comes from another thread once the main thread is inside: no sleep decides it.
    def send_when_inside(cancel: Cancellation) -> None:
        while not cancel.interrupting:
            threading.Event().wait(0.01)
        os.kill(os.getpid(), signal.SIGTERM)

    with on_signals(Cancellation()) as cancel:
        threading.Thread(target=send_when_inside, args=(cancel,), daemon=True).start()
        with pytest.raises(Cancelled), cancel.interruptible():
            os.open(pipe, os.O_RDONLY)
    assert cancel.is_set() and cancel.exit_code == 143 and not cancel.interrupting


def test_outside_interruptible_a_signal_only_sets_the_cancellation() -> None:
    with on_signals(Cancellation()) as cancel:
        os.kill(os.getpid(), signal.SIGINT)
        assert cancel.is_set() and cancel.name == "SIGINT"  # and the test goes on


def test_a_cancelled_run_does_not_start_interruptible_work() -> None:
    cancel = Cancellation()
    cancel.cancel(signal.SIGINT)
    with pytest.raises(Cancelled), cancel.interruptible():
        raise AssertionError("the work ran")
