"""A child process in its own process group, read line by line, killed as a whole.

A process group is not the whole of what a child started: a grandchild that calls setsid() leaves
it and would outlive the kill. Each child's environment carries a tag of its own, which everything
it starts inherits; when the group is killed, the processes still descending from it (read from
/proc, so on Linux) and the ones carrying the tag are killed with it. A process that both clears
its environment and loses its parent before the kill is the one that can still get away.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import signal
import subprocess
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from harness.cancel import Cancellation
from harness.writer import growing

STDERR_KEEP = 8192  # bytes of stderr kept (the tail is what explains a failure)
KILL_GRACE_S = 2.0  # between SIGTERM and SIGKILL
CANCEL_GRACE_S = 1.0  # the same when the run is cancelled: every group gone within 2 s of the signal
POLL_S = 0.2  # how often a wait for output looks at the cancellation
GONE_POLL_S = 0.01  # how often a wait for killed strays looks again
# Once the child itself has exited, silence this long ends its output even without EOF: a detached
# grandchild that inherited stdout keeps the pipe open, and it is no part of the answer.
EXIT_DRAIN_S = 1.0
CAPTURE_KEEP = 1024 * 1024  # bytes of stdout a captured probe keeps
_EOF = b""
# Inherited by every process a child starts, in or out of its group; not named SKILLSCOPE_*, as no
# variable of the harness's own reaches an agent (environment.py).
RUN_TAG = "AGENT_RUN_TAG"
PROC = Path("/proc")


class Child:
    """Spawn with stdin fed then closed; iterate stdout lines with a deadline."""

    def __init__(self, argv: Sequence[str], *, cwd: Path | None, env: Mapping[str, str], stdin: bytes):
        self.tag = uuid.uuid4().hex
        # A new session makes the CLI and everything it starts one killable group.
        self.proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env={**env, RUN_TAG: self.tag},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self.pgid = self.proc.pid
        # Everything the run starts is younger than its leader: older processes need no tag search.
        leader = read_stat(self.pgid)
        self.started = leader[2] if leader is not None else 0
        self._lines: queue.Queue[bytes] = queue.Queue(maxsize=256)  # backpressure, bounded
        self._stderr: deque[bytes] = deque()
        self._stderr_bytes = 0
        self._closed = threading.Event()  # set once killed: late lines are dropped
        self._heard = time.monotonic()  # when the last line was taken
        self._exited_at: float | None = None  # when the leader was first seen gone
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
            line = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        self._heard = time.monotonic()
        return line

    def silent_since_exit(self) -> bool:
        """The child has exited and nothing came for EXIT_DRAIN_S since its last line or its exit:
        its output is over, whoever still holds the pipe."""
        if self.proc.poll() is None:
            return False
        if self._exited_at is None:
            self._exited_at = time.monotonic()
        return time.monotonic() - max(self._heard, self._exited_at) >= EXIT_DRAIN_S

    def wait(self, timeout: float) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill_group(self, grace_s: float = KILL_GRACE_S) -> int | None:
        """SIGTERM the group and whatever of the run left it, SIGKILL what is left after `grace_s`,
        reap the leader. Idempotent."""
        # The leader reaped and its group empty before the search, and the search finding nothing: no
        # process of the run is left to start another, so the table is not read again.
        ended = self.proc.returncode is not None and not self._group_alive()
        strays = self._strays()  # before the leader goes: its children are found through it
        self._signal(signal.SIGTERM)
        signal_each(strays, signal.SIGTERM)
        self.wait(grace_s)
        self._signal(signal.SIGKILL)  # also catches children that outlived the leader
        killed = strays if ended and not strays else strays | self._strays()
        signal_each(killed, signal.SIGKILL)
        code = self.wait(KILL_GRACE_S)
        wait_gone(killed, KILL_GRACE_S)
        self._wait_group_gone(KILL_GRACE_S)
        self._closed.set()
        for thread in self._threads:
            thread.join(timeout=KILL_GRACE_S)
        return code

    def _wait_group_gone(self, timeout_s: float) -> None:
        # Members the group's SIGKILL reached end when the kernel next runs them, as strays do (wait_gone).
        deadline = time.monotonic() + timeout_s
        while self._group_alive() and time.monotonic() < deadline:
            time.sleep(GONE_POLL_S)

    def _group_alive(self) -> bool:
        try:
            os.killpg(self.pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True  # a member that is not ours to signal is still a member
        return True

    def _strays(self) -> set[tuple[int, int]]:
        # Once the leader is reaped its pid may be reused: only the tag still tells the run's processes.
        leader = self.pgid if self.proc.returncode is None else None
        return escaped(self.pgid, self.tag, leader, self.started)

    @property
    def stderr_tail(self) -> str:
        return b"".join(self._stderr).decode("utf-8", "replace")[-STDERR_KEEP:]

    # --- threads -------------------------------------------------------------------

    def _feed_stdin(self, data: bytes) -> None:
        # Writing then closing matters: an open stdin pipe makes the CLI wait for more.
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
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
        # Popen's pipes are buffered (bufsize -1), though its types say only IO[bytes]; read1 takes
        # what is there without waiting for a full chunk.
        assert isinstance(self.proc.stderr, io.BufferedIOBase)
        with contextlib.suppress(OSError, ValueError):
            while chunk := self.proc.stderr.read1(4096):
                self._stderr.append(chunk)
                self._stderr_bytes += len(chunk)
                while self._stderr_bytes > STDERR_KEEP and len(self._stderr) > 1:
                    self._stderr_bytes -= len(self._stderr.popleft())

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, sig)


def escaped(pgid: int, tag: str, leader: int | None = None, since: int = 0) -> set[tuple[int, int]]:
    """The live processes of a run outside its group `pgid`: descendants of `leader` (when still
    running), and any process started at or after `since` (the leader's start time, in the kernel's
    ticks) whose environment carries the run's `tag`. Each as (pid, start time), so a pid the system
    reused meanwhile is never signalled. Empty where there is no /proc."""
    table = process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: set[int] = set()
    stack = [leader] if leader is not None else []
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    wanted = f"{RUN_TAG}={tag}".encode()
    # A shared host runs hundreds of older processes; reading each one's environment twice per agent
    # run cost more than the rest of the search.
    young = [pid for pid, (_, _, started) in table.items() if started >= since and pid not in found]
    found |= {pid for pid in young if wanted in environ_of(pid)}
    return {(pid, table[pid][2]) for pid in found if table[pid][1] != pgid and pid != os.getpid()}


def process_table() -> dict[int, tuple[int, int, int]]:
    """Every live (not zombie) process: pid -> (parent pid, process group, start time)."""
    table = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir(PROC):
            if entry.name.isdigit() and (stat := read_stat(int(entry.name))) is not None:
                table[int(entry.name)] = stat
    return table


def read_stat(pid: int) -> tuple[int, int, int] | None:
    # os.read rather than a Path: the whole table is read once or twice per agent run, on every process.
    try:
        handle = os.open(f"{PROC}/{pid}/stat", os.O_RDONLY)
        try:
            data = os.read(handle, 4096)  # one read: the kernel writes the line whole
        finally:
            os.close(handle)
        fields = data.rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command name: state, ppid, pgrp, ... starttime is the 20th.
    if fields[0] in (b"Z", b"X") or len(fields) < 20:
        return None
    return int(fields[1]), int(fields[2]), int(fields[19])


def environ_of(pid: int) -> list[bytes]:
    try:
        return (PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:  # gone, or another user's
        return []


def signal_each(processes: set[tuple[int, int]], sig: int) -> None:
    """Signal each process that is still the one found (same pid, same start time)."""
    for pid, started in processes:
        stat = read_stat(pid)
        if stat is not None and stat[2] == started:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)


def wait_gone(processes: set[tuple[int, int]], timeout_s: float) -> None:
    """Return once none of `processes` lives (or after `timeout_s`): a killed process ends only when the
    kernel next runs it, which a busy host delays, and the run's folders are removed after the kill."""
    deadline = time.monotonic() + timeout_s
    while processes:
        processes = {
            (pid, started) for pid, started in processes if (read_stat(pid) or (0, 0, -1))[2] == started
        }
        if not processes or time.monotonic() >= deadline:
            return
        time.sleep(GONE_POLL_S)


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
            if line == _EOF or (line is None and child.silent_since_exit()):
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


RESULT_EXIT_GRACE_S = 2.0  # after the CLI's last event, time for it to exit by itself
EOF_EXIT_GRACE_S = 5.0


@dataclass(frozen=True)
class Streamed:
    """How one streamed run of an agent CLI ended."""

    stop_reason: str  # the reason `on_line` gave, "timeout", "cancelled", "completed" (EOF), "killed",
    # or "unreadable" (on_line raised: `unreadable` says what)
    exit_code: int | None
    stderr_tail: str  # secrets blanked
    elapsed_s: float
    unreadable: str | None = None


def stream(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    stdin: bytes,
    timeout_s: float,
    cancel: Cancellation | None,
    keep_log: Path | None,
    redact: Callable[[str], str],
    on_line: Callable[[str], str | None],
    ends_itself: Callable[[str | None], bool],
    on_start: Callable[[int], None] = lambda pgid: None,
) -> Streamed:
    """Run one agent CLI, each stdout line (secrets blanked, and written to `keep_log`) handed to
    `on_line` until it returns a stop reason, the timeout, the cancellation or EOF. After a reason for
    which `ends_itself` holds (None: EOF) the CLI gets a moment to exit by itself; then its whole
    process group is killed, every time. Raises OSError when the CLI cannot start."""
    started = time.monotonic()
    child = Child(argv, cwd=cwd, env=env, stdin=stdin)
    on_start(child.pgid)
    stop_reason: str | None = None
    natural_exit = None
    unreadable: list[str] = []
    try:
        with contextlib.ExitStack() as stack:
            # The kept log grows as the agent runs; its folder was checked against the repo's links
            # before the run (cli.resolve.check_outputs), and no link in it may lead out of it.
            log = stack.enter_context(growing(keep_log, keep_log.parent, private=True)) if keep_log else None
            stop_reason = _pump(child, started + timeout_s, cancel, log, redact, guarded(on_line, unreadable))
        if ends_itself(stop_reason):
            child.wait(RESULT_EXIT_GRACE_S if stop_reason else EOF_EXIT_GRACE_S)
        natural_exit = child.proc.returncode
    finally:
        # Always: no process of the run outlives it, and a cancelled one goes quickly.
        exit_code = child.kill_group(CANCEL_GRACE_S if stop_reason == "cancelled" else KILL_GRACE_S)
    if natural_exit is not None:
        exit_code = natural_exit
    if stop_reason is None:  # EOF: a negative code means a signal we did not send
        stop_reason = "killed" if natural_exit is not None and natural_exit < 0 else "completed"
    elapsed = time.monotonic() - started
    return Streamed(
        stop_reason, exit_code, redact(child.stderr_tail), elapsed, unreadable[0] if unreadable else None
    )


def guarded(on_line: Callable[[str], str | None], failures: list[str]) -> Callable[[str], str | None]:
    """`on_line`, except that a line it cannot take (a reader's bug) stops this run as "unreadable"
    and is noted in `failures`: one case errors, the other cases and the report go on."""

    def take(text: str) -> str | None:
        try:
            return on_line(text)
        except Exception as exc:  # noqa: BLE001 - whatever the reader raised, the run ends here
            failures.append(f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}")
            return "unreadable"

    return take


def _pump(
    child: Child,
    deadline: float,
    cancel: Cancellation | None,
    log: IO[bytes] | None,
    redact: Callable[[str], str],
    on_line: Callable[[str], str | None],
) -> str | None:
    while True:
        if cancel is not None and cancel.is_set():
            return "cancelled"
        line = child.next_line(min(deadline - time.monotonic(), POLL_S))
        if line is None:
            if child.silent_since_exit():
                return None  # as at EOF: a detached grandchild may still hold the pipe open
            if time.monotonic() >= deadline:
                return "timeout"
            continue
        if line == _EOF:
            return None
        text = redact(line.decode("utf-8", "replace"))
        if log is not None:
            log.write(text.encode("utf-8"))
        if reason := on_line(text):
            return reason
