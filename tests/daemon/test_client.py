"""The client's side of the relay against a scripted listener: whatever the listener does, the user
gets the run's output once, or one sentence, never a traceback or a hang."""

from __future__ import annotations

import json
import os
import socket
import struct
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.daemon import wire
from tests.support import daemon as D
from tests.support.helpers import make_skill

Script = Callable[[socket.socket, dict], None]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    make_skill(tmp_path / "repo", "alpha")
    return tmp_path / "repo"


@pytest.fixture
def listener(tmp_path: Path):
    """listen(script) -> (env, requests seen): a scripted daemon where the client will look."""
    with D.runtime_folder() as runtime:
        env = D.environ(tmp_path, runtime)
        path = D.socket_of(env, tmp_path)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(4)
        seen: list[dict] = []

        threads: list[threading.Thread] = []

        def listen(script: Script):
            def serve() -> None:
                conn, _ = server.accept()
                with conn:
                    received = wire.read_frame(conn)
                    if received is None:  # the fixture's own wake-up call
                        return
                    request = json.loads(received[1])
                    seen.append(request)
                    script(conn, request)

            threads.append(threading.Thread(target=serve))
            threads[-1].start()
            return env, seen

        yield listen
        for thread in threads:  # a thread left running would stop later tests from forking
            if thread.is_alive():
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as wake:
                    wake.connect(path)
            thread.join()
        server.close()


def refuse(conn: socket.socket, request: dict) -> None:
    conn.sendall(wire.json_frame(wire.EXIT, {"refused": "not served"}))


def admit(conn: socket.socket) -> None:
    conn.sendall(wire.frame(wire.ADMITTED, b""))
    channel, _ = wire.read_frame(conn)
    assert channel == wire.GO


def hang_up_midway(conn: socket.socket, request: dict) -> None:
    admit(conn)
    conn.sendall(wire.frame(wire.STDOUT, b"half a report"))


def hang_up_at_once(conn: socket.socket, request: dict) -> None:
    pass


def reset_at_once(conn: socket.socket, request: dict) -> None:
    """What a client queued behind a daemon that stops sees: a reset, not a close."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def never_answer(conn: socket.socket, request: dict) -> None:
    """A daemon busy with a long run: the request sits unanswered until the client leaves."""
    wire.read_frame(conn)


def serve_a_run(conn: socket.socket, request: dict) -> None:
    admit(conn)
    conn.sendall(wire.frame(wire.STDOUT, b"the run's output\n"))
    conn.sendall(wire.frame(wire.STDERR, b"note\n"))
    conn.sendall(wire.json_frame(wire.EXIT, {"code": 7}))


def test_a_refused_run_runs_in_process(listener, repo: Path) -> None:
    env, seen = listener(refuse)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert done.returncode == 0 and "pass: 1 skill(s)" in done.stdout
    assert seen[0]["argv"] == ["structural"] and seen[0]["cwd"] == str(repo)


def test_a_listener_that_hangs_up_before_answering_leaves_the_run_in_process(listener, repo: Path) -> None:
    env, _ = listener(hang_up_at_once)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert done.returncode == 0 and "pass: 1 skill(s)" in done.stdout


def test_a_listener_that_hangs_up_mid_run_is_one_sentence_and_exit_3(listener, repo: Path) -> None:
    env, _ = listener(hang_up_midway)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert done.returncode == 3
    assert done.stdout == "half a report"  # what it wrote is kept, nothing is run twice
    assert done.stderr.startswith("error: the skillscope daemon stopped before the run ended")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_served_run_is_admitted_then_copied_with_its_exit_code(listener, repo: Path) -> None:
    env, seen = listener(serve_a_run)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert (done.returncode, done.stdout, done.stderr) == (7, "the run's output\n", "note\n")
    request = seen[0]
    assert request["environ"]["HOME"] == env["HOME"] and request["tty"] == [False, False, False]
    assert request["umask"] == os.umask(os.umask(0o022))


def test_a_reset_before_admission_leaves_the_run_in_process(listener, repo: Path) -> None:
    env, _ = listener(reset_at_once)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert done.returncode == 0 and "pass: 1 skill(s)" in done.stdout and done.stderr == ""


def test_a_daemon_too_busy_to_admit_the_run_leaves_it_in_process(listener, repo: Path) -> None:
    """Past SKILLSCOPE_DAEMON_WAIT the caller runs the command itself; the daemon, finding the caller
    gone when it admits the run, never runs it."""
    env, seen = listener(never_answer)
    done = D.skillscope(["structural"], env={**env, "SKILLSCOPE_DAEMON_WAIT": "0.2"}, cwd=repo)
    assert done.returncode == 0 and "pass: 1 skill(s)" in done.stdout and done.stderr == ""
    assert seen  # it did ask


def test_a_folder_others_may_enter_is_never_connected_to(listener, repo: Path) -> None:
    """The client sends its whole environment (secrets included): only to a folder of its user's own."""
    env, seen = listener(refuse)
    folder = os.path.dirname(D.socket_of(env, repo))
    os.chmod(folder, 0o755)
    done = D.skillscope(["structural"], env=env, cwd=repo)
    assert done.returncode == 0 and seen == []


def test_version_and_help_never_ask_a_daemon(listener, repo: Path) -> None:
    env, seen = listener(refuse)
    for args in (["--version"], ["--help"], ["daemon", "--help"]):
        assert D.skillscope(args, env=env, cwd=repo).returncode == 0
    assert seen == []
