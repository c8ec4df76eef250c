"""A `skillscope daemon` for the benchmarks that time runs it serves.

Imported by the benchmark scripts as a sibling. `served` fails the benchmark when the daemon did not
serve the run (a refusal would leave an in-process figure under the daemon's name), and gives the CPU
the daemon spent on it (its workers' included), to add to the client's.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

Result = TypeVar("Result")


def daemon(action: str, environ: dict[str, str]) -> None:
    command = [sys.executable, "-m", "harness", "daemon", action]
    subprocess.run(command, env=environ, stdout=subprocess.DEVNULL, check=True)


@contextmanager
def running(environ: dict[str, str]) -> Iterator[None]:
    """A daemon for clients with `environ` (give it a runtime folder of its own, so that it serves
    only the runs meant for it)."""
    daemon("start", environ)
    try:
        yield
    finally:
        daemon("stop", environ)


def state(environ: dict[str, str]) -> tuple[float, int]:
    """The CPU seconds the daemon has spent so far, as it reports them, and the runs it served."""
    from harness.daemon import address, client

    status = client.ask(address.socket_path(environ), "status")
    if status is None:
        raise SystemExit("the daemon stopped answering")
    return status["cpu_s"], status["runs"]


def answering(environ: dict[str, str], wait_s: float = 60.0) -> tuple[float, int]:
    """`state` once a daemon started in the background (by `--daemon auto`) answers."""
    from harness.daemon import address, client

    deadline = time.monotonic() + wait_s
    while client.ask(address.socket_path(environ), "status") is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"no daemon answered within {wait_s:g} s of a --daemon auto run")
        time.sleep(0.05)
    return state(environ)


def served(environ: dict[str, str], run: Callable[[], Result]) -> tuple[Result, float]:
    """What `run` returned, and the daemon's CPU seconds for the one run it must have served."""
    spent, runs = state(environ)
    result = run()
    now, served_runs = state(environ)
    if served_runs != runs + 1:
        raise SystemExit("the daemon did not serve the run: its figures would be of an in-process run")
    return result, now - spent
