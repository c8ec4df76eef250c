"""Process inspection for tests: is anything of a run still alive?"""

from __future__ import annotations

import threading
from pathlib import Path


def group_members(pgid: int) -> list[int]:
    """Live processes in a process group, read from /proc."""
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
    """Live processes whose environment holds `name=value` (a run's children inherit the tag)."""
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
