"""Cancellation as CI does it: SIGINT or SIGTERM to a running `skillscope routing|behavioral` (a real
process driving the real claude CLI against the scripted API). No new case starts, every agent is
killed, the report of the finished cases is written with the `interrupted` mark, the exit code is
130 or 143, and nothing is left behind: no process, no temp dir. SIGINT or SIGTERM while external
links are fetched sends no further request and still writes the report. Each holds for a command
started with SIGINT ignored, as a non-interactive shell starts a background job: the signal is
handled all the same.

Nothing here waits on the clock: the signal goes out once the fake API holds the hanging requests.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import weakref
from pathlib import Path

import pytest

from tests.fakeapi import replies as R
from tests.support.behavioral import SCENARIOS, writer_passes
from tests.support.helpers import make_skill
from tests.support.linkserver import serving
from tests.support.procs import tagged
from tests.support.routing import CaseRouter, prompt_of, skills_repo

TAG = "SKILLSCOPE_TEST_RUN"
WAIT_S = 300  # a bound on a broken run, never a measure of speed


class Launched:
    """`python -m harness ...` in its own process, with a private TMPDIR and a tag every child inherits."""

    def __init__(self, tmp: Path, env: dict[str, str], args: list[str], program: tuple[str, ...] = ()):
        # Short, not under tmp_path: claude's shell sandbox makes unix sockets in TMPDIR, and under
        # pytest-xdist's longer tmp_path it fails with "Failed to create bridge sockets".
        self.tmp = Path(tempfile.mkdtemp(prefix="sig-"))
        weakref.finalize(self, shutil.rmtree, self.tmp, True)
        self.tag = uuid.uuid4().hex
        self.report, self.junit = tmp / "report.json", tmp / "junit.xml"
        full = {**env, "TMPDIR": str(self.tmp), TAG: self.tag}
        argv = [
            *(program or (sys.executable, "-m", "harness")),
            *args,
            "--output",
            str(self.report),
            "--junit",
            str(self.junit),
        ]
        self.proc = subprocess.Popen(
            argv, env=full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )

    def stop_with(self, signum: int) -> tuple[int, str, str]:
        self.proc.send_signal(signum)
        return self.finished()

    def finished(self) -> tuple[int, str, str]:
        try:
            stdout, stderr = self.proc.communicate(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()  # a run that never ended fails its test, and is not left behind
            self.proc.communicate()
            raise
        return self.proc.returncode, stdout, stderr

    def left_behind(self) -> tuple[list[int], list[str]]:
        return tagged(TAG, self.tag), sorted(p.name for p in self.tmp.glob("skillscope-*"))


def in_flight(api, *prompts: str) -> threading.Event:
    """Set once the API holds a request for each prompt (a hanging reply keeps it there)."""
    arrived = threading.Event()

    def watch():
        while not arrived.is_set():
            seen = " ".join(r.prompt for r in api.agent_turns())
            if all(p in seen for p in prompts):
                arrived.set()
            elif api.stopping.wait(0.05):
                return

    threading.Thread(target=watch, daemon=True).start()
    return arrived


# A background job of a non-interactive shell (`skillscope refs &` in a script) starts with SIGINT
# ignored, and so does every process it starts: this wrapper sets that, then execs the command.
IGNORING_SIGINT = (
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.argv[1], sys.argv[1:])",
)
HARNESS = (sys.executable, "-m", "harness")


def env_for(fake_env: dict[str, str], claude_bin: str) -> dict[str, str]:
    return {**fake_env, "SKILLSCOPE_CLAUDE": claude_bin}


# Mid-run, one signal per command: either sets the same cancellation and the agents are ended alike;
# each command's exit code and report mark for both signals are the stuck-digest tests' (no agent run).
@pytest.mark.parametrize(("signum", "code", "name"), [(signal.SIGINT, 130, "SIGINT")])
def test_a_signal_mid_routing_reports_the_finished_cases(
    signum, code, name, fake_api, fake_env, claude_bin, tmp_path
):
    repo = skills_repo(tmp_path / "repo", "alpha")
    fake_api.script(
        CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-2": R.hang(), "alpha-pos-3": R.hang()})
    )
    hanging = in_flight(fake_api, prompt_of("alpha-pos-2"), prompt_of("alpha-pos-3"))
    run = Launched(
        tmp_path,
        env_for(fake_env, claude_bin),
        [
            "routing",
            "--repo",
            str(repo),
            "--routing-room",
            "alpha",
            "--skip-preflight",
            "--jobs",
            "2",
            "--only",
            "alpha-pos-1,alpha-pos-2,alpha-pos-3,alpha-neg-1,alpha-neg-2",
        ],
    )
    assert hanging.wait(WAIT_S), run.proc.stderr.read() if run.proc.poll() is not None else "no requests"
    exit_code, stdout, stderr = run.stop_with(signum)
    assert exit_code == code, stderr
    report = json.loads(run.report.read_text())
    assert report["meta"]["interrupted"] == name and report["meta"]["unfinished"] == 4
    assert [c["id"] for c in report["cases"]] == ["alpha-pos-1"] and report["passed"] is False
    assert f"Interrupted by {name}" in stdout
    assert "(interrupted)" in run.junit.read_text() and f"Interrupted by {name}" in run.junit.read_text()
    started = {r.prompt for r in fake_api.agent_turns()}
    assert not any(prompt_of(f"alpha-neg-{n}") in p for p in started for n in (1, 2))  # none started after
    assert run.left_behind() == ([], [])


@pytest.mark.parametrize(("signum", "code", "name"), [(signal.SIGTERM, 143, "SIGTERM")])
def test_a_signal_mid_behavioral_reports_the_finished_cases(
    signum, code, name, fake_api, fake_env, claude_bin, tmp_path
):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    fake_api.script({**writer_passes(), "slow server": [R.hang()]})
    hanging = in_flight(fake_api, "slow server")
    run = Launched(
        tmp_path,
        env_for(fake_env, claude_bin),
        [
            "behavioral",
            "--repo",
            str(repo),
            "--skills-dir",
            "*",
            "--skip-preflight",
            "--model",
            "claude-fake-1",
            "--only",
            "report-writer-pass,report-writer-hang,report-writer-outside",
        ],
    )
    assert hanging.wait(WAIT_S), "the hanging case never reached the API"
    exit_code, stdout, stderr = run.stop_with(signum)
    assert exit_code == code, stderr
    report = json.loads(run.report.read_text())
    assert report["meta"]["interrupted"] == name and report["meta"]["unfinished"] == 2
    assert [(c["id"], c["status"]) for c in report["cases"]] == [("report-writer-pass", "pass")]
    assert f"Interrupted by {name}" in stdout and "(interrupted)" in run.junit.read_text()
    assert not any("weekly report was written on" in r.prompt for r in fake_api.agent_turns())
    assert run.left_behind() == ([], [])


@pytest.mark.parametrize(
    ("signum", "code", "why", "program"),
    [
        pytest.param(signal.SIGINT, 130, "interrupted (Ctrl-C) first", HARNESS, id="SIGINT"),
        pytest.param(
            signal.SIGINT,
            130,
            "interrupted (Ctrl-C) first",
            (*IGNORING_SIGINT, *HARNESS),
            id="SIGINT-inherited-ignored",
        ),
        pytest.param(signal.SIGTERM, 143, "stopped (SIGTERM) first", HARNESS, id="SIGTERM"),
    ],
)
@pytest.mark.parametrize("command", [["refs"], ["structural", "--external"]], ids=["refs", "structural"])
def test_ctrl_c_mid_fetch_sends_no_more_requests_and_reports_the_rest_unchecked(
    tmp_path: Path, command, signum, code, why, program
):
    # One host of twelve URLs, answered one at a time: before, Ctrl-C waited for the whole chain and
    # sent every request; started with SIGINT ignored, it was not stopped at all, and SIGTERM ended it
    # with no report. The signal goes out while the second request is held at the host, and the host
    # answers it only once the command has said it took the signal: no third request can start.
    with serving("127.0.0.1") as ([server], _):
        server.held_from = 2
        urls = [server.url(f"/page/{n}") for n in range(12)]
        body = "# Links\n\n" + "".join(f"- [page {n}]({url})\n" for n, url in enumerate(urls))
        make_skill(tmp_path / "repo", "linker", body=body)
        report, errors = tmp_path / "report.json", tmp_path / "stderr.txt"
        argv = [*program, *command, "--repo", str(tmp_path / "repo"), "--output", str(report)]
        with errors.open("w", encoding="utf-8") as stderr_file:
            proc = subprocess.Popen(
                argv, env=dict(os.environ), stdout=subprocess.PIPE, stderr=stderr_file, text=True
            )
            assert until(lambda: len(server.requests) >= 2, proc), errors.read_text(encoding="utf-8")
            proc.send_signal(signum)
            until(lambda: "received" in errors.read_text(encoding="utf-8"), proc)
            server.release.set()
            stdout, _ = proc.communicate(timeout=WAIT_S)
        sent = len(server.requests)

    stderr = errors.read_text(encoding="utf-8")
    assert proc.returncode == code, stderr
    assert stderr == (
        f"[{command[0]}] {signal.Signals(signum).name} received: no further request is sent; waiting for "
        "the requests in flight (a second signal stops waiting, and writes no report).\n"
        "error: interrupted; the report lists the URLs left unchecked.\n"
    )
    assert sent == 2  # the request held when the signal came ended on its own; no new one started
    unchecked = [
        f for f in json.loads(report.read_text(encoding="utf-8"))["findings"] if f["rule"] == "ref-unchecked"
    ]
    assert len(unchecked) == 12 - sent
    assert all(why in f["message"] and "run the command again" in f["message"] for f in unchecked)
    assert "ref-unchecked" in stdout


def until(condition, proc: subprocess.Popen) -> bool:
    """Whether `condition` came true while `proc` ran (False when it ended first, or the bound on a
    broken run ran out)."""
    deadline = time.monotonic() + WAIT_S
    while not condition() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return bool(condition())


def test_a_named_pipe_in_a_skill_folder_stops_no_agent_routing_run(fake_api, fake_env, claude_bin, tmp_path):
    # Before, the room's digest (the result cache's key) opened the pipe and waited for a writer forever.
    # Structural has no finding for an unlinked pipe, so nothing stopped the run before that read.
    repo = skills_repo(tmp_path / "repo", "alpha")
    os.mkfifo(repo / "alpha" / "feed")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    only = ["--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1"]
    run = Launched(tmp_path, env_for(fake_env, claude_bin), ["routing", "--repo", str(repo), *only])
    exit_code, _, stderr = run.finished()
    assert exit_code == 1, stderr
    report = json.loads(run.report.read_text())
    assert report["meta"]["interrupted"] is None
    # The pipe cannot be installed for the agent: the case is an error naming it, never a grade.
    [case] = report["cases"]
    error = case["samples"][0]["error"]
    assert case["status"] == "error" and "alpha/feed" in error
    assert "named pipe (FIFO), not a regular file; replace it with a plain file or remove it" in error
    assert not any(prompt_of("alpha-pos-1") in r.prompt for r in fake_api.agent_turns())
    assert run.left_behind() == ([], [])


def test_a_named_pipe_in_a_skills_evals_folder_stops_no_behavioral_run(
    fake_api, fake_env, claude_bin, tmp_path
):
    # The skill folder's digest (the cache key) and the ledger's file digests read evals/ too, which the
    # agent's workspace leaves out: the case is graded, and the pipe is recorded by what it is.
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    os.mkfifo(repo / "report-writer" / "evals" / "feed")
    fake_api.script(writer_passes())
    args = [
        "behavioral",
        "--repo",
        str(repo),
        "--skills-dir",
        "*",
        "--skip-preflight",
        "--model",
        "claude-fake-1",
    ]
    run = Launched(tmp_path, env_for(fake_env, claude_bin), [*args, "--only", "report-writer-pass"])
    exit_code, _, stderr = run.finished()
    assert exit_code == 0, stderr
    report = json.loads(run.report.read_text())
    assert [(c["id"], c["status"]) for c in report["cases"]] == [("report-writer-pass", "pass")]
    assert "report-writer/evals/feed" in report["meta"]["ledger"]["files"]
    assert run.left_behind() == ([], [])


# `skillscope` with its digest of a skill folder stuck in a read that never returns, as a read of a hung
# network mount does: the marker says the read has begun, and no writer ever opens the pipe.
STUCK_DIGEST = """
import os, sys
from harness.cli import main
from harness.model import digests

marker, pipe = sys.argv[1], sys.argv[2]

def stuck(*args, **kwargs):
    open(marker, "w").close()
    os.open(pipe, os.O_RDONLY)
    raise AssertionError("a writer opened the pipe")

digests.tree_digest = stuck
sys.exit(main(sys.argv[3:]))
"""


def stuck_digest(tmp_path: Path) -> tuple[Path, tuple[str, ...]]:
    marker, pipe = tmp_path / "digesting", tmp_path / "never-written"
    os.mkfifo(pipe)
    return marker, (sys.executable, "-c", STUCK_DIGEST, str(marker), str(pipe))


def reached(marker: Path, run: Launched) -> bool:
    """Whether the run got to `marker` (False when it ended first, or the bound on a broken run ran out)."""
    deadline = time.monotonic() + WAIT_S
    while not marker.exists() and run.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    return marker.exists()


# The paid commands as a background job would start them, SIGINT ignored: each one's handlers are
# installed all the same (routing's and behavioral's stand for every command under harness.cancel).
STOPS_ANY_START = [
    pytest.param(signal.SIGINT, 130, "SIGINT", (), id="SIGINT"),
    pytest.param(signal.SIGINT, 130, "SIGINT", IGNORING_SIGINT, id="SIGINT-inherited-ignored"),
    pytest.param(signal.SIGTERM, 143, "SIGTERM", (), id="SIGTERM"),
]


@pytest.mark.parametrize(("signum", "code", "name", "started_by"), STOPS_ANY_START)
def test_a_signal_ends_a_routing_run_stuck_digesting_its_room(
    signum, code, name, started_by, fake_api, fake_env, claude_bin, tmp_path
):
    repo = skills_repo(tmp_path / "repo", "alpha")
    fake_api.script(CaseRouter({}))
    marker, program = stuck_digest(tmp_path)
    only = ["--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1,alpha-neg-1"]
    args = ["routing", "--repo", str(repo), *only]
    run = Launched(tmp_path, env_for(fake_env, claude_bin), args, (*started_by, *program))
    assert reached(marker, run), run.finished()
    exit_code, stdout, stderr = run.stop_with(signum)
    assert exit_code == code, stderr
    report = json.loads(run.report.read_text())
    assert report["meta"]["interrupted"] == name and report["meta"]["unfinished"] == 2
    assert report["cases"] == [] and report["passed"] is False
    assert f"Interrupted by {name}" in stdout
    assert not any("variant 1." in r.prompt for r in fake_api.agent_turns())  # no case started after
    assert run.left_behind() == ([], [])


@pytest.mark.parametrize(("signum", "code", "name", "started_by"), STOPS_ANY_START)
def test_a_signal_ends_a_behavioral_run_stuck_digesting_its_skill(
    signum, code, name, started_by, fake_api, fake_env, claude_bin, tmp_path
):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    fake_api.script(writer_passes())
    marker, program = stuck_digest(tmp_path)
    args = [
        "behavioral",
        "--repo",
        str(repo),
        "--skills-dir",
        "*",
        "--skip-preflight",
        "--model",
        "claude-fake-1",
    ]
    only = [*args, "--only", "report-writer-pass"]
    run = Launched(tmp_path, env_for(fake_env, claude_bin), only, (*started_by, *program))
    assert reached(marker, run), run.finished()
    exit_code, stdout, stderr = run.stop_with(signum)
    assert exit_code == code, stderr
    report = json.loads(run.report.read_text())
    assert report["meta"]["interrupted"] == name and report["meta"]["unfinished"] == 1
    assert report["cases"] == [] and f"Interrupted by {name}" in stdout
    assert not any("status report" in r.prompt for r in fake_api.agent_turns())
    assert run.left_behind() == ([], [])
