"""A child process in its own process group, read line by line, killed as a whole."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.cancel import Cancellation

STDERR_KEEP = 8192  # bytes of stderr kept (the tail is what explains a failure)
KILL_GRACE_S = 2.0  # between SIGTERM and SIGKILL
CANCEL_GRACE_S = 1.0  # the same when the run is cancelled: every group gone within 2 s of the signal
POLL_S = 0.2  # how often a wait for output looks at the cancellation
CAPTURE_KEEP = 1024 * 1024  # bytes of stdout a captured probe keeps
_EOF = b""


class Child:
    """Spawn with stdin fed then closed; iterate stdout lines with a deadline."""

    def __init__(self, argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str], stdin: bytes):
        # A new session makes the CLI and everything it starts one killable group.
        self.proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.pgid = self.proc.pid
        self._lines: queue.Queue[bytes] = queue.Queue(maxsize=256)  # backpressure, bounded
        self._stderr: deque[bytes] = deque()
        self._stderr_bytes = 0
        self._closed = threading.Event()  # set once killed: late lines are dropped
        self._threads = [
            threading.Thread(target=self._feed_stdin, args=(stdin,), daemon=True),
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def next_line(self, timeout: float) -> bytes | None:
        """The next stdout line; `b""` at EOF; None if nothing came within `timeout`."""
        try:
            return self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None

    def wait(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill_group(self, grace_s: float = KILL_GRACE_S) -> int | None:
        """SIGTERM the group, SIGKILL whatever is left after `grace_s`, reap the leader. Idempotent."""
        self._signal(signal.SIGTERM)
        self.wait(grace_s)
        self._signal(signal.SIGKILL)  # also catches children that outlived the leader
        code = self.wait(KILL_GRACE_S)
        self._closed.set()
        for thread in self._threads:
            thread.join(timeout=KILL_GRACE_S)
        return code

    @property
    def stderr_tail(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")[-STDERR_KEEP:]

    # --- threads -------------------------------------------------------------------

    def _feed_stdin(self, data: bytes) -> None:
        # Writing then closing matters: an open stdin pipe makes the CLI wait for more.
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.write(data)
        with contextlib.suppress(OSError):
            self.proc.stdin.close()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            for line in self.proc.stdout:
                self._put(line)
        self._put(_EOF)

    def _put(self, line: bytes) -> None:
        while not self._closed.is_set():
            with contextlib.suppress(queue.Full):
                self._lines.put(line, timeout=0.1)
                return

    def _read_stderr(self) -> None:
        assert self.proc.stderr is not None
        with contextlib.suppress(OSError, ValueError):
            while chunk := self.proc.stderr.read1(4096):
                self._stderr.append(chunk)
                self._stderr_bytes += len(chunk)
                while self._stderr_bytes > STDERR_KEEP and len(self._stderr) > 1:
                    self._stderr_bytes -= len(self._stderr.popleft())

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, sig)


@dataclass(frozen=True)
class Captured:
    code: int | None
    stdout: str
    stderr: str
    stopped: str | None  # "timeout" or "cancelled" when the group was killed before it ended


def capture(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    timeout_s: float,
    cancel: Cancellation | None = None,
) -> Captured:
    """Run `argv` to its end, its timeout or the cancellation, keeping its output; its whole process
    group is killed in every case. Raises OSError when it cannot start."""
    started = time.monotonic()
    child = Child(argv, cwd=None, env=env, stdin=b"")
    kept: list[bytes] = []
    size, stopped = 0, None
    try:
        while True:
            left = timeout_s - (time.monotonic() - started)
            if cancel is not None and cancel.is_set():
                stopped = "cancelled"
                break
            if left <= 0:
                stopped = "timeout"
                break
            line = child.next_line(min(left, POLL_S))
            if line == _EOF:
                break
            if line is not None and size < CAPTURE_KEEP:
                kept.append(line)
                size += len(line)
        if stopped is None:
            child.wait(max(0.0, min(KILL_GRACE_S, timeout_s - (time.monotonic() - started))))
        code = child.proc.returncode
    finally:
        child.kill_group(CANCEL_GRACE_S if stopped else KILL_GRACE_S)
    text = b"".join(kept).decode("utf-8", "replace")
    return Captured(code, text, child.stderr_tail, stopped)
