"""The model API key stays in skillscope: a loopback relay per run holds it, and the agent CLI gets
only the relay's address and a stand-in token made for that run.

Whatever a CLI does with its key (an environment variable its tools inherit, a config file or a key
helper its shell can read), what it holds is the stand-in. The relay forwards a request to the real
endpoint only when the request carries the run's token, and puts the key where the token was (a
header, or the query), so it works the same for every runtime's wire and header. Requests without the
token are refused: another local program cannot borrow the key through it. The relay ends with the
run.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .loopback import LOOPBACK, serving

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler

TOKEN_PREFIX = "skillscope-run-"
# Headers that belong to one connection, not to the request: never forwarded either way.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "accept-encoding",
    }
)
CONNECT_TIMEOUT_S = 30.0
READ_TIMEOUT_S = 900.0  # a model's answer can take minutes; the run's own timeout ends it sooner


@dataclass(frozen=True)
class Handover:
    """What one run's CLI is given in place of its endpoint and key."""

    base_url: str  # the relay's address, with the endpoint's own path (`/v1`, say)
    token: str = field(repr=False)  # the stand-in key, good for this run's relay only


# What a dry run shows in place of a relay it never starts.
SHOWN = Handover(f"http://{LOOPBACK}:<relay port>", "<per-run token>")


def stand_in_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(24)


def unproxied(env: dict[str, str]) -> dict[str, str]:
    """`env` with the loopback relay exempt from any proxy it names."""
    for name in ("NO_PROXY", "no_proxy"):
        given = [entry for entry in env.get(name, "").split(",") if entry.strip()]
        env[name] = ",".join(dict.fromkeys([*given, LOOPBACK, "localhost"]))
    return env


@contextlib.contextmanager
def relay(upstream: str, key: str) -> Iterator[Handover]:
    """A relay to `upstream` (the endpoint's base URL) holding `key`, for the length of the block."""
    parts = urlsplit(upstream)
    origin = f"{parts.scheme}://{parts.netloc}"
    token = stand_in_token()
    with serving(handler(origin, token, key), "skillscope-key-relay") as server:
        yield Handover(f"http://{LOOPBACK}:{server.server_address[1]}{parts.path.rstrip('/')}", token)


def handler(origin: str, token: str, key: str) -> type[BaseHTTPRequestHandler]:
    """The request handler of one relay: forwards to `origin` what carries `token`, with `key` in its
    place."""
    # Imported when a relay starts (a run about to reach the model), not with the agent package: a dry
    # run, a run the structural gate stops and a lexical run never forward a request.
    from http.server import BaseHTTPRequestHandler

    import requests
    from urllib3.exceptions import HTTPError as StreamError

    class Relay(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            return  # the run's own logs say what the CLI did

        def do_GET(self) -> None:
            self.forward()

        do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = do_GET

        def forward(self) -> None:
            body = self.body()
            carried = token in self.path or any(token in value for value in self.headers.values())
            if not carried:
                self.answer(401, "skillscope's key relay: this request carries no token of the run")
                return
            headers = {
                name: value.replace(token, key)
                for name, value in self.headers.items()
                if name.lower() not in HOP_BY_HOP
            }
            headers["Accept-Encoding"] = "identity"  # the stream is passed on as it comes
            try:
                upstream = requests.request(
                    self.command,
                    origin + self.path.replace(token, key),
                    headers=headers,
                    data=body,
                    stream=True,
                    allow_redirects=False,
                    timeout=(CONNECT_TIMEOUT_S, READ_TIMEOUT_S),
                )
            except requests.ConnectionError:
                # The endpoint is unreachable: so it must look to the CLI, which then says so itself.
                self.close_connection = True
                with contextlib.suppress(OSError):
                    self.connection.shutdown(socket.SHUT_RDWR)
                return
            except requests.RequestException as exc:  # its text may hold the URL, and so the key
                self.answer(502, f"skillscope's key relay could not reach {origin} ({type(exc).__name__})")
                return
            with upstream:
                self.pass_on(upstream)

        def body(self) -> bytes:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                pieces: list[bytes] = []
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass  # trailers
                        return b"".join(pieces)
                    pieces.append(self.rfile.read(size))
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def pass_on(self, upstream: requests.Response) -> None:
            """The endpoint's answer, each piece as it arrives (a model streams its reply)."""
            self.send_response(upstream.status_code)
            for name, value in upstream.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            if self.command == "HEAD" or upstream.status_code in (204, 304):
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                while True:
                    piece = upstream.raw.read1(65536, decode_content=False)
                    if not piece:
                        break
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    self.wfile.flush()
                self.wfile.write(b"0\r\n\r\n")
            except (OSError, requests.RequestException, StreamError):
                self.close_connection = True  # the CLI went away, or the endpoint did

        def answer(self, status: int, message: str) -> None:
            data = json.dumps(
                {"type": "error", "error": {"type": "relay_error", "message": message}}
            ).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Relay
