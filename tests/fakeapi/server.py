"""A scripted model API on 127.0.0.1, good enough for the real agent CLIs.

Only the model is fake: the CLI under test talks HTTP to this server exactly as
it would to the real API (SSE streams, tool calls, error statuses). One server
speaks every wire protocol, chosen by the request path (see `wires`): Anthropic
Messages, OpenAI Responses and Chat Completions, and Gemini.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from harness.routing import canary

from .recorded import RecordedRequest
from .replies import DONE, Reply, as_reply, skill_for
from .runtimes import agent_of
from .wires import ANTHROPIC, Wire, wire_for

ReplyLike = Reply | str | dict
Router = Callable[[RecordedRequest], ReplyLike | None]
# A script: replies in order, {prompt substring: replies}, or a router function.
Script = Iterable[ReplyLike] | Mapping[str, Any] | Router

DEFAULT_MODEL = "claude-fake-1"


class _Queue:
    """Replies consumed in order; shared by every request that reaches it."""

    def __init__(self, replies: Iterable[ReplyLike]):
        self._replies = [as_reply(r) for r in replies]
        self._lock = threading.Lock()

    def next(self, request: RecordedRequest) -> Reply | None:
        with self._lock:
            return self._replies.pop(0) if self._replies else None


class _ByPrompt:
    """One queue per prompt substring; the first key found in the prompt wins."""

    def __init__(self, table: Mapping[str, Any]):
        self._queues = {key: _compile(value) for key, value in table.items()}

    def next(self, request: RecordedRequest) -> Reply | None:
        prompt = request.prompt
        for key, source in self._queues.items():
            if key in prompt:
                return source.next(request)
        return None


class _Routed:
    def __init__(self, router: Router):
        self._router = router

    def next(self, request: RecordedRequest) -> Reply | None:
        answer = self._router(request)
        return None if answer is None else as_reply(answer)


def _compile(script: Script | ReplyLike) -> _Queue | _ByPrompt | _Routed:
    if isinstance(script, (Reply, str)):
        return _Queue([script])
    if callable(script):
        return _Routed(script)
    if isinstance(script, Mapping) and not _looks_like_reply(script):
        return _ByPrompt(script)
    if isinstance(script, Mapping):
        return _Queue([script])
    return _Queue(script)


def _looks_like_reply(mapping: Mapping[str, Any]) -> bool:
    return bool(set(mapping) & {"text", "tool_use", "tool_uses", "status", "hang", "delay_s"})


def is_canary(request: RecordedRequest) -> bool:
    """A model call of a routing canary's run (harness/routing/canary.py)."""
    return canary.PROMPT in request.prompt


class FakeAPI:
    """Context manager: `with FakeAPI(script) as api: ... api.base_url ...`.

    The routing canary's prompt is answered before any script by activating the canary, in the
    requesting CLI's own tool (later turns of that run just finish), so every routing test sees its
    agent's activations; `answers_canary=False` leaves the canary to the script like any prompt."""

    def __init__(
        self, script: Script | None = None, *, model: str = DEFAULT_MODEL, answers_canary: bool = True
    ):
        self.model = model
        self.answers_canary = answers_canary
        self._default = _compile(script or [])
        self._sessions: dict[str, Any] = {}
        self._log: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._in_flight = 0
        self._max_in_flight = 0
        self.stopping = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------

    def start(self) -> FakeAPI:
        self._httpd = _Server(("127.0.0.1", 0), _Handler, self)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()  # releases hanging and delayed handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
            self._thread.join()  # gone, not ending: a test after this may fork only a single-threaded process

    def __enter__(self) -> FakeAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "FakeAPI is not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- scripting ----------------------------------------------------------------

    def script(self, script: Script, *, session: str | None = None) -> None:
        """Set the default script, or the one for requests of one CLI session."""
        compiled = _compile(script)
        with self._lock:
            if session is None:
                self._default = compiled
            else:
                self._sessions[session] = compiled

    def _reply_for(self, request: RecordedRequest) -> Reply:
        if self.answers_canary and request.is_agent_turn and is_canary(request):
            reply = DONE if request.tool_results else skill_for(agent_of(request), canary.NAME)
            return reply.with_cwd(request.cwd)
        with self._lock:
            source = self._sessions.get(request.session_id or "", self._default)
        reply = source.next(request) if request.is_agent_turn else None
        return (reply or DONE).with_cwd(request.cwd)

    def canary_turns(self) -> list[RecordedRequest]:
        """The model calls of the routing canary's runs."""
        return [r for r in self.agent_turns(canary=True) if is_canary(r)]

    # --- inspection ---------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._log)

    def requests_for(self, session: str | None) -> list[RecordedRequest]:
        return [r for r in self.requests if r.session_id == session]

    def agent_turns(self, session: str | None = None, *, canary: bool = False) -> list[RecordedRequest]:
        """Model calls of the main loop (optionally of one session), oldest first; the routing canary's
        only with `canary` (a routing run's cases are what most tests count: see `canary_turns`)."""
        return [
            r
            for r in self.requests
            if r.is_agent_turn
            and (session is None or r.session_id == session)
            and (canary or not is_canary(r))
        ]

    def forget(self) -> None:
        """Drop the request log, so a server shared by several tests starts each one empty."""
        with self._lock:
            self._log.clear()

    def max_concurrency(self) -> int:
        with self._lock:
            return self._max_in_flight

    @staticmethod
    def skill_listing(request: RecordedRequest) -> dict[str, str]:
        return request.skill_listing

    # --- used by the handler ------------------------------------------------------

    def _begin(self, request: RecordedRequest) -> None:
        with self._lock:
            self._log.append(request)
            self._in_flight += 1
            self._max_in_flight = max(self._max_in_flight, self._in_flight)

    def _end(self, request: RecordedRequest) -> None:
        with self._lock:
            request.ended = time.monotonic()
            self._in_flight -= 1


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type, api: FakeAPI):
        super().__init__(address, handler)
        self.api = api

    def handle_error(self, request: Any, client_address: Any) -> None:
        # The CLI resets its keep-alive connections on exit; that is not an error.
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        with contextlib.suppress(ConnectionError, TimeoutError):
            super().handle()

    # --- verbs --------------------------------------------------------------------

    def do_HEAD(self) -> None:
        request = self._record(None)
        try:
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        finally:
            self.server.api._end(request)

    def do_GET(self) -> None:
        request = self._record(None)
        try:
            if self.path.split("?")[0] == "/v1/models":
                api = self.server.api
                model = {"type": "model", "id": api.model, "display_name": "Fake model"}
                self._json(200, {"data": [model], "has_more": False})
            else:
                self._json(404, ANTHROPIC.error_body(404))
        finally:
            self.server.api._end(request)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = self._record(body)
        try:
            wire = wire_for(self.path)
            route = request.route
            if wire is None:
                self._json(404, ANTHROPIC.error_body(404))
            elif not wire.is_model_call(route):
                helper = wire.extra_route(route, raw)
                self._json(200, helper) if helper is not None else self._json(404, wire.error_body(404))
            else:
                self._answer(wire, request)
        finally:
            self.server.api._end(request)

    # --- replies ------------------------------------------------------------------

    def _record(self, body: Any) -> RecordedRequest:
        request = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            started=time.monotonic(),
        )
        self.server.api._begin(request)
        return request

    def _answer(self, wire: Wire, request: RecordedRequest) -> None:
        api = self.server.api
        reply = api._reply_for(request)
        request.reply = reply
        if reply.hang:
            api.stopping.wait()
            self.close_connection = True
            return
        if reply.delay_s and api.stopping.wait(reply.delay_s):
            self.close_connection = True
            return
        if reply.status:
            self._json(reply.status, wire.error_body(reply.status))
            return
        model = wire.model_of(self.path, request.body) or api.model
        if not wire.streams(self.path, request.body):
            if reply.malformed:  # a CLI may retry a broken stream without streaming
                self._raw(200, "application/json", wire.garbage)
            else:
                self._json(200, wire.message(reply, model))
            return
        self.send_response(200)
        self.send_header("Content-Type", wire.content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("request-id", f"req_fake_{id(request)}")
        self.end_headers()
        for frame in wire.frames(reply, model):
            self._chunk(frame)
            if reply.malformed:
                self._chunk(wire.garbage)
                self.close_connection = True
                self._chunk(b"")
                return
            if reply.cut_short:
                self.close_connection = True
                self._chunk(b"")
                return
        self._chunk(b"")

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        self._raw(status, "application/json", json.dumps(payload).encode())

    def _raw(self, status: int, content_type: str, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
