"""Progress of a paid run on stderr: `[n/N]` with elapsed time and ETA as each case finishes, and a
heartbeat for a case running long.

On a terminal one status line is redrawn in place under the finished cases; in a CI log every line
is plain and printed once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

from harness.context import Context, in_ci
from harness.printable import escaped

HEARTBEAT_S = 30.0  # a case running this long gets a line saying it is still running
CLEAR_LINE = "\r\x1b[K"


def clock_text(seconds: float) -> str:
    """`42s`, `3m05s`, `1h02m`: short enough for a status line."""
    whole = int(max(seconds, 0) + 0.5)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


class Progress:
    """Counts finished cases out of `total`; safe to call from worker threads."""

    def __init__(
        self,
        total: int,
        stream: TextIO,
        *,
        terminal: bool = False,
        heartbeat_s: float = HEARTBEAT_S,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total, self.stream, self.terminal = total, stream, terminal
        self.heartbeat_s, self.clock = heartbeat_s, clock
        self.started_at = clock()
        self.done = 0
        self.running: dict[str, float] = {}  # case id -> when it started
        self._beaten: dict[str, float] = {}  # case id -> when it last had a heartbeat
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- what the runners report ------------------------------------------------------

    def started(self, case_id: str) -> None:
        with self._lock:
            self.running[case_id] = self.clock()
            self._redraw()

    def finished(self, case_id: str, line: str) -> None:
        """Count a case as done and print its line with `[n/N]`, elapsed time and ETA."""
        with self._lock:
            self.running.pop(case_id, None)
            self._beaten.pop(case_id, None)
            self.done += 1
            self._print(f"[{self.done}/{self.total}] {line.strip()}  ({self.timing()})")

    def timing(self) -> str:
        elapsed = self.clock() - self.started_at
        text = f"{clock_text(elapsed)} elapsed"
        if 0 < self.done < self.total:
            text += f", ETA {clock_text(elapsed / self.done * (self.total - self.done))}"
        return text

    # --- heartbeats ---------------------------------------------------------------------

    def beat(self) -> None:
        """Say which cases have been running for a heartbeat interval since they started (or since
        their last heartbeat)."""
        now = self.clock()
        with self._lock:
            for case_id, since in sorted(self.running.items(), key=lambda item: item[1]):
                if now - self._beaten.get(case_id, since) >= self.heartbeat_s:
                    self._beaten[case_id] = now
                    self._print(
                        f"[{self.done}/{self.total}] {case_id} still running ({clock_text(now - since)})"
                    )

    def __enter__(self) -> Progress:
        self._thread = threading.Thread(target=self._beat_until_stopped, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.terminal:
            with self._lock:
                self.stream.write(CLEAR_LINE)
                self.stream.flush()

    def _beat_until_stopped(self) -> None:
        # Checks a few times per interval, so a heartbeat is at most a fraction of it late.
        while not self._stop.wait(max(self.heartbeat_s / 4, 0.01)):
            self.beat()

    # --- output ---------------------------------------------------------------------------

    def _print(self, line: str) -> None:
        if self.terminal:
            self.stream.write(CLEAR_LINE)
        self.stream.write(escaped(line) + "\n")  # case ids and skill names come from the repo
        self._redraw()

    def _redraw(self) -> None:
        if self.terminal:
            names = ", ".join(list(self.running)[:3]) + (" …" if len(self.running) > 3 else "")
            status = f"[{self.done}/{self.total}] {self.timing()}"
            self.stream.write(CLEAR_LINE + escaped(status + (f"; running: {names}" if names else "")))
        self.stream.flush()


def on_stderr(ctx: Context, total: int, heartbeat_s: float = HEARTBEAT_S) -> Progress:
    """Progress on the command's stderr: redrawn in place on a terminal, plain lines in CI logs."""
    isatty = getattr(ctx.stderr, "isatty", None)
    terminal = bool(isatty and isatty()) and not in_ci(ctx.environ)
    return Progress(total, ctx.stderr, terminal=terminal, heartbeat_s=heartbeat_s)
