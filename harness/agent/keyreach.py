"""Whether the agent's tools could still read the model key that the key relay holds.

The relay keeps the key out of the CLI's environment, files and command line; what is left is the
memory and environment of other processes. skillscope's own process is made non-dumpable, so a
process of the same (non-root) user cannot read its environment or memory. Any other process of
the user whose environment holds the key (the shell or CI step that started skillscope) can still be
read, and root reads everything: each is said up front, never claimed away.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterable
from pathlib import Path

PR_SET_DUMPABLE = 4
PROC = Path("/proc")


def seal_own_memory() -> bool:
    """Make this process non-dumpable: its /proc environ and memory are then the kernel's to guard
    from processes of the same user (a non-root agent's tools among them). False where that fails."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return bool(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def holders(keys: Iterable[str], proc: Path = PROC) -> list[str]:
    """The other processes whose environment holds one of `keys` and that this user can read, as
    `pid (name)`."""
    wanted = [key.encode("utf-8") for key in keys if key]
    found = []
    own = os.getpid()
    for entry in proc.iterdir() if proc.is_dir() else ():
        if not entry.name.isdigit() or int(entry.name) == own:
            continue
        try:
            environ = (entry / "environ").read_bytes()
            name = (entry / "comm").read_text(encoding="utf-8", errors="replace").strip()
        except OSError:
            continue  # gone, or not ours to read
        if any(key in environ for key in wanted):
            found.append(f"{entry.name} ({name})")
    return found


def reach(keys: Iterable[str]) -> str | None:
    """Why the agent's tools could read one of `keys` here, in one clause; None when nothing they
    can reach holds one."""
    keys = list(keys)
    if not sys.platform.startswith("linux"):
        return (
            f"on {sys.platform} skillscope cannot keep processes of the same user from reading "
            "another's environment, so the agent's tools could read the key from skillscope's"
        )
    if not seal_own_memory():
        return "skillscope could not make its own memory unreadable to the agent's tools"
    if os.geteuid() == 0:
        return "the agent's tools run as root, which reads any process's memory, skillscope's included"
    found = holders(keys)
    if found:
        return (
            f"the key is in the environment of process {', '.join(found[:3])} of the same user, "
            "which the agent's tools can read"
        )
    return None
