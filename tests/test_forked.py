"""Forked: a share of pure work in a forked child, whose answer never depends on the child working."""

from __future__ import annotations

import os

import pytest

from harness.forked import Forked


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_answer_is_the_work_done_in_another_process():
    with Forked(lambda: (os.getpid(), sum(range(1000)))) as child:
        pid = child.pid
        worker, total = child.answer()
    assert pid is not None and worker == pid != os.getpid()
    assert total == sum(range(1000))
    assert gone(pid)  # collected, not left a zombie


def test_not_started_the_caller_does_the_work_itself():
    with Forked(lambda: os.getpid(), start=False) as child:
        assert child.pid is None
        assert child.answer() == os.getpid()


def test_a_child_that_fails_leaves_the_caller_to_do_the_work():
    parent = os.getpid()

    def work() -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child breaks")
        return "done by the caller"

    with Forked(work) as child:
        assert child.pid is not None
        assert child.answer() == "done by the caller"


def test_a_child_killed_midway_leaves_the_caller_to_do_the_work():
    parent = os.getpid()

    def work() -> str:
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return "done by the caller"

    with Forked(work) as child:
        assert child.answer() == "done by the caller"


def test_leaving_early_ends_a_child_that_would_never_finish():
    hold, never = os.pipe()  # the child waits on a pipe the parent never writes to
    try:
        with Forked(lambda: os.read(hold, 1)) as child:
            pid = child.pid
        assert pid is not None and gone(pid)
    finally:
        os.close(hold)
        os.close(never)


def test_an_error_in_the_callers_own_work_still_ends_the_child():
    hold, never = os.pipe()
    pid = None
    try:
        with pytest.raises(ValueError), Forked(lambda: os.read(hold, 1)) as child:
            pid = child.pid
            raise ValueError("the gate failed")
        assert pid is not None and gone(pid)
    finally:
        os.close(hold)
        os.close(never)
