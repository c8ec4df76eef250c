"""The daemon: one process that keeps the harness imported and runs each client's command in turn.

A run sees what it would see as a process of its own: the client's arguments, folder and environment
(the process's own are set to them for the run, since libraries read them too), its terminals (for
colour), and its stdin if the command reads it. Only runs bounded by the repo they read are served
(structural, refs, select, list-skills, lexical routing, show); the client runs any other itself.
Runs are served one at a time: they take a fraction of a second, and a run may fork workers, which a
threaded process must not do.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from harness import cli
from harness.context import Context
from harness.daemon import wire

# A client sends its request as soon as it connects; one that does not must not hold up the others.
REQUEST_WAIT_S = 10.0


class Outbox:
    """A run's output on its way to the client, held until the run is admitted (a refused run is
    run again by the client, which must not see its output twice). A client that left stops nothing:
    the run ends and writes its report, as a process whose terminal closed would."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.held: list[bytes] | None = []
        self.gone = False

    def send(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(data)
        elif not self.gone:
            try:
                self.conn.sendall(data)
            except OSError:
                self.gone = True

    def admit(self, bounded: bool) -> bool:
        if bounded:
            self.release()
        return bounded

    def release(self) -> None:
        held, self.held = self.held or [], None
        self.send(b"".join(held))

    def fetch_stdin(self) -> str:
        self.release()  # the request must follow what was written before it
        if self.gone:
            return ""
        self.send(wire.frame(wire.STDIN, b""))
        received = wire.read_frame(self.conn)
        if received is None:
            self.gone = True
            return ""
        return received[1].decode("utf-8", "surrogateescape")


class RelayOutput(io.TextIOBase):
    """stdout or stderr of a run, sent as frames; a terminal if the client's is."""

    def __init__(self, outbox: Outbox, channel: bytes, tty: bool) -> None:
        self.outbox, self.channel, self.tty = outbox, channel, tty

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            self.outbox.send(wire.frame(self.channel, text.encode("utf-8", "surrogateescape")))
        return len(text)

    def isatty(self) -> bool:
        return self.tty


class RelayInput(io.TextIOBase):
    """stdin of a run, asked of the client on first read only: most commands never read it."""

    def __init__(self, outbox: Outbox, tty: bool) -> None:
        self.outbox, self.tty, self.text = outbox, tty, None

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def loaded(self) -> io.StringIO:
        if self.text is None:
            self.text = io.StringIO(self.outbox.fetch_stdin())
        return self.text

    def read(self, size: int | None = -1) -> str:
        return self.loaded().read(size)

    def readline(self, size: int | None = -1) -> str:
        return self.loaded().readline(size)


@contextlib.contextmanager
def process_as(environ: dict[str, str], cwd: str) -> Iterator[None]:
    """The process's environment and folder as the client's for one run, then as they were."""
    saved_environ, saved_cwd = dict(os.environ), os.getcwd()
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_environ)
        os.chdir(saved_cwd)


class CodeWatch:
    """The files of the harness modules loaded so far and the folders packages install into: an edited
    checkout or a pip install makes the daemon step aside rather than serve runs of the old code. A
    module not loaded yet is read fresh when a run first imports it."""

    def __init__(self) -> None:
        self.package = os.path.dirname(cli.__file__) + os.sep
        self.stamps: dict[str, int] = {}
        self.note()
        for folder in sys.path:  # an install adds or removes entries there, which moves the folder's time
            if os.path.basename(folder) in ("site-packages", "dist-packages"):
                self.stamps[folder] = modified(folder)

    def note(self) -> None:
        """Watch the harness modules loaded since (a run imports what its command needs)."""
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if isinstance(path, str) and path.startswith(self.package) and path not in self.stamps:
                self.stamps[path] = modified(path)

    def changed(self) -> bool:
        return any(modified(path) != stamp for path, stamp in self.stamps.items())


def cpu_seconds() -> float:
    """The daemon's CPU so far, with its reaped children's (the workers a large catalog's parse forks)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def modified(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


class Daemon:
    def __init__(self, path: str, fields: list[str], idle_s: float, log: Callable[[str], None]) -> None:
        self.path, self.fields, self.idle_s, self.log = path, fields, idle_s, log
        self.code = CodeWatch()
        self.started = time.time()
        self.served = 0
        self.stopping = False

    def status(self) -> dict:
        return {
            "pid": os.getpid(),
            "version": self.fields[0],
            "socket": self.path,
            "started": self.started,
            "runs": self.served,
            "idle_s": self.idle_s,
            "cpu_s": cpu_seconds(),
        }

    def serve(self, listening: Callable[[dict], None]) -> None:
        """Answer clients until stopped, idle for idle_s, or the code changed; `listening` is told once
        the socket accepts."""
        listener = bind(self.path)
        inode = os.stat(self.path).st_ino
        try:
            listener.settimeout(self.idle_s)
            listening(self.status())
            while not self.stopping:
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    break
                with conn:
                    self.answer(conn)
        finally:
            unbind(self.path, listener, inode)

    def answer(self, conn: socket.socket) -> None:
        conn.settimeout(REQUEST_WAIT_S)
        try:
            self.handle(conn)
        except (ValueError, KeyError, TypeError, AttributeError, OSError) as exc:  # not ours: log, go on
            self.log(f"ignored a request it could not read ({type(exc).__name__}: {exc})")

    def handle(self, conn: socket.socket) -> None:
        received = wire.read_frame(conn)
        if received is None or received[0] != wire.REQUEST:
            return
        request = json.loads(received[1].decode("utf-8", "surrogateescape"))
        conn.settimeout(None)  # a run may wait as long as its client takes to send stdin
        if request.get("control") == "status":
            conn.sendall(wire.json_frame(wire.EXIT, {"code": 0, "status": self.status()}))
        elif request.get("control") == "stop":
            self.stopping = True
            conn.sendall(wire.json_frame(wire.EXIT, {"code": 0, "status": self.status()}))
        elif request.get("key") != self.fields:
            conn.sendall(wire.json_frame(wire.EXIT, {"refused": "another install or user cache"}))
        elif self.code.changed():
            self.stopping = True
            conn.sendall(wire.json_frame(wire.EXIT, {"refused": "the harness changed since it started"}))
        else:
            self.run(conn, request)
            self.code.note()

    def run(self, conn: socket.socket, request: dict) -> None:
        outbox = Outbox(conn)
        stdin_tty, stdout_tty, stderr_tty = request["tty"]
        ctx = Context(
            environ=dict(request["environ"]),
            cwd=Path(request["cwd"]),
            stdin=RelayInput(outbox, stdin_tty),
            stdout=RelayOutput(outbox, wire.STDOUT, stdout_tty),
            stderr=RelayOutput(outbox, wire.STDERR, stderr_tty),
        )
        try:
            with process_as(request["environ"], request["cwd"]):
                code = cli.main(request["argv"], ctx, admit=outbox.admit)
        except OSError:  # the client's folder is gone: the client runs the command and says so itself
            code = cli.NOT_ADMITTED
        if code == cli.NOT_ADMITTED:
            ending = {"refused": "not a run the daemon serves"}
        else:
            self.served += 1
            outbox.release()
            ending = {"code": code}
        outbox.send(wire.json_frame(wire.EXIT, ending))


class Taken(Exception):
    """Another daemon answers at the path."""


def bind(path: str) -> socket.socket:
    """A listening socket at `path`; a file left by a daemon that died is replaced, a live one is not."""
    if os.path.exists(path):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
            except OSError:
                os.unlink(path)
            else:
                raise Taken(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    return listener


def unbind(path: str, listener: socket.socket, inode: int) -> None:
    """Remove the socket file if it is still ours (a newer daemon may have replaced it)."""
    with contextlib.suppress(OSError):
        if os.stat(path).st_ino == inode:
            os.unlink(path)
    listener.close()
