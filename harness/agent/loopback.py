"""A local HTTP server on a free loopback port for the length of a block. The key relay and the
tripwire's recording proxy each run one per agent run, so stopping it sits on every run's path."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOOPBACK = "127.0.0.1"
# How often the serving thread looks for the stop. socketserver's default, half a second, made every
# agent run wait 0.1-0.3 s (up to 0.5 s) at its end for its relay to stop.
STOP_POLL_S = 0.02


@contextlib.contextmanager
def serving(handler: type[BaseHTTPRequestHandler], name: str) -> Iterator[ThreadingHTTPServer]:
    """`handler` served on a free port of 127.0.0.1 from a thread called `name`; stopped and closed
    when the block ends."""
    from http.server import ThreadingHTTPServer  # when a run serves one, not with the agent package

    server = ThreadingHTTPServer((LOOPBACK, 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(STOP_POLL_S,), name=name, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
