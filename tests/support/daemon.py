"""A real `skillscope daemon` for the tests: started in the foreground as the test's own child, in a
runtime folder of its own (kept short: a Unix socket's path is limited), and ended by its pid."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness.daemon import client

# What differs from one run to the next of the same command: times and the report's timestamped name.
VOLATILE = re.compile(r'\(\d+(\.\d+)?s\)|\d+\.\d+ ?s\b|runs/[\w.-]+\.json|"(started_at|elapsed_s)": ?[^,\n]+')
LISTENING = re.compile(r"^listening: .* at (\S+\.sock): ")
WAIT_S = 120  # for a daemon to leave once told to: generous, a loaded machine is slow, never fast


@dataclass
class Daemon:
    process: subprocess.Popen
    path: str

    def status(self) -> dict | None:
        return client.ask(self.path, "status")

    def served(self) -> int:
        state = self.status()
        assert state is not None, "the daemon stopped answering"
        return state["runs"]


def steady(text: str) -> str:
    return VOLATILE.sub("T", text)


@contextmanager
def runtime_folder() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="ssd-", dir=os.environ.get("TMPDIR") or "/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def environ(home: Path, runtime: Path, **extra: str) -> dict[str, str]:
    """The test's environment with its own home and runtime folder: the daemon's key and folder."""
    # Waiting as long as a loaded machine needs: a test says when the client's patience matters.
    inherited = {k: v for k, v in os.environ.items() if k != "SKILLSCOPE_DAEMON"}  # a test gives its own
    return {
        **inherited,
        "HOME": str(home),
        "XDG_RUNTIME_DIR": str(runtime),
        "SKILLSCOPE_DAEMON_WAIT": str(WAIT_S),
        "TZ": "UTC",
        **extra,
    }


def start(env: dict[str, str], *args: str) -> Daemon:
    process = subprocess.Popen(
        [sys.executable, "-m", "harness", "daemon", "run", *args],
        env=env,
        cwd=env["HOME"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    found = LISTENING.match(line)
    if found is None:
        process.kill()
        process.wait()
        raise AssertionError(f"the daemon did not start: {line}{process.stderr.read()}")
    return Daemon(process, found.group(1))


def end(daemon: Daemon) -> int:
    """Its exit code, after SIGTERM if it still runs."""
    if daemon.process.poll() is None:
        daemon.process.terminate()
    code = daemon.process.wait(timeout=WAIT_S)
    daemon.process.stdout.close()
    daemon.process.stderr.close()
    return code


def skillscope(
    args: Sequence[str], *, env: dict[str, str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess:
    """The `skillscope` command as a user runs it: a process of its own, which a daemon may serve."""
    return subprocess.run(
        [sys.executable, "-m", "harness", *args],
        env=env,
        cwd=cwd,
        input=stdin or "",
        capture_output=True,
        text=True,
        check=False,
    )


def asked(env: dict[str, str], cwd: Path, expression: str) -> object:
    """`expression` over harness.daemon.address, worked out by a process with `env` in `cwd` as a
    client would (the installed harness may live elsewhere than the one this test imported)."""
    code = f"import json, os; from harness.daemon import address; print(json.dumps({expression}))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def socket_of(env: dict[str, str], cwd: Path) -> str:
    """Where a client run with `env` looks for its daemon."""
    return asked(env, cwd, "address.socket_path(os.environ)")


def request_of(env: dict[str, str], cwd: Path, argv: list[str]) -> dict:
    """A run request as a client with `env` in `cwd` sends it."""
    return {
        "argv": argv,
        "cwd": str(cwd),
        "environ": env,
        "key": asked(env, cwd, "address.key_fields(os.environ)"),
        "tty": [False, False, False],
        "umask": 0o022,
    }


def pid_in(text: str) -> int | None:
    """The pid a `daemon start` or `daemon status` line names."""
    found = re.search(r"\(pid (\d+)\)", text)
    return int(found.group(1)) if found else None


def status_when_up(env: dict[str, str], cwd: Path) -> str:
    """`daemon status` once a daemon started in the background (by `--daemon auto`) answers."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        done = skillscope(["daemon", "status"], env=env, cwd=cwd)
        if done.returncode == 0:
            return done.stdout
        time.sleep(0.1)
    raise AssertionError(f"no daemon answered within {WAIT_S} s")


def end_listed(env: dict[str, str], cwd: Path) -> None:
    """End the daemon `daemon status` names, if any, by its pid: one a test started without holding it."""
    pid = pid_in(skillscope(["daemon", "status"], env=env, cwd=cwd).stdout)
    if pid is not None:
        os.kill(pid, signal.SIGTERM)
