"""A run handed to a real daemon prints, writes and exits exactly as the same run in a process of its
own; a run the daemon does not serve, or cannot, runs in-process once."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.daemon import wire
from tests.support import daemon as D
from tests.support.helpers import make_skill


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    make_skill(root, "beta")
    return root


@pytest.fixture
def running(tmp_path: Path):
    """(daemon, env of its clients, env of clients it does not serve: another runtime folder)."""
    home = tmp_path / "home"
    home.mkdir()
    with D.runtime_folder() as served, D.runtime_folder() as alone:
        daemon = D.start(D.environ(home, served))
        try:
            yield daemon, D.environ(home, served), D.environ(home, alone)
        finally:
            D.end(daemon)


def same(done) -> tuple[int, str, str]:
    return done.returncode, D.steady(done.stdout), D.steady(done.stderr)


CASES = {
    "structural": (["structural"], None),
    "structural as json on stdout": (["structural", "--format", "json", "--output", "-"], None),
    "structural, markdown": (["structural", "--format", "markdown"], None),
    "refs, internal links": (["refs", "--no-external"], None),
    "list-skills": (["list-skills"], None),
    "lexical routing": (["routing", "--engine", "lexical", "--routing-room", "all"], None),
    "a usage error": (["structural", "--no-such-flag"], None),
    "a bad flag value": (["structural", "--skill-files", '["a",'], None),
}


@pytest.mark.parametrize("name", CASES)
def test_a_served_run_prints_and_exits_as_an_in_process_run(running, repo: Path, name: str) -> None:
    daemon, env, alone = running
    args, stdin = CASES[name]
    before = daemon.served()
    served = D.skillscope(args, env=env, cwd=repo, stdin=stdin)
    assert daemon.served() == before + 1, served.stderr
    assert same(served) == same(D.skillscope(args, env=alone, cwd=repo, stdin=stdin))


def test_a_failing_run_fails_the_same_through_the_daemon(running, repo: Path) -> None:
    daemon, env, alone = running
    (repo / "beta" / "SKILL.md").write_text("no frontmatter\n", encoding="utf-8")
    served = D.skillscope(["structural"], env=env, cwd=repo)
    assert served.returncode == 1 and "beta/SKILL.md" in served.stdout
    assert same(served) == same(D.skillscope(["structural"], env=alone, cwd=repo))


def test_each_run_sees_its_edits(running, repo: Path) -> None:
    """The daemon keeps modules, never a repo: a file edited between two runs is read again."""
    daemon, env, _ = running
    assert D.skillscope(["structural"], env=env, cwd=repo).returncode == 0
    (repo / "alpha" / "SKILL.md").write_text("---\nname: wrong-name\n---\n", encoding="utf-8")
    assert D.skillscope(["structural"], env=env, cwd=repo).returncode == 1
    assert daemon.served() == 2


def test_the_run_has_the_clients_folder_and_environment(running, repo: Path, tmp_path: Path) -> None:
    """Relative paths, the settings file and the step summary are the client's, not the daemon's."""
    daemon, env, _ = running
    (repo / "skillscope.toml").write_text('skills-dir = ["alpha"]\n', encoding="utf-8")
    summary = tmp_path / "summary.md"
    done = D.skillscope(
        ["structural", "--output", "out/report.json"],
        env={**env, "GITHUB_STEP_SUMMARY": str(summary)},
        cwd=repo,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((repo / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["skills"] == ["alpha"]
    assert "## Structural check" in summary.read_text(encoding="utf-8")
    assert daemon.served() == 1


NOT_SERVED = {
    "template": (["template"], None),
    "new, which writes": (["new", "gamma"], None),
    "an agent": (["routing", "--agent", "claude", "--routing-room", "all"], None),
    "a run that reads stdin": (["select", "--changed"], "alpha/SKILL.md\n"),
    "a command's help": (["refs", "--help"], None),
    "help among other flags": (["structural", "-h", "--format", "json"], None),
}


@pytest.mark.parametrize("name", NOT_SERVED)
def test_a_run_it_does_not_serve_runs_once_in_process(running, repo: Path, name: str) -> None:
    """Runs not bounded by the repo (they write, or start an agent), runs that read stdin and help
    (laid out for the caller's terminal) are the caller's: the daemon refuses them before they start
    or is never asked, and nothing is printed or done twice."""
    daemon, env, alone = running
    args, stdin = NOT_SERVED[name]
    done = D.skillscope(args, env=env, cwd=repo, stdin=stdin)
    assert daemon.served() == 0
    if args[0] == "new":  # and run in a fresh folder for the comparison
        assert (repo / "gamma" / "SKILL.md").is_file()
        shutil.rmtree(repo / "gamma")
    assert same(done) == same(D.skillscope(args, env=alone, cwd=repo, stdin=stdin))


def test_clients_at_once_are_each_answered_whole(running, repo: Path) -> None:
    daemon, env, alone = running
    args = ["structural", "--format", "json", "--output", "-"]
    with ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(lambda _: D.skillscope(args, env=env, cwd=repo), range(4)))
    expected = json.loads(D.skillscope(args, env=alone, cwd=repo).stdout)
    for done in runs:
        assert done.returncode == 0
        assert json.loads(done.stdout)["findings"] == expected["findings"]
    assert daemon.served() == 4


def test_a_daemon_killed_outright_leaves_runs_in_process(running, repo: Path) -> None:
    """SIGKILL leaves the socket file behind; the next run finds no listener and runs itself."""
    daemon, env, alone = running
    os.kill(daemon.process.pid, signal.SIGKILL)
    daemon.process.wait(timeout=D.WAIT_S)
    assert os.path.exists(daemon.path)
    assert same(D.skillscope(["structural"], env=env, cwd=repo)) == same(
        D.skillscope(["structural"], env=alone, cwd=repo)
    )


def test_sigterm_ends_the_daemon_and_removes_its_socket(running) -> None:
    daemon, _, _ = running
    daemon.process.terminate()
    assert daemon.process.wait(timeout=D.WAIT_S) == 128 + signal.SIGTERM
    assert not os.path.exists(daemon.path)


def test_an_idle_daemon_stops_by_itself(tmp_path: Path) -> None:
    with D.runtime_folder() as runtime:
        daemon = D.start(D.environ(tmp_path, runtime), "--idle", "0.001")
        assert daemon.process.wait(timeout=D.WAIT_S) == 0
        assert not os.path.exists(daemon.path)
        D.end(daemon)


WHAT_THE_RELAY_LOADS = """
import atexit, sys
def report():
    heavy = [m for m in sys.modules if m in ('argparse', 'socket', 'dataclasses', 'typing')
             or m.startswith(('harness.cli', 'harness.commands.', 'harness.model', 'harness.checks'))]
    print(heavy, file=sys.stderr)
atexit.register(report)
sys.argv = ['skillscope', *sys.argv[1:]]
from harness.entry import program
program()
"""


def test_a_served_call_loads_only_the_relay(running, repo: Path) -> None:
    """The relay is what a hook pays with a daemon running: no parser, no command, no check."""
    daemon, env, _ = running
    done = subprocess.run(
        [sys.executable, "-c", WHAT_THE_RELAY_LOADS, "structural"],
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and daemon.served() == 1
    assert done.stderr.strip() == "[]"


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"q\x00\x00\x00\x03{}]",
        b"q\x00\x00\x00\x02{}",
        b"q\x00\x00\x00\x02[]",
        b'q\x00\x00\x00\x0b{"tty": 1}',
        b"x\x00\x00\x00\x00",
        b"\xff" * 64,
    ],
    ids=["nothing", "broken json", "no fields", "a list", "wrong types", "not a request", "noise"],
)
def test_a_request_it_cannot_read_leaves_the_daemon_serving(running, repo: Path, sent: bytes) -> None:
    daemon, env, _ = running
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as rogue:
        rogue.connect(daemon.path)
        rogue.sendall(sent)
        rogue.shutdown(socket.SHUT_WR)
        rogue.recv(1 << 16)
    assert D.skillscope(["structural"], env=env, cwd=repo).returncode == 0
    assert daemon.served() == 1


def test_a_client_that_never_speaks_holds_up_the_others_only_briefly(running, repo: Path) -> None:
    daemon, env, _ = running
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:
        silent.connect(daemon.path)
        done = D.skillscope(["structural"], env=env, cwd=repo)  # waits for the silent one's turn to lapse
        assert done.returncode == 0 and daemon.served() == 1


def test_a_reader_that_left_ends_the_call_quietly_as_in_process(running, repo: Path) -> None:
    """`skillscope structural | head`: 141 and nothing on stderr, served or not."""
    daemon, env, alone = running
    codes = []
    for environ in (env, alone):
        read, write = os.pipe()
        os.close(read)
        done = subprocess.run(
            [sys.executable, "-m", "harness", "structural"],
            env=environ,
            cwd=repo,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        os.close(write)
        codes.append((done.returncode, done.stderr))
    assert codes == [(141, ""), (141, "")]
    assert daemon.served() == 1


def test_the_report_has_the_clients_umask_and_time_zone(running, repo: Path) -> None:
    """The daemon runs in UTC with umask 022; the client's 077 and UTC+9 make the report's mode and
    the local time in its name, as they would in-process."""
    daemon, env, _ = running
    before = time.gmtime(time.time() + 9 * 3600).tm_hour
    done = subprocess.run(
        [sys.executable, "-m", "harness", "structural"],
        env={**env, "TZ": "XYZ-9"},
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: os.umask(0o077),
    )
    after = time.gmtime(time.time() + 9 * 3600).tm_hour
    assert done.returncode == 0 and daemon.served() == 1
    report = Path(done.stdout.split("JSON report: ")[1].strip())
    assert stat.S_IMODE(report.stat().st_mode) == 0o600
    assert int(report.name.split("-")[2][:2]) in (before, after)


def test_a_caller_that_leaves_at_admission_never_has_its_run_run(running, repo: Path) -> None:
    """The daemon admits a run, then waits for its caller's go: a caller that gave up meanwhile (and
    runs the command itself) has closed instead, and the daemon runs nothing."""
    daemon, env, _ = running
    report = repo / "left.json"
    request = D.request_of(env, repo, ["structural", "--output", str(report)])
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as caller:
        caller.connect(daemon.path)
        caller.sendall(wire.json_frame(wire.REQUEST, request))
        assert wire.read_frame(caller) == (wire.ADMITTED, b"")
    assert daemon.served() == 0  # asked after the daemon is done with the caller: runs are one at a time
    assert not report.exists()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as caller:
        caller.connect(daemon.path)
        caller.sendall(wire.json_frame(wire.REQUEST, request))
        assert wire.read_frame(caller) == (wire.ADMITTED, b"")
        caller.sendall(wire.frame(wire.GO, b""))
        frames = []
        while (received := wire.read_frame(caller)) is not None:
            frames.append(received)
    assert frames[-1] == (wire.EXIT, b'{"code": 0}') and report.is_file()
    assert daemon.served() == 1
