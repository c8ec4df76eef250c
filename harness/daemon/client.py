"""Hand a run to this install's daemon when one is listening; otherwise the caller runs it itself.

Costs one stat when no daemon runs. The daemon answers with the run's output as it is written, and
its exit code; it may refuse a run (a command it does not serve, or code changed since it started),
and then the caller runs it in-process as if no daemon were there.
"""

from __future__ import annotations

import os
import sys

from harness.daemon import address, wire

NOT_SERVED = None


def relay(words: list[str]) -> int | None:
    """The run's exit code from the daemon, or None: run it in-process."""
    if not hasattr(os, "getuid"):
        return NOT_SERVED
    path = address.socket_path(os.environ)
    if not os.path.exists(path):
        return NOT_SERVED
    sock = connect(path)
    if sock is None:
        return NOT_SERVED
    request = {
        "argv": words,
        "cwd": os.getcwd(),
        "environ": dict(os.environ),
        "key": address.key_fields(os.environ),
        "tty": [bool(stream and stream.isatty()) for stream in (sys.stdin, sys.stdout, sys.stderr)],
    }
    try:
        sock.sendall(wire.json_frame(wire.REQUEST, request))
        return answer(sock)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except OSError as exc:
        return mid_run(f"the connection failed ({exc.strerror or exc})")
    finally:
        sock.close()


def ask(path: str, control: str) -> dict | None:
    """The daemon's status, after `control` ("status", or "stop"), or None when none answers."""
    import json

    sock = connect(path)
    if sock is None:
        return None
    try:
        sock.sendall(wire.json_frame(wire.REQUEST, {"control": control}))
        received = wire.read_frame(sock)
    except OSError:
        return None
    finally:
        sock.close()
    if received is None or received[0] != wire.EXIT:
        return None
    return json.loads(received[1]).get("status")


def connect(path: str):
    """A connected socket, or None when nothing of ours listens there (a daemon that died leaves its
    file; a folder others may write to could hold anyone's)."""
    if not address.private(os.path.dirname(path)):
        return None
    # The C module itself: importing `socket` builds an enum of every constant, a tenth of the start-up
    # this relay exists to save. Its socket has all the relay uses, and closes when collected.
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(path)
        if same_user(sock, _socket):
            return sock
    except OSError:
        pass
    sock.close()
    return None


def same_user(sock, module) -> bool:
    """On Linux, the listener's uid as the kernel reports it; the private folder covers the rest."""
    if not hasattr(module, "SO_PEERCRED"):
        return True
    credentials = sock.getsockopt(module.SOL_SOCKET, module.SO_PEERCRED, 12)
    return int.from_bytes(credentials[4:8], sys.byteorder) == os.getuid()


def answer(sock) -> int | None:
    """Copy the daemon's output to ours until its exit frame."""
    import json

    spoke = False
    while True:
        received = wire.read_frame(sock)
        if received is None:
            return mid_run("it closed the connection") if spoke else NOT_SERVED
        channel, payload = received
        if channel == wire.EXIT:
            ending = json.loads(payload)
            return ending.get("code", NOT_SERVED)
        if channel == wire.STDIN:  # the command reads stdin: send all of it
            sock.sendall(wire.frame(wire.STDIN, sys.stdin.buffer.read() if sys.stdin else b""))
            continue
        stream = sys.stdout if channel == wire.STDOUT else sys.stderr
        stream.flush()
        stream.buffer.write(payload)
        stream.buffer.flush()
        spoke = True


def mid_run(why: str) -> int:
    sys.stderr.write(
        f"error: the skillscope daemon stopped before the run ended ({why}); run the command again "
        "(with no daemon listening it runs in-process), and `skillscope daemon start` to start another.\n"
    )
    return 3
