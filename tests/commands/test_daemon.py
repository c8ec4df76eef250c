"""`skillscope daemon start|stop|status|run` as a user types them, with real processes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import daemon as D
from tests.support.helpers import make_skill, run_cli


@pytest.fixture
def env(tmp_path: Path):
    with D.runtime_folder() as runtime:
        environ = D.environ(tmp_path, runtime)
        yield environ
        D.end_listed(environ, tmp_path)  # a test that failed half-way: end the daemon it started


def test_start_status_serve_and_stop(env: dict[str, str], tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "alpha")
    status = D.skillscope(["daemon", "status"], env=env, cwd=tmp_path)
    assert status.returncode == 1 and status.stdout.startswith("no daemon runs for this install")

    started = D.skillscope(["daemon", "start", "--idle", "5"], env=env, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert started.stdout.startswith("started: skillscope daemon")
    assert "stops after 5 min idle" in started.stdout
    again = D.skillscope(["daemon", "start"], env=env, cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.startswith("already running: ")
    assert D.pid_in(again.stdout) == D.pid_in(started.stdout)

    assert D.skillscope(["structural"], env=env, cwd=tmp_path / "repo").returncode == 0
    status = D.skillscope(["daemon", "status"], env=env, cwd=tmp_path)
    assert status.returncode == 0 and "1 run(s) served" in status.stdout

    stopped = D.skillscope(["daemon", "stop"], env=env, cwd=tmp_path)
    assert stopped.returncode == 0 and stopped.stdout.startswith("stopped the skillscope daemon")
    assert D.skillscope(["daemon", "status"], env=env, cwd=tmp_path).returncode == 1


def test_stop_with_none_running_says_so(env: dict[str, str], tmp_path: Path) -> None:
    done = D.skillscope(["daemon", "stop"], env=env, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "no daemon runs for this install; nothing to stop\n")


def test_a_folder_others_may_enter_is_refused_in_one_sentence(env: dict[str, str], tmp_path: Path) -> None:
    folder = Path(env["XDG_RUNTIME_DIR"]) / "skillscope"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    done = D.skillscope(["daemon", "start"], env=env, cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == (
        f"error: {folder} is not a folder only you can open, so a daemon there could be reached by others; "
        "remove it, or set XDG_RUNTIME_DIR to a private folder.\n"
    )


def test_a_socket_path_too_long_is_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 120)
    done = D.skillscope(["daemon", "start"], env={**env, "XDG_RUNTIME_DIR": str(deep)}, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("error: no daemon here: its socket path would be ")
    assert done.stderr.endswith("set XDG_RUNTIME_DIR to a short folder.\n")


@pytest.mark.parametrize("idle", ["0", "-1", "soon", "nan", "inf", "1e10"])
def test_idle_takes_minutes_above_zero(env: dict[str, str], tmp_path: Path, idle: str) -> None:
    done = D.skillscope(["daemon", "start", "--idle", idle], env=env, cwd=tmp_path)
    assert (
        done.returncode == 2
        and f"--idle takes a number of minutes above 0 and at most 525600 (a year), got '{idle}'"
        in done.stderr
    )


def test_a_second_daemon_in_the_foreground_is_refused(tmp_path: Path) -> None:
    with D.runtime_folder() as runtime:
        environ = D.environ(tmp_path, runtime)
        first = D.start(environ)
        try:
            done = D.skillscope(["daemon", "run"], env=environ, cwd=tmp_path)
            assert done.returncode == 1
            assert done.stderr == (
                f"error: a daemon already answers at {first.path}; `skillscope daemon stop` ends it.\n"
            )
            assert first.status() is not None
        finally:
            D.end(first)


def test_a_daemon_that_cannot_start_is_one_sentence_naming_its_log(tmp_path: Path) -> None:
    """The background daemon is this Python running `-m harness`: a harness it cannot import ends it
    at once, and `start` says so with the log's last line instead of waiting."""
    broken = tmp_path / "broken" / "harness"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('this harness is broken')\n", encoding="utf-8")
    with D.runtime_folder() as runtime:
        environ = D.environ(tmp_path, runtime, PYTHONPATH=str(broken.parent))
        run = run_cli(["daemon", "start"], cwd=tmp_path, environ=environ)
    assert run.code == 1
    assert run.stderr.startswith(
        "error: the daemon exited as it started (ImportError: this harness is broken)"
    )
    assert run.stderr.rstrip().endswith(".log.")


def test_no_daemon_without_unix_sockets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "getuid")
    run = run_cli(["daemon", "status"], cwd=tmp_path, environ={"HOME": str(tmp_path)})
    assert (run.code, run.stderr) == (
        2,
        "error: no daemon here: the daemon needs Unix sockets, which this platform does not offer.\n",
    )
