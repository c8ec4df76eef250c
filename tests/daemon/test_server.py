"""The daemon's side: each run in the client's folder and environment, and no run of code that changed
since the daemon started."""

from __future__ import annotations

import fcntl
import os
import pty
import shutil
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

import harness
from harness.daemon.server import process_as, well_formed
from tests.support import daemon as D
from tests.support.helpers import make_skill


def test_a_run_has_the_clients_environment_folder_and_umask_then_the_daemons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the daemon's own folder is the root; the test's is put back
    saved_environ, saved_umask = dict(os.environ), os.umask(0o022)
    try:
        with process_as({"ONLY": "this"}, str(tmp_path), 0o077):
            assert dict(os.environ) == {"ONLY": "this"}
            assert os.getcwd() == str(tmp_path)
            assert os.umask(0o077) == 0o077
        assert dict(os.environ) == saved_environ and os.getcwd() == "/"
        assert os.umask(0o022) == 0o022
    finally:
        os.umask(saved_umask)


@pytest.mark.parametrize(
    ("environ", "cwd"),
    [({"ONLY": "this"}, "gone"), ({"A": 1}, "."), ({"NUL": "a\0b"}, ".")],
    ids=["a folder gone", "a value not a string", "a value the OS refuses"],
)
def test_a_run_that_cannot_be_set_up_leaves_the_daemon_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, environ: dict, cwd: str
) -> None:
    monkeypatch.chdir(tmp_path)
    saved_environ = dict(os.environ)
    with pytest.raises((OSError, TypeError, ValueError)), process_as(environ, str(tmp_path / cwd), 0o022):
        raise AssertionError("the run was set up")
    assert dict(os.environ) == saved_environ and os.getcwd() == "/"


@pytest.mark.parametrize(
    "request_",
    [
        [],
        {},
        {"argv": "structural", "cwd": "/", "environ": {}, "tty": [False] * 3, "umask": 18},
        {"argv": ["structural"], "cwd": "/", "environ": {"A": 1}, "tty": [False] * 3, "umask": 18},
        {"argv": ["structural"], "cwd": "/", "environ": {}, "tty": [False] * 2, "umask": 18},
        {"argv": ["structural"], "cwd": "/", "environ": {}, "tty": [False] * 3, "umask": 0o1000},
    ],
    ids=["a list", "no fields", "argv a string", "a value not a string", "two terminals", "umask"],
)
def test_a_request_not_of_the_client_is_refused_unread(request_: object) -> None:
    assert not well_formed(request_)


def test_a_request_as_the_client_sends_it_is_well_formed() -> None:
    request = {"argv": ["structural"], "cwd": "/", "environ": {"A": "b"}, "tty": [True, False, False]}
    assert well_formed({**request, "umask": 0o022})


def test_a_changed_harness_makes_the_daemon_step_aside(tmp_path: Path) -> None:
    """A copy of the harness, so that its code can change under its daemon: the next run is refused
    (and run by the client with the new code), and the daemon leaves."""
    copy = tmp_path / "pkg"
    source = Path(harness.__file__).parent
    shutil.copytree(source, copy / "harness", ignore=shutil.ignore_patterns("__pycache__"))
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    with D.runtime_folder() as runtime:
        env = D.environ(tmp_path, runtime, PYTHONPATH=str(copy))
        daemon = D.start(env)
        try:
            assert D.skillscope(["structural"], env=env, cwd=repo).returncode == 0
            assert daemon.served() == 1
            edited = copy / "harness" / "checks" / "structural.py"
            stamp = edited.stat().st_mtime_ns + 10**9
            os.utime(edited, ns=(stamp, stamp))
            done = D.skillscope(["structural"], env=env, cwd=repo)
            assert done.returncode == 0 and "pass: 1 skill(s)" in done.stdout
            assert daemon.process.wait(timeout=D.WAIT_S) == 0
            assert not os.path.exists(daemon.path)
        finally:
            D.end(daemon)


def on_a_terminal(args: list[str], env: dict[str, str], cwd: Path, columns: int = 80) -> bytes:
    """What the command writes to a terminal of its own, `columns` wide (stdout and stderr on one
    pseudo-terminal)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "harness", *args],
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's last writer left
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=D.WAIT_S)
    os.close(leader)
    return b"".join(chunks)


def test_colour_follows_the_clients_terminal_and_no_color(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    (repo / "alpha" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    with D.runtime_folder() as served, D.runtime_folder() as alone:
        env = D.environ(tmp_path, served)
        daemon = D.start(env)
        try:
            coloured = on_a_terminal(["structural"], env, repo)
            plain = on_a_terminal(["structural"], {**env, "NO_COLOR": "1"}, repo)
            assert daemon.served() == 2
        finally:
            D.end(daemon)
        in_process = on_a_terminal(["structural"], D.environ(tmp_path, alone), repo)
    assert b"\x1b[31m" in coloured and b"\x1b[" not in plain
    assert D.steady(coloured.decode()) == D.steady(in_process.decode())


def test_usage_lines_are_laid_out_for_the_clients_terminal(tmp_path: Path) -> None:
    """argparse wraps its usage to the terminal's width: the daemon's is no terminal, the client's is."""
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    args = ["structural", "--no-such-flag"]
    with D.runtime_folder() as served, D.runtime_folder() as alone:
        env = D.environ(tmp_path, served)
        daemon = D.start(env)
        try:
            wide = on_a_terminal(args, env, repo, columns=200)
            assert daemon.served() == 1
        finally:
            D.end(daemon)
        in_process = on_a_terminal(args, D.environ(tmp_path, alone), repo, columns=200)
    assert wide == in_process
    assert max(len(line) for line in wide.decode().splitlines()) > 100
