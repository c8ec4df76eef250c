"""Process inspection for tests: is anything of a run still alive?"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

# A process killed with SIGKILL runs on until the kernel next schedules it, which on a loaded host
# can be well after kill() returned: each "is anything left?" reading waits this long for it to go.
SETTLE_S = 30.0


def settled(read: Callable[[], list[int]]) -> list[int]:
    """`read()` once nothing is left, else what is still left after SETTLE_S."""
    deadline = time.monotonic() + SETTLE_S
    while (left := read()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def group_members(pgid: int) -> list[int]:
    """Live processes left in a process group, read from /proc (given time to die: settled)."""
    return settled(lambda: members_now(pgid))


def members_now(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def tagged(name: str, value: str) -> list[int]:
    """Live processes left whose environment holds `name=value` (a run's children inherit the tag),
    given time to die (settled)."""
    return settled(lambda: tagged_now(name, value))


def tagged_now(name: str, value: str) -> list[int]:
    wanted = f"{name}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if wanted in environ and state != "Z":
            found.append(int(entry.name))
    return found


def assert_single_threaded() -> None:
    """The harness forks only a single-threaded process; a thread a fixture left running in this
    worker (a fake API server kept for the session) would make a fork test pass on the fallback."""
    others = [thread.name for thread in threading.enumerate() if thread is not threading.main_thread()]
    assert not others, f"threads left running in this test process by an earlier fixture: {others}"
