"""The loopback server the key relay and the tripwire's proxy run per agent run: it answers on
127.0.0.1 while its block runs, is closed after it, and looks for its stop often (the default half
second was waited at the end of every agent run)."""

from __future__ import annotations

import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from harness.agent import loopback


class Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "5")
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, format: str, *args: object) -> None:
        return


def test_it_answers_during_the_block_and_is_closed_after_it():
    with loopback.serving(Hello, "test-loopback") as server:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        assert requests.get(f"http://127.0.0.1:{port}/", timeout=30).text == "hello"
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=5):
        pass


def test_its_thread_looks_for_the_stop_at_the_short_interval(monkeypatch):
    asked: list[float] = []
    serve = ThreadingHTTPServer.serve_forever

    def recorded(self: ThreadingHTTPServer, poll_interval: float = 0.5) -> None:
        asked.append(poll_interval)
        serve(self, poll_interval)

    monkeypatch.setattr(ThreadingHTTPServer, "serve_forever", recorded)
    with loopback.serving(Hello, "test-loopback"):
        pass
    assert asked == [loopback.STOP_POLL_S] and loopback.STOP_POLL_S <= 0.05
