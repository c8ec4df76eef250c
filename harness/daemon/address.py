"""Where this install's daemon listens, known without importing anything heavy.

The socket lives in a folder only this user can open ($XDG_RUNTIME_DIR/skillscope, else
<tmp>/skillscope-<uid>). Its name is a checksum of what the run depends on (harness version and
location, the Python environment, the user cache), so another venv, an upgraded harness or a test's
own cache never reaches this daemon; the daemon also compares the fields themselves.
"""

from __future__ import annotations

import os
import sys
import zlib

import harness

MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes on Linux, 104 on macOS


def key_fields(environ: dict[str, str] | os._Environ) -> list[str]:
    home = environ.get("HOME") or os.path.expanduser("~")
    cache = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return [harness.__version__, os.path.dirname(harness.__file__), sys.prefix, cache]


def folder(environ: dict[str, str] | os._Environ) -> str:
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        return os.path.join(runtime, "skillscope")
    temporary = environ.get("TMPDIR") or "/tmp"  # noqa: S108 - tempfile's own default, without its import
    return os.path.join(temporary, f"skillscope-{os.getuid()}")


def socket_path(environ: dict[str, str] | os._Environ) -> str:
    name = f"{zlib.crc32(chr(0).join(key_fields(environ)).encode('utf-8', 'surrogateescape')):08x}"
    return os.path.join(folder(environ), f"{name}.sock")


def private(path: str) -> bool:
    """True when `path` is a folder of this user that no one else may enter: a socket elsewhere could
    be someone else's listener, and the client sends it the run's environment."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return info.st_uid == os.getuid() and (info.st_mode & 0o077) == 0 and os.path.isdir(path)


def unusable(environ: dict[str, str] | os._Environ) -> str | None:
    """None when a daemon may listen here, else why not (one sentence's clause)."""
    if not hasattr(os, "getuid"):
        return "the daemon needs Unix sockets, which this platform does not offer"
    path = socket_path(environ)
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        return (
            f"its socket path would be {path}, longer than a Unix socket allows; "
            "set XDG_RUNTIME_DIR to a short folder"
        )
    return None
