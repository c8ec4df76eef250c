"""Hand a run to this install's daemon when one is listening; otherwise the caller runs it itself.

Costs one stat when no daemon runs. The daemon answers with the run's output as it is written, and
its exit code; it may refuse a run (a command it does not serve, a run that reads stdin, code changed
since it started), and then the caller runs it in-process as if no daemon were there. So does a
caller whose run the daemon has not admitted within $SKILLSCOPE_DAEMON_WAIT seconds (default 5): a
daemon busy with a long run, or stopping, costs that wait at most, never the run.
"""

from __future__ import annotations

import os
import sys

from harness.daemon import address, wire

NOT_SERVED = None
DEFAULT_WAIT_S = 5.0
HELP = frozenset({"-h", "--help"})  # argparse's help is laid out for the caller's own terminal


def relay(words: list[str]) -> int | None:
    """The run's exit code from the daemon, or None: run it in-process."""
    if not hasattr(os, "getuid") or HELP.intersection(words):
        return NOT_SERVED
    path = address.socket_path(os.environ)
    if not os.path.exists(path):
        return NOT_SERVED
    sock = connect(path)
    if sock is None:
        return NOT_SERVED
    umask = os.umask(0o022)
    os.umask(umask)
    request = {
        "argv": words,
        "cwd": os.getcwd(),
        "environ": environment(),
        "key": address.key_fields(os.environ),
        "tty": [bool(stream and stream.isatty()) for stream in (sys.stdin, sys.stdout, sys.stderr)],
        "umask": umask,
    }
    try:
        sock.settimeout(patience())
        return answer(sock, request)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    finally:
        sock.close()


def environment() -> dict[str, str]:
    """Ours, with the terminal's size where a terminal has one (argparse and tables lay out to it)."""
    environ = dict(os.environ)
    if "COLUMNS" not in environ:
        for stream in (sys.stdout, sys.stderr):
            try:
                size = os.get_terminal_size(stream.fileno())
            except (AttributeError, ValueError, OSError):
                continue
            environ["COLUMNS"], environ["LINES"] = str(size.columns), str(size.lines)
            break
    return environ


def patience() -> float:
    try:
        wait = float(os.environ.get("SKILLSCOPE_DAEMON_WAIT", DEFAULT_WAIT_S))
    except ValueError:
        wait = DEFAULT_WAIT_S
    return wait if wait > 0 else DEFAULT_WAIT_S


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


def answers(path: str) -> bool:
    """Whether a daemon of ours accepts connections at `path` (a busy one does: the kernel queues them)."""
    sock = connect(path) if os.path.exists(path) else None
    if sock is None:
        return False
    sock.close()
    return True


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


def answer(sock, request: dict) -> int | None:
    """Send the request and copy the daemon's output to ours until its exit frame. Until the daemon
    admits the run and hears go, nothing has run: a wait past our patience, a refusal or a dropped
    connection leaves the run to us."""
    import json

    admitted = spoke = False
    try:
        sock.sendall(wire.json_frame(wire.REQUEST, request))
        while True:
            received = wire.read_frame(sock)
            if received is None:
                return mid_run("it closed the connection") if admitted or spoke else NOT_SERVED
            channel, payload = received
            if channel == wire.EXIT:
                return json.loads(payload).get("code", NOT_SERVED)
            sock.settimeout(None)  # from here the run is ours to wait for, however long it takes
            if channel == wire.ADMITTED:
                sock.sendall(wire.frame(wire.GO, b""))
                admitted = True
                continue
            spoke = True
            if not write(sys.stdout if channel == wire.STDOUT else sys.stderr, payload):
                return 141
    except OSError as exc:  # our patience ran out, or a daemon that stopped reset its queue
        if admitted or spoke:
            return mid_run(f"the connection failed ({exc.strerror or exc})")
        return NOT_SERVED


def write(stream, payload: bytes) -> bool:
    """False when whoever read our output has left (`skillscope ... | head`): end quietly, as a run
    in-process does."""
    try:
        stream.flush()
        stream.buffer.write(payload)
        stream.buffer.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())  # the interpreter's last flush must not fail on the pipe
        return False
    return True


def mid_run(why: str) -> int:
    sys.stderr.write(
        f"error: the skillscope daemon stopped before the run ended ({why}); run the command again "
        "(with no daemon listening it runs in-process), and `skillscope daemon start` to start another.\n"
    )
    return 3
