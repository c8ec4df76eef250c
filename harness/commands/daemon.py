"""`skillscope daemon`: keep the harness resident, so that each hook call skips its start-up.

`start` leaves a daemon in the background for this install (this Python, this harness, this user
cache); from then on `skillscope structural`, `refs`, `select`, `list-skills`, `routing --engine
lexical` and `show` hand their run to it and print what it answers, exactly as if run in-process. It
stops after --idle minutes without a run, on `stop`, or when the harness's code changes.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from harness.context import Context
from harness.daemon import address, client
from harness.errors import HarnessError, UsageError

HELP = "keep skillscope resident so each hook call skips start-up: start, stop, status"
ACTIONS = ("start", "stop", "status", "run")
DEFAULT_IDLE_MIN = 30.0
MAX_IDLE_MIN = 525_600
WAIT_S = 60.0  # for a daemon to answer after start, or to leave after stop, on a loaded machine
POLL_S = 0.05


def minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_IDLE_MIN:  # NaN and infinity fail here too
        raise argparse.ArgumentTypeError(
            f"--idle takes a number of minutes above 0 and at most {MAX_IDLE_MIN} (a year), got '{text}'"
        )
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=ACTIONS,
        help="start one in the background; stop it; print its status (exit 1 when none runs); "
        "run: serve in the foreground until stopped (for a supervisor)",
    )
    parser.add_argument(
        "--idle",
        type=minutes,
        default=DEFAULT_IDLE_MIN,
        metavar="MINUTES",
        help=f"stop after this many minutes without a run (default: {DEFAULT_IDLE_MIN:g})",
    )


def run(args: argparse.Namespace, ctx: Context) -> int:
    why = address.unusable(ctx.environ)
    if why is not None:
        raise UsageError(f"no daemon here: {why}.")
    path = address.socket_path(ctx.environ)
    return {"start": start, "stop": stop, "status": status, "run": serve}[args.action](args, ctx, path)


def describe(state: dict) -> str:
    up = time.time() - state["started"]
    return (
        f"skillscope daemon {state['version']} (pid {state['pid']}) at {state['socket']}: up {up:.0f} s, "
        f"{state['runs']} run(s) served, stops after {state['idle_s'] / 60:g} min idle"
    )


def status(args: argparse.Namespace, ctx: Context, path: str) -> int:
    state = client.ask(path, "status")
    if state is None:
        ctx.out(f"no daemon runs for this install; `skillscope daemon start` starts one (at {path})")
        return 1
    ctx.out(describe(state))
    return 0


def stop(args: argparse.Namespace, ctx: Context, path: str) -> int:
    state = client.ask(path, "stop")
    if state is None:
        ctx.out("no daemon runs for this install; nothing to stop")
        return 0
    deadline = time.monotonic() + WAIT_S
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(POLL_S)
    ctx.out(f"stopped the skillscope daemon (pid {state['pid']}, {state['runs']} run(s) served)")
    return 0


def start(args: argparse.Namespace, ctx: Context, path: str) -> int:
    state = client.ask(path, "status")
    if state is not None:
        ctx.out(f"already running: {describe(state)}")
        return 0
    folder = private_folder(path)
    log = Path(path).with_suffix(".log")
    command = [sys.executable, "-m", "harness", "daemon", "run", "--idle", f"{args.idle:g}"]
    with open(log, "ab") as out:
        child = subprocess.Popen(  # noqa: S603 - this Python running this harness
            command,
            cwd=folder,
            env=ctx.environ,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,  # a terminal's Ctrl-C or a closed hook session does not reach it
        )
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        state = client.ask(path, "status")
        if state is not None:
            ctx.out(f"started: {describe(state)}")
            return 0
        if child.poll() is not None:
            raise HarnessError(f"the daemon exited as it started ({last_line(log)}); its log is {log}.")
        time.sleep(POLL_S)
    raise HarnessError(f"the daemon (pid {child.pid}) did not answer within {WAIT_S:g} s; its log is {log}.")


def serve(args: argparse.Namespace, ctx: Context, path: str) -> int:
    from harness.daemon.server import Daemon, Taken

    private_folder(path)
    daemon = Daemon(path, address.key_fields(ctx.environ), args.idle * 60, log=ctx.out)
    signal.signal(signal.SIGTERM, leave)  # this process is the daemon: a plain kill removes its socket
    try:
        daemon.serve(lambda state: ctx.out(f"listening: {describe(state)}"))
    except Taken:  # another start won the race
        raise HarnessError(f"a daemon already answers at {path}; `skillscope daemon stop` ends it.") from None
    ctx.out(f"stopped after {daemon.served} run(s)")
    return 0


def leave(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def private_folder(path: str) -> str:
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if not address.private(folder):
        raise HarnessError(
            f"{folder} is not a folder only you can open, so a daemon there could be reached by others; "
            "remove it, or set XDG_RUNTIME_DIR to a private folder."
        )
    return folder


def last_line(log: Path) -> str:
    try:
        lines = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    except OSError:
        return "no log"
    return lines[-1] if lines else "nothing logged"
