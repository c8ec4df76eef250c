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


def test_a_signal_inherited_as_ignored_still_cancels_and_is_ignored_again_after() -> None:
    # A background job of a non-interactive shell starts with SIGINT ignored, and Python then never
    # raises KeyboardInterrupt: the handlers must be installed whatever the process found.
    found = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with on_signals(Cancellation()) as cancel:
            os.kill(os.getpid(), signal.SIGINT)
            assert cancel.is_set() and cancel.exit_code == 130
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, found)


def test_a_spared_signal_only_cancels_and_the_next_one_raises() -> None:
    # Waiting for work that stops on its own once cancelled (requests in flight): the second signal
    # gives up on it, wherever the main thread is.
    with on_signals(Cancellation()) as cancel, pytest.raises(Cancelled), cancel.interruptible(spare=1):
        os.kill(os.getpid(), signal.SIGINT)
        assert cancel.is_set() and cancel.signals == 1  # the first only set the cancellation
        os.kill(os.getpid(), signal.SIGTERM)
        raise AssertionError("the second signal did not raise")
    assert cancel.name == "SIGINT" and cancel.exit_code == 130  # the first one names the stop


def test_a_block_entered_after_its_spared_signals_raises_at_once() -> None:
    cancel = Cancellation()
    cancel.cancel(signal.SIGINT)
    with cancel.interruptible(spare=1):
        pass  # one signal is spared
    cancel.cancel(signal.SIGINT)
    with pytest.raises(Cancelled), cancel.interruptible(spare=1):
        raise AssertionError("the work ran")
