"""Scripted HTTP servers on loopback addresses (127.0.0.x: each address is a different host), recording
every request and how many were in flight at once, per server and across all of them."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Recorder:
    """Shared by every server of a test, so parallelism across hosts is visible too."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    active: int = 0
    max_active: int = 0

    def enter(self) -> None:
        with self.lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)

    def leave(self) -> None:
        with self.lock:
            self.active -= 1


@dataclass
class Request:
    method: str
    path: str
    user_agent: str


class LinkServer(ThreadingHTTPServer):
    # Closing waits for handler threads (a /slow answer takes 1.5 s): a test must not leave threads
    # behind, since code under test declines to fork a process that has them.
    daemon_threads = False
    block_on_close = True

    def __init__(self, host: str, recorder: Recorder, delay_s: float = 0.0) -> None:
        super().__init__((host, 0), Handler)
        self.recorder = recorder
        self.delay_s = delay_s
        self.requests: list[Request] = []
        self.hits: dict[str, int] = {}
        self.active = 0
        self.max_active = 0
        self.lock = threading.Lock()
        # Set by a test: requests from the `held_from`-th on wait for `release` before answering, so the
        # test acts while a request is in flight, however slowly the machine runs.
        self.held_from: int | None = None
        self.release = threading.Event()

    def url(self, path: str) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}{path}"

    def paths(self, method: str | None = None) -> list[str]:
        return [r.path for r in self.requests if method in (None, r.method)]


class Handler(BaseHTTPRequestHandler):
    """Paths script the answer: /ok, /redirect, /loop, /missing (and below it), /no-head, /rate, /flaky,
    /slow, /gone."""

    server: LinkServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # keep test output quiet
        pass

    def do_HEAD(self) -> None:
        self.answer("HEAD")

    def do_GET(self) -> None:
        self.answer("GET")

    def answer(self, method: str) -> None:
        server = self.server
        with server.lock:
            server.active += 1
            server.max_active = max(server.max_active, server.active)
            server.requests.append(Request(method, self.path, self.headers.get("User-Agent", "")))
            hits = server.hits[self.path] = server.hits.get(self.path, 0) + 1
        server.recorder.enter()
        try:
            if server.held_from is not None and len(server.requests) >= server.held_from:
                server.release.wait(timeout=60)
            if server.delay_s:
                time.sleep(server.delay_s)
            self.respond(method, hits)
        finally:
            server.recorder.leave()
            with server.lock:
                server.active -= 1

    def respond(self, method: str, hits: int) -> None:
        path = self.path
        if path == "/slow":
            time.sleep(1.5)
            self.send(200)
        elif path == "/redirect":
            self.send(301, location="/ok")
        elif path == "/loop":
            self.send(302, location="/loop")
        elif path == "/missing" or path.startswith("/missing/"):
            self.send(404)
        elif path == "/no-head":
            self.send(405 if method == "HEAD" else 200)
        elif path == "/rate":
            self.send(429)
        elif path == "/flaky":
            self.send(503 if hits <= 2 else 200)  # HEAD and GET of the first attempt fail
        elif path == "/down":
            self.send(500)
        else:
            self.send(200)

    def send(self, status: int, location: str | None = None) -> None:
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()


@contextmanager
def serving(*hosts: str, delay_s: float = 0.0) -> Iterator[tuple[list[LinkServer], Recorder]]:
    recorder = Recorder()
    servers = [LinkServer(host, recorder, delay_s) for host in hosts]
    threads = [
        threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True) for s in servers
    ]
    for thread in threads:
        thread.start()
    try:
        yield servers, recorder
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


@contextmanager
def refused_url(host: str = "127.0.0.1") -> Iterator[str]:
    """A URL whose port refuses connections: bound but never listening, and held for the block, so no
    other process (a parallel test's server) can take it meanwhile."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        yield f"http://{host}:{sock.getsockname()[1]}/"


def mapped_names(monkeypatch) -> dict[str, str]:
    """Host names under `.test` resolve only to what the test maps them to, with no DNS traffic: the
    rest fail as on a machine without a resolver. `mapped["a.test"] = "127.0.0.1"` maps one."""
    mapped: dict[str, str] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if isinstance(host, str) and host.endswith(".test"):
            if host not in mapped:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
            host = mapped[host]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return mapped
