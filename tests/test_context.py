"""harness/context.py: what a command may touch of the outside world."""

from __future__ import annotations

import io
import os
import struct

import pytest

from harness.context import Context


@pytest.mark.parametrize(
    ("value", "columns"), [("100", 100), (" 72 ", 72), ("0", 80), ("wide", 80), ("", 80)]
)
def test_the_width_is_columns_when_it_is_a_positive_number_else_80_off_a_terminal(value: str, columns: int):
    assert Context(environ={"COLUMNS": value}, stdout=io.StringIO()).columns == columns


def test_the_width_is_the_terminals_that_stdout_writes_to():
    fcntl = pytest.importorskip("fcntl")
    termios = pytest.importorskip("termios")
    main, side = os.openpty()
    try:
        fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 132, 0, 0))
        with open(side, "w", closefd=False) as stream:
            assert Context(environ={}, stdout=stream).columns == 132
            assert Context(environ={"COLUMNS": "90"}, stdout=stream).columns == 90
    finally:
        os.close(main)
        os.close(side)
