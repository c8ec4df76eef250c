"""The daemon: one process that keeps the harness imported and runs each client's command in turn.

A run sees what it would see as a process of its own: the client's arguments, folder, environment
and umask (the process's own are set to them for the run, since libraries read them too) and its
terminals (for colour). Only runs bounded by the repo they read are served (structural, refs, select,
list-skills, lexical routing, show), and not one that reads stdin: the client runs any other itself.
A run starts only once its client confirms it still waits (a client tired of waiting for a busy daemon
runs the command itself, and must not find it run twice). Runs are served one at a time: they take a
fraction of a second, and a run may fork workers, which a threaded process must not do.
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

# A client sends its request, and its go-ahead once the run is admitted, as soon as it can; one that
# does not must not hold up the others. A client that stops reading the output for this long is
# taken as gone (its output is dropped; the run ends as a process whose terminal closed would).
REQUEST_WAIT_S = 10.0
STALLED_S = 60.0


class StdinWanted(BaseException):
    """The run reads stdin: it is the caller's to run (BaseException, so that no handler of the run's
    own takes it for a failure of the run)."""


class Outbox:
    """A run's output on its way to the client, held until the run is admitted and its client said go
    (a refused run is run again by the client, which must not see its output twice)."""

    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn
        self.held: list[bytes] | None = []
        self.gone = False
        self.sent = False

    def send(self, data: bytes) -> None:
        if self.held is not None:
            self.held.append(data)
        elif not self.gone:
            try:
                self.conn.sendall(data)
                self.sent = True
            except OSError:
                self.gone = True

    def admit(self, bounded: bool) -> bool:
        """Admitted runs start once the client confirms it still waits for this one."""
        if not bounded:
            return False
        try:
            self.conn.sendall(wire.frame(wire.ADMITTED, b""))
            received = wire.read_frame(self.conn)
        except OSError:
            return False
        if received is None or received[0] != wire.GO:
            return False
        self.conn.settimeout(STALLED_S)
        self.release()
        return True

    def release(self) -> None:
        held, self.held = self.held or [], None
        if held:
            self.send(b"".join(held))

    def end(self, ending: dict) -> None:
        """The exit frame; after a refusal, without the output held for the run that did not happen."""
        if "refused" in ending:
            self.held = None
        self.release()
        self.send(wire.json_frame(wire.EXIT, ending))


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
    """stdin of a run: reading it hands the run back to its client, which has the real one."""

    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def read(self, size: int | None = -1) -> str:
        raise StdinWanted

    def readline(self, size: int | None = -1) -> str:
        raise StdinWanted


@contextlib.contextmanager
def process_as(environ: dict[str, str], cwd: str, umask: int) -> Iterator[None]:
    """The process's environment, folder and umask as the client's for one run, then the daemon's.
    The daemon's own folder is the root, which cannot disappear under it."""
    saved_environ = dict(os.environ)
    saved_umask = os.umask(umask)
    try:
        os.environ.clear()
        os.environ.update(environ)
        time.tzset()  # local times (a report's file name) in the client's zone
        os.chdir(cwd)
        yield
    finally:
        os.chdir("/")
        os.environ.clear()
        os.environ.update(saved_environ)
        time.tzset()
        os.umask(saved_umask)


def well_formed(request: object) -> bool:
    """A run request as the client sends it, field by field (anything else is refused unread)."""
    if not isinstance(request, dict):
        return False
    argv, environ, tty = request.get("argv"), request.get("environ"), request.get("tty")
    return (
        isinstance(argv, list)
        and all(isinstance(word, str) for word in argv)
        and isinstance(request.get("cwd"), str)
        and isinstance(environ, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in environ.items())
        and isinstance(tty, list)
        and len(tty) == 3
        and all(isinstance(flag, bool) for flag in tty)
        and isinstance(request.get("umask"), int)
        and 0 <= request["umask"] <= 0o777
    )


class CodeWatch:
    """The files of the harness modules loaded so far and the folders packages install into: an edited
    checkout or a pip install makes the daemon step aside rather than serve runs of the old code. A
    module not loaded yet is read fresh when a run first imports it."""

    def __init__(self) -> None:
        self.package = os.path.dirname(cli.__file__) + os.sep
        self.stamps: dict[str, int] = {}
        self.note()
        for folder, _, files in os.walk(self.package):  # schemas and data, read and kept by the runs
            for name in files:
                if not name.endswith((".py", ".pyc")):
                    self.stamps[os.path.join(folder, name)] = modified(os.path.join(folder, name))
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
        self.started = self.last_run = time.time()
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
        """Answer clients until stopped, idle for idle_s since the last run (status requests and
        refusals do not count), or the code changed; `listening` is told once the socket accepts."""
        os.chdir("/")
        listener, inode = bind(self.path)
        try:
            listening(self.status())
            while not self.stopping:
                left = self.idle_s - (time.time() - self.last_run)
                if left <= 0:
                    break
                listener.settimeout(left)
                try:
                    conn, _ = listener.accept()
                except TimeoutError:
                    continue
                with conn:
                    self.answer(conn)
        finally:
            unbind(self.path, listener, inode)

    def answer(self, conn: socket.socket) -> None:
        conn.settimeout(REQUEST_WAIT_S)
        try:
            self.handle(conn)
        except (ValueError, OSError) as exc:  # a request not of ours, or a client gone: log it, go on
            self.log(f"ignored a request it could not read ({type(exc).__name__}: {exc})")

    def handle(self, conn: socket.socket) -> None:
        received = wire.read_frame(conn)
        if received is None or received[0] != wire.REQUEST:
            return
        request = json.loads(received[1].decode("utf-8", "surrogateescape"))
        control = request.get("control") if isinstance(request, dict) else None
        if control in ("status", "stop"):
            self.stopping = self.stopping or control == "stop"
            conn.sendall(wire.json_frame(wire.EXIT, {"code": 0, "status": self.status()}))
        elif not well_formed(request) or request.get("key") != self.fields:
            conn.sendall(wire.json_frame(wire.EXIT, {"refused": "not a request of this install"}))
        elif self.code.changed():
            self.stopping = True
            conn.sendall(wire.json_frame(wire.EXIT, {"refused": "the harness changed since it started"}))
        elif not os.path.isdir(request["cwd"]):  # the client runs it, and says so itself
            conn.sendall(wire.json_frame(wire.EXIT, {"refused": "the client's folder is gone"}))
        else:
            self.run(conn, request)
            self.code.note()

    def run(self, conn: socket.socket, request: dict) -> None:
        outbox = Outbox(conn)
        stdin_tty, stdout_tty, stderr_tty = request["tty"]
        ctx = Context(
            environ=dict(request["environ"]),
            cwd=Path(request["cwd"]),
            stdin=RelayInput(stdin_tty),
            stdout=RelayOutput(outbox, wire.STDOUT, stdout_tty),
            stderr=RelayOutput(outbox, wire.STDERR, stderr_tty),
        )
        try:
            with process_as(request["environ"], request["cwd"], request["umask"]):
                code = cli.main(request["argv"], ctx, admit=outbox.admit)
        except StdinWanted:
            code = cli.NOT_ADMITTED if not outbox.sent else self.stdin_too_late(ctx)
        if code == cli.NOT_ADMITTED:
            outbox.end({"refused": "not a run the daemon serves"})
            return
        self.served += 1
        self.last_run = time.time()
        outbox.end({"code": code})

    def stdin_too_late(self, ctx: Context) -> int:
        """A run that read stdin after it had written something cannot be handed back unseen."""
        ctx.err("error: this run read stdin after it had begun to answer; run it with no daemon running.")
        return 3


class Taken(Exception):
    """Another daemon answers at the path."""


def bind(path: str) -> tuple[socket.socket, int]:
    """A listening socket at `path` and its file's inode; a file left by a daemon that died is
    replaced, a live one is not. Under a lock, so that two starts cannot each replace the other's."""
    import fcntl

    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
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
        return listener, os.stat(path).st_ino


def unbind(path: str, listener: socket.socket, inode: int) -> None:
    """Remove the socket file if it is still ours (a newer daemon may have replaced it)."""
    with contextlib.suppress(OSError):
        if os.stat(path).st_ino == inode:
            os.unlink(path)
    listener.close()
