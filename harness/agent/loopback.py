"""A local HTTP server on a free loopback port for the length of a block. The key relay and the
tripwire's recording proxy each run one per agent run, so stopping it sits on every run's path."""

from __future__ import annotations

import contextlib
import selectors
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOOPBACK = "127.0.0.1"
# handle_request's own wait, used only should a connection announced ready be gone before its accept.
ACCEPT_WAIT_S = 0.02


@contextlib.contextmanager
def serving(handler: type[BaseHTTPRequestHandler], name: str) -> Iterator[ThreadingHTTPServer]:
    """`handler` served on a free port of 127.0.0.1 from a thread called `name`; stopped and closed
    when the block ends."""
    from http.server import ThreadingHTTPServer  # when a run serves one, not with the agent package

    server = ThreadingHTTPServer((LOOPBACK, 0), handler)
    server.handle_error = quiet_when_gone(server.handle_error)  # type: ignore[method-assign,assignment]
    server.daemon_threads = True
    server.timeout = ACCEPT_WAIT_S
    stop, wake = socket.socketpair()
    thread = threading.Thread(target=serve_until, args=(server, stop), name=name, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        wake.close()  # the stop end reads EOF: the serving thread returns at once
        thread.join()
        stop.close()
        server.server_close()


def serve_until(server: ThreadingHTTPServer, stop: socket.socket) -> None:
    """Serve each connection as it comes until `stop` turns readable. The thread sleeps while the agent
    runs: serve_forever polls for its stop flag, which at a short interval (a prompt end of every
    agent run needs one) woke it 50 times a second, a few ms of CPU per second of the run."""
    with selectors.DefaultSelector() as selector:
        selector.register(server, selectors.EVENT_READ)
        selector.register(stop, selectors.EVENT_READ)
        while True:
            if any(key.fileobj is stop for key, _ in selector.select()):
                return
            server.handle_request()


def quiet_when_gone(default: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """The server's error handler, silent when the client went away (an agent CLI resets its keep-alive
    connections as it exits): the default prints that as a traceback into the user's output."""

    def handle_error(request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        default(request, client_address)

    return handle_error
