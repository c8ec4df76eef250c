"""`--daemon auto|use|off`: which runs go to a daemon, and when `auto` starts one.

The choices are tested in-process with a recording spawn; the start itself with real processes: the run
that starts a daemon prints exactly what a run without one prints (the starter writes to no stream of
the caller's, which pre-commit reads to their end), and the next run is served by the daemon it started."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from harness import cli
from harness.daemon import autostart
from tests.support import daemon as D
from tests.support.helpers import make_skill, run_cli


@pytest.mark.parametrize(
    ("words", "environ", "expected"),
    [
        (["structural"], {}, "use"),
        (["structural"], {"SKILLSCOPE_DAEMON": "auto"}, "auto"),
        (["structural"], {"SKILLSCOPE_DAEMON": ""}, "use"),
        (["--daemon", "auto", "structural"], {}, "auto"),
        (["structural", "--daemon=off"], {"SKILLSCOPE_DAEMON": "auto"}, "off"),
        (["--daemon", "auto", "structural", "--daemon", "off"], {}, "off"),  # the last one, as argparse
        (["structural", "--daemon"], {"SKILLSCOPE_DAEMON": "off"}, "off"),  # no value: the parser says so
        (["--daemon", "sometimes", "structural"], {}, "use"),  # not a mode: the parser says so
        (["--daemon", "auto", "structural"], {"SKILLSCOPE_DAEMON": "bogus"}, "auto"),
        (["--dae", "off", "structural"], {"SKILLSCOPE_DAEMON": "auto"}, "off"),  # argparse's abbreviation
        (["structural", "--daem=auto"], {}, "auto"),
        (["structural", "--d", "auto"], {}, "use"),  # not the flag: --docs and --dry-run share the prefix
    ],
)
def test_mode_is_the_last_flag_then_the_environment_then_use(words, environ, expected) -> None:
    assert autostart.mode(words, environ) == expected


@pytest.mark.parametrize("value", [None, "", "auto", "use", "off"])
def test_the_environment_variable_may_be_unset_or_a_mode(value) -> None:
    environ = {} if value is None else {"SKILLSCOPE_DAEMON": value}
    assert autostart.misset(environ) is None


def test_any_other_value_of_the_environment_variable_is_a_usage_error(tmp_path: Path) -> None:
    make_skill(tmp_path, "alpha")
    done = run_cli(["structural"], cwd=tmp_path, environ={"SKILLSCOPE_DAEMON": "yes"})
    assert done.code == 2
    assert done.stderr == "error: $SKILLSCOPE_DAEMON is 'yes'; set it to auto, use, off, or unset it.\n"
    assert not (tmp_path / ".skillscope").exists()


def test_a_mode_that_is_not_one_is_a_usage_error_naming_the_choices(tmp_path: Path) -> None:
    done = run_cli(["--daemon", "always", "structural"], cwd=tmp_path)
    assert done.code == 2
    assert "argument --daemon: invalid choice: 'always' (choose from 'auto', 'use', 'off')" in done.stderr


def test_the_flag_parses_before_and_after_the_command(tmp_path: Path) -> None:
    make_skill(tmp_path, "alpha")
    for words in (
        ["--daemon", "off", "structural"],
        ["structural", "--daemon", "auto"],
        ["--dae", "off", "refs"],
    ):
        assert run_cli(words, cwd=tmp_path).code == 0


def test_the_settings_file_cannot_set_it(tmp_path: Path) -> None:
    make_skill(tmp_path, "alpha")
    (tmp_path / "skillscope.toml").write_text('daemon = "auto"\n', encoding="utf-8")
    done = run_cli(["structural"], cwd=tmp_path)
    assert done.code == 2
    assert done.stderr == (
        f"error: {tmp_path / 'skillscope.toml'}:1: `daemon` is not a skillscope setting; it is chosen before "
        "this file is read: set $SKILLSCOPE_DAEMON to make it last.\n"
    )


@pytest.mark.parametrize(
    ("value", "ci"), [("true", True), ("1", True), ("yes", True), ("", False), ("false", False), ("0", False)]
)
def test_ci_is_any_value_but_false_ones(value: str, ci: bool, quiet_env: dict) -> None:
    spawns = Spawns()
    assert autostart.start_behind({**quiet_env, "CI": value}, spawns) is not ci
    assert len(spawns.commands) == (0 if ci else 1)


class Spawns:
    def __init__(self, failing: bool = False) -> None:
        self.commands: list[tuple[list[str], dict]] = []
        self.failing = failing

    def __call__(self, command: list[str], environ) -> None:
        self.commands.append((command, dict(environ)))
        if self.failing:
            raise OSError("no more processes")


@pytest.fixture
def quiet_env(tmp_path: Path):
    """An environment with a runtime folder of its own, no daemon in it, and no CI."""
    with D.runtime_folder() as runtime:
        environ = {k: v for k, v in D.environ(tmp_path, runtime).items() if k != "CI"}
        yield environ


def test_a_run_a_daemon_would_serve_starts_one(quiet_env: dict) -> None:
    spawns = Spawns()
    admit = autostart.admitter(quiet_env, spawns)
    assert admit(True) is True
    assert spawns.commands == [([sys.executable, "-m", "harness", "daemon", "start"], quiet_env)]


def test_a_run_no_daemon_serves_starts_none(quiet_env: dict) -> None:
    spawns = Spawns()
    assert autostart.admitter(quiet_env, spawns)(False) is True
    assert spawns.commands == []


def test_no_start_in_ci(quiet_env: dict) -> None:
    spawns = Spawns()
    assert autostart.start_behind({**quiet_env, "CI": "true"}, spawns) is False
    assert spawns.commands == []


def test_no_start_where_no_daemon_can_listen(quiet_env: dict, tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    spawns = Spawns()
    assert autostart.start_behind({**quiet_env, "XDG_RUNTIME_DIR": str(deep)}, spawns) is False
    assert spawns.commands == []


def test_no_start_when_a_daemon_answers(quiet_env: dict, tmp_path: Path) -> None:
    path = D.socket_of(quiet_env, tmp_path)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(1)
        spawns = Spawns()
        assert autostart.start_behind(quiet_env, spawns) is False
    assert spawns.commands == []


def test_a_file_left_by_a_daemon_that_died_does_not_stop_a_start(quiet_env: dict, tmp_path: Path) -> None:
    path = D.socket_of(quiet_env, tmp_path)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(path)  # bound, never listening: what a killed daemon leaves
    spawns = Spawns()
    assert autostart.start_behind(quiet_env, spawns) is True
    assert len(spawns.commands) == 1


def test_a_start_that_fails_leaves_the_run_alone(quiet_env: dict) -> None:
    spawns = Spawns(failing=True)
    assert autostart.admitter(quiet_env, spawns)(True) is True
    assert len(spawns.commands) == 1


def test_a_usage_error_is_never_admitted(tmp_path: Path) -> None:
    asked: list[bool] = []
    code = cli.main(["structural", "--format", "nope"], admit=lambda bounded: asked.append(bounded) or True)
    assert code == 2 and asked == []


@pytest.fixture
def auto_env(tmp_path: Path):
    """A client environment without CI in a runtime folder of its own; the daemon a test's run started
    is ended by its pid."""
    with D.runtime_folder() as runtime:
        environ = {k: v for k, v in D.environ(tmp_path / "home", runtime).items() if k != "CI"}
        (tmp_path / "home").mkdir()
        yield environ
        D.end_listed(environ, tmp_path)


def test_auto_starts_a_daemon_without_holding_the_callers_pipes_and_the_next_run_is_served(
    auto_env: dict, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    alone = D.skillscope(["--daemon", "off", "structural", "--format", "text"], env=auto_env, cwd=repo)
    command = [sys.executable, "-m", "harness", "--daemon", "auto", "structural", "--format", "text"]
    # Pipes read to their end, as pre-commit reads a hook's.
    first = subprocess.run(command, env=auto_env, cwd=repo, capture_output=True, text=True, timeout=D.WAIT_S)
    assert D.steady(first.stdout) == D.steady(alone.stdout) and first.returncode == alone.returncode == 0

    up = D.status_when_up(auto_env, tmp_path)
    assert "0 run(s) served" in up and "stops after 30 min idle" in up
    second = subprocess.run(command, env=auto_env, cwd=repo, capture_output=True, text=True, timeout=D.WAIT_S)
    assert D.steady(second.stdout) == D.steady(alone.stdout) and second.returncode == 0
    after = D.skillscope(["daemon", "status"], env=auto_env, cwd=tmp_path).stdout
    assert "1 run(s) served" in after and D.pid_in(after) == D.pid_in(up)


def test_off_runs_here_though_a_daemon_listens(auto_env: dict, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    assert D.skillscope(["daemon", "start"], env=auto_env, cwd=tmp_path).returncode == 0
    assert D.skillscope(["--daemon", "off", "structural"], env=auto_env, cwd=repo).returncode == 0
    off = {**auto_env, "SKILLSCOPE_DAEMON": "off"}
    assert D.skillscope(["structural"], env=off, cwd=repo).returncode == 0
    assert "0 run(s) served" in D.skillscope(["daemon", "status"], env=auto_env, cwd=tmp_path).stdout
    assert D.skillscope(["structural"], env=auto_env, cwd=repo).returncode == 0
    assert "1 run(s) served" in D.skillscope(["daemon", "status"], env=auto_env, cwd=tmp_path).stdout


def test_the_daemon_started_is_this_installs_not_a_harness_folder_of_the_repo(
    auto_env: dict, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    make_skill(repo, "alpha")
    impostor = repo / "harness"
    impostor.mkdir()
    marker = tmp_path / "impostor-ran"
    (impostor / "__init__.py").write_text("", encoding="utf-8")
    (impostor / "__main__.py").write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    console = [
        sys.executable,
        "-c",
        "import sys; sys.path.remove(''); from harness.entry import program; program()",
    ]
    done = subprocess.run(
        [*console, "--daemon", "auto", "structural"], env=auto_env, cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "0 run(s) served" in D.status_when_up(auto_env, tmp_path)
    assert not marker.exists()
