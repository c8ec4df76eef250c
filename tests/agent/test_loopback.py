"""The loopback server the key relay and the tripwire's proxy run per agent run: it answers on
127.0.0.1 while its block runs, is closed after it, and its thread wakes only for a connection or the
stop (serve_forever's polling for its stop flag cost CPU for every second of every agent run)."""

from __future__ import annotations

import selectors
import socket
from http.server import BaseHTTPRequestHandler

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


def test_its_thread_wakes_only_for_a_connection_or_the_stop(monkeypatch):
    waits: list[float | None] = []

    class Recorded(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
        def select(self, timeout: float | None = None):
            waits.append(timeout)
            return super().select(timeout)

    monkeypatch.setattr(loopback.selectors, "DefaultSelector", Recorded)
    with loopback.serving(Hello, "test-loopback") as server:
        port = server.server_address[1]
        for _ in range(2):
            assert requests.get(f"http://127.0.0.1:{port}/", timeout=30).text == "hello"
    # two connections and the stop, each waited for without a timeout: no wake-up in between
    assert waits == [None, None, None]


def test_a_client_that_went_away_prints_no_traceback_and_any_other_error_still_does(capsys):
    """An agent CLI resets its keep-alive connection as it exits: socketserver's default handler printed
    that as a traceback amid a run's progress lines."""
    with loopback.serving(Hello, "test-loopback") as server:
        for gone in (ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "pipe")):
            try:
                raise gone
            except OSError:
                server.handle_error(None, ("127.0.0.1", 1))
        assert capsys.readouterr().err == ""
        try:
            raise ValueError("a bug in a handler")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "ValueError: a bug in a handler" in capsys.readouterr().err
