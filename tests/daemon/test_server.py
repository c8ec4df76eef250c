"""The daemon's side: each run in the client's folder and environment, and no run of code that changed
since the daemon started."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import harness
from harness.daemon.server import process_as
from tests.support import daemon as D
from tests.support.helpers import make_skill


def test_a_run_has_the_clients_environment_and_folder_then_the_daemons_again(tmp_path: Path) -> None:
    saved_environ, saved_cwd = dict(os.environ), os.getcwd()
    with process_as({"ONLY": "this"}, str(tmp_path)):
        assert dict(os.environ) == {"ONLY": "this"}
        assert os.getcwd() == str(tmp_path)
    assert dict(os.environ) == saved_environ and os.getcwd() == saved_cwd


def test_a_folder_gone_leaves_the_daemon_as_it_was(tmp_path: Path) -> None:
    saved_environ = dict(os.environ)
    try:
        with process_as({"ONLY": "this"}, str(tmp_path / "gone")):
            raise AssertionError("entered a folder that does not exist")
    except FileNotFoundError:
        pass
    assert dict(os.environ) == saved_environ


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


def on_a_terminal(args: list[str], env: dict[str, str], cwd: Path) -> bytes:
    """What the command writes to a terminal of its own (stdout and stderr on one pseudo-terminal)."""
    leader, follower = pty.openpty()
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
