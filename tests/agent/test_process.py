"""A run's processes die with it, even a grandchild that left the process group with setsid.

The agent is a script that starts `setsid sleep 300` and then becomes the real claude CLI (or hangs):
the sleeper is in a session of its own, so killing the CLI's group alone would leave it running.
"""

from __future__ import annotations

import os
import stat
import time
import uuid
from pathlib import Path

import pytest

from harness.agent import ClaudeAgent, LocatedCLI, RunSpec, locate, process, stage_workspace
from harness.agent.process import capture
from tests.fakeapi import replies as R
from tests.support.procs import tagged

TAG = "SKILLSCOPE_TEST_RUN"  # the test's own mark: every process of the run inherits it


def detaching(directory: Path, then: str) -> Path:
    """A stand-in for claude that first starts a sleeper in its own session, writing down its pid."""
    script = directory / "claude"
    pids = directory / "sleepers"
    script.write_text(f'#!/bin/sh\nsetsid sleep 300 &\necho $! >> "{pids}"\n{then}\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def sleepers(directory: Path) -> list[int]:
    return [int(line) for line in (directory / "sleepers").read_text().split()]


def alive(pid: int) -> bool:
    """Whether `pid` still runs a while after its kill: a killed process ends only when the kernel next runs
    it, which a busy host delays, so a live one is looked at again for up to 10 s before it counts."""
    deadline = time.monotonic() + 10
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    return running(pid)


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def run_behind_detaching_wrapper(tmp_path: Path, claude_bin: str, claude_cli: LocatedCLI, marked: dict):
    """One run of the real CLI started by `detaching`, so that it leaves a sleeper behind."""
    wrapper = detaching(tmp_path, f'exec "{claude_bin}" "$@"')
    cli = LocatedCLI(str(wrapper), claude_cli.version, claude_cli.optional_flags)
    temp_root = tmp_path / "runs"
    temp_root.mkdir()
    with stage_workspace({}, temp_root) as workspace:
        spec = RunSpec("say done", workspace, model="claude-fake-1", timeout_s=60)
        return ClaudeAgent(cli, marked, temp_root).run(spec)


@pytest.fixture
def marked(fake_env) -> dict[str, str]:
    return {**fake_env, TAG: uuid.uuid4().hex}


def test_a_grandchild_in_its_own_session_dies_with_the_real_clis_run(
    fake_api, claude_bin, claude_cli, marked, tmp_path
):
    fake_api.script(["All done."])
    trace = run_behind_detaching_wrapper(tmp_path, claude_bin, claude_cli, marked)
    assert trace.error is None and trace.final_message == "All done."
    (sleeper,) = sleepers(tmp_path)
    assert os.getsid(os.getpid()) != sleeper  # it did leave: a session of its own
    assert not alive(sleeper)
    assert tagged(TAG, marked[TAG]) == []


def test_a_grandchild_in_its_own_session_dies_when_a_hanging_run_times_out(marked, tmp_path):
    script = detaching(tmp_path, "sleep 600")
    temp_root = tmp_path / "runs"
    temp_root.mkdir()
    cli = LocatedCLI(str(script), "9.8.7", frozenset())
    with stage_workspace({}, temp_root) as workspace:
        trace = ClaudeAgent(cli, marked, temp_root).run(RunSpec("prompt", workspace, timeout_s=1))
    assert trace.stop_reason == "timeout"
    assert [alive(pid) for pid in sleepers(tmp_path)] == [False]
    assert tagged(TAG, marked[TAG]) == []


def test_the_version_and_help_probes_leave_no_detached_grandchild(claude_bin, marked, tmp_path):
    wrapper = detaching(tmp_path, f'exec "{claude_bin}" "$@"')
    found = locate(str(wrapper), marked)
    assert found.version and len(sleepers(tmp_path)) == 2  # --version, then --help
    assert [alive(pid) for pid in sleepers(tmp_path)] == [False, False]
    assert tagged(TAG, marked[TAG]) == []


def test_capture_kills_a_detached_grandchild_whose_parent_already_exited(marked, tmp_path):
    # The parent exits at once: the sleeper is nobody's child of ours, only its inherited tag says whose.
    script = detaching(tmp_path, "echo out")
    done = capture([str(script)], env=marked, timeout_s=30)
    assert (done.code, done.stdout) == (0, "out\n")
    assert [alive(pid) for pid in sleepers(tmp_path)] == [False]
    assert tagged(TAG, marked[TAG]) == []


def test_a_fault_reply_still_leaves_nothing(fake_api, claude_bin, claude_cli, marked, tmp_path):
    fake_api.script([R.error(529)])
    trace = run_behind_detaching_wrapper(tmp_path, claude_bin, claude_cli, marked)
    assert trace.failure is not None
    assert tagged(TAG, marked[TAG]) == []


@pytest.fixture
def table_reads(monkeypatch) -> list[int]:
    """One entry per read of the process table from now on."""
    read: list[int] = []
    table = process.process_table

    def counted() -> dict[int, tuple[int, int, int]]:
        read.append(1)
        return table()

    monkeypatch.setattr(process, "process_table", counted)
    return read


def test_a_run_that_ended_with_its_whole_group_reads_the_process_table_once(table_reads, marked):
    read = table_reads
    child = process.Child(["true"], cwd=None, env=marked, stdin=b"")
    assert child.wait(30) == 0
    assert child.kill_group() == 0
    assert len(read) == 1  # nothing of the run was left, so nothing could have started since


def test_a_run_whose_detached_grandchild_was_found_is_searched_again(
    table_reads, marked, tmp_path, monkeypatch
):
    read = table_reads
    awaited: list[set[tuple[int, int]]] = []
    wait_gone = process.wait_gone
    monkeypatch.setattr(
        process, "wait_gone", lambda found, timeout_s: (awaited.append(found), wait_gone(found, timeout_s))
    )
    child = process.Child([str(detaching(tmp_path, "echo out"))], cwd=None, env=marked, stdin=b"")
    assert child.wait(30) == 0
    child.kill_group()
    assert len(read) == 2
    # The kill waited for what it signalled: the sleeper, or nothing when the kill came before the sleeper
    # left the group (then the group's signal took it).
    assert len(awaited) == 1 and {pid for pid, _ in awaited[0]} <= set(sleepers(tmp_path))
    assert [alive(pid) for pid in sleepers(tmp_path)] == [False]
    assert tagged(TAG, marked[TAG]) == []


def test_the_wait_for_killed_strays_returns_once_each_is_gone_and_never_for_a_reused_pid(monkeypatch):
    # A SIGKILLed process lingers until the kernel next runs it: here pid 101 for three more looks.
    looks = {101: 3}
    reads: list[int] = []

    def stat(pid: int) -> tuple[int, int, int] | None:
        reads.append(pid)
        if pid == 202:
            return (1, 1, 999)  # the pid now belongs to a process started later: not the one killed
        if looks.get(pid, 0) > 0:
            looks[pid] -= 1
            return (1, 1, 7)
        return None

    monkeypatch.setattr(process, "read_stat", stat)
    process.wait_gone({(101, 7), (202, 8)}, timeout_s=60)
    assert looks[101] == 0 and reads.count(101) == 4 and reads.count(202) == 1
