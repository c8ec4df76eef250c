"""The tripwire's egress log: a loopback proxy the agent's tools are pointed at (HTTP(S)_PROXY,
ALL_PROXY) that records every connection attempt and forwards none.

A plain-HTTP request arrives whole (its URL, headers and body are kept); an HTTPS one arrives as a
CONNECT naming only its host and port, which is refused before any TLS, so its body is never seen.
Every attempt is answered 403: nothing leaves the machine through it.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from harness.agent.loopback import LOOPBACK, serving

BODY_KEEP = 64 * 1024  # bytes of a request body kept for the marker search
REFUSAL = b"refused by skillscope's tripwire: this run has no network\n"


@dataclass(frozen=True)
class Attempt:
    """One connection the agent's tools tried through the proxy."""

    method: str  # CONNECT for HTTPS
    host: str
    port: int | None
    target: str  # the URL asked for, or host:port for a CONNECT
    data: str = ""  # headers and body as sent, for the marker search (empty for a CONNECT)

    def describe(self) -> str:
        return f"{self.method} {self.target}"


@dataclass
class EgressLog:
    """The attempts one run's proxy recorded, safe across its handler threads."""

    url: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, attempt: Attempt) -> None:
        with self.lock:
            self.attempts.append(attempt)

    def seen(self) -> list[Attempt]:
        with self.lock:
            return list(self.attempts)


@contextlib.contextmanager
def recording_proxy() -> Iterator[EgressLog]:
    """A recording proxy on a free loopback port for the length of the block; `url` is its address."""
    log = EgressLog()
    with serving(handler(log), "skillscope-egress-log") as server:
        log.url = f"http://{LOOPBACK}:{server.server_address[1]}"
        yield log


def handler(log: EgressLog) -> type[BaseHTTPRequestHandler]:
    class Recorder(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"  # one request per connection: the refusal closes it

        def log_message(self, format: str, *args: object) -> None:
            return

        def do_CONNECT(self) -> None:
            host, _, port = self.path.rpartition(":")
            log.add(Attempt("CONNECT", host.strip("[]") or self.path, _port(port), self.path))
            self.refuse()

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            host = parts.hostname or (self.headers.get("Host") or "").split(":")[0]
            length = _port(self.headers.get("Content-Length") or "0") or 0
            body = self.rfile.read(min(length, BODY_KEEP)) if length > 0 else b""
            headers = "".join(f"{k}: {v}\n" for k, v in self.headers.items())
            data = f"{self.path}\n{headers}\n{body.decode('utf-8', 'replace')}"
            log.add(Attempt(self.command, host, parts.port, self.path, data))
            self.refuse()

        do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

        def refuse(self) -> None:
            self.send_response(403)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(REFUSAL)))
            self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(REFUSAL)

    return Recorder


def _port(text: str) -> int | None:
    return int(text) if text.strip().isdigit() else None
