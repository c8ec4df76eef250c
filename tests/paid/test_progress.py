"""Progress lines: counted, timed, with heartbeats; driven by a clock the test sets, never by waiting."""

from __future__ import annotations

import io
import threading

from harness.context import Context
from harness.paid.progress import CLEAR_LINE, Progress, clock_text, on_stderr


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_each_finished_case_is_counted_with_elapsed_time_and_an_eta():
    clock, out = Clock(), io.StringIO()
    shown = Progress(4, out, clock=clock)
    shown.started("a")
    clock.now += 10
    shown.finished("a", "  [PASS] a: fine ")
    clock.now += 10
    shown.finished("b", "[FAIL] b: not fine")
    assert out.getvalue().splitlines() == [
        "[1/4] [PASS] a: fine  (10s elapsed, ETA 30s)",
        "[2/4] [FAIL] b: not fine  (20s elapsed, ETA 20s)",
    ]


def test_a_case_running_past_the_interval_gets_a_heartbeat_then_one_per_interval():
    clock, out = Clock(), io.StringIO()
    shown = Progress(2, out, clock=clock, heartbeat_s=30)
    shown.started("slow")
    clock.now += 29
    shown.beat()
    assert out.getvalue() == ""
    clock.now += 1
    shown.beat()
    shown.beat()  # no second line within the same interval
    clock.now += 30
    shown.beat()
    assert out.getvalue().splitlines() == [
        "[0/2] slow still running (30s)",
        "[0/2] slow still running (1m00s)",
    ]
    shown.finished("slow", "[PASS] slow: done")
    clock.now += 100
    shown.beat()
    assert out.getvalue().splitlines()[-1].startswith("[1/2] [PASS] slow: done")


def test_the_heartbeat_thread_uses_the_injected_interval():
    class Heard(io.StringIO):
        beat = threading.Event()

        def write(self, text):
            if "still running" in text:
                self.beat.set()
            return super().write(text)

    out = Heard()
    shown = Progress(1, out, heartbeat_s=0.01)
    shown.started("slow")
    with shown:
        assert out.beat.wait(timeout=120)  # a bound for a stuck thread, not a speed expectation
    assert out.getvalue().startswith("[0/1] slow still running (")


def test_a_terminal_gets_one_status_line_redrawn_under_the_finished_cases():
    clock, out = Clock(), io.StringIO()
    shown = Progress(2, out, terminal=True, clock=clock)
    shown.started("a")
    assert out.getvalue() == f"{CLEAR_LINE}[0/2] 0s elapsed; running: a"
    clock.now += 5
    shown.finished("a", "[PASS] a: fine")
    assert out.getvalue().endswith(
        f"{CLEAR_LINE}[1/2] [PASS] a: fine  (5s elapsed, ETA 5s)\n{CLEAR_LINE}[1/2] 5s elapsed, ETA 5s"
    )
    with shown:
        pass
    assert out.getvalue().endswith(CLEAR_LINE)


def test_plain_lines_unless_stderr_is_a_terminal_outside_ci():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert on_stderr(Context(environ={}, stderr=Tty()), 3).terminal
    assert not on_stderr(Context(environ={"CI": "true"}, stderr=Tty()), 3).terminal
    assert on_stderr(Context(environ={"CI": "false"}, stderr=Tty()), 3).terminal
    assert not on_stderr(Context(environ={}, stderr=io.StringIO()), 3).terminal


def test_clock_text_is_short():
    assert [clock_text(s) for s in (0, 42.4, 185, 3720)] == ["0s", "42s", "3m05s", "1h02m"]


UNSAFE_IDS = ["esc-\x1b[31m-red", "bell-\x07", "bidi-\u202eevil", "zero-\u200bwidth"]
RAW = ("\x1b[31m", "\x07", "\u202e", "\u200b")


def test_case_ids_reach_the_terminal_escaped_in_lines_and_in_the_redrawn_status():
    """Ids come from the repo: a dataset must not recolour, ring or reorder the terminal."""
    clock, out = Clock(), io.StringIO()
    shown = Progress(len(UNSAFE_IDS), out, clock=clock, terminal=True)
    for case_id in UNSAFE_IDS:
        shown.started(case_id)
    for case_id in UNSAFE_IDS:
        shown.finished(case_id, f"[PASS] {case_id}: fine")
    text = out.getvalue().replace(CLEAR_LINE, "")
    assert not [raw for raw in RAW if raw in text]
    assert "\\x1b[31m" in text and "\\u202e" in text
