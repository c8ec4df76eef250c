"""Codex's shell sandbox: its own where it starts; with a system bubblewrap on PATH, which cannot start it
from a throwaway CODEX_HOME, the unsandboxed mode Codex documents for such hosts, said in a note."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.agent.codex import UNSANDBOXED_NOTE, CodexAgent, sandbox_mode
from harness.agent.runtime import LocatedCLI
from tests.fakeapi import replies as R
from tests.fakeapi import write_skill
from tests.support.agents import connect_fake

PROMPT = "please convert my pdf"
# What every command of Codex's own sandbox gives back on such a host.
BWRAP_FAILURE = "bwrap: execvp codex-linux-sandbox: No such file or directory"


def failing_bwrap(folder: Path) -> Path:
    """A `bwrap` that passes Codex's probes as bubblewrap 0.8 does, then fails every command as the
    system one does under Codex's sandbox, leaving a mark."""
    folder.mkdir(parents=True)
    script = folder / "bwrap"
    script.write_text(
        "#!/bin/sh\n"
        # Codex takes a system bwrap whose help offers these two, else it uses its own bundled one.
        'if [ "$1" = --help ]; then printf "    --as-pid-1\\n    --perms OCTAL\\n"; exit 0; fi\n'
        "for last; do :; done\n"
        '[ "$last" = /usr/bin/true ] && exit 0  # the user-namespace probe\n'
        f'touch "{folder}/ran"\n'
        f'echo "{BWRAP_FAILURE}" >&2\n'
        "exit 1\n"
    )
    script.chmod(0o755)
    return folder


def bwrap_folder(tmp_path: Path) -> Path:
    """The folder of the system's bubblewrap where it is installed, else of a failing stand-in."""
    system = shutil.which("bwrap")
    return Path(system).parent if system else failing_bwrap(tmp_path / "bwrap-bin")


def routing_command(tmp_path: Path, path: str) -> tuple[list[str], list[str]]:
    """argv and notes of a routing run (no writes) of Codex with this PATH; nothing is started."""
    home = tmp_path / "home"
    home.mkdir()
    agent = CodexAgent(LocatedCLI("codex", "0.169.0"), {"PATH": path})
    argv, _, notes = agent.command(RunSpec(PROMPT, tmp_path), home)
    return argv, notes


@pytest.mark.parametrize(("writes", "mode"), [(False, "read-only"), (True, "workspace-write")])
def test_without_bwrap_on_path_codex_keeps_its_own_sandbox(tmp_path, writes, mode):
    assert sandbox_mode(writes, str(tmp_path)) == mode  # an empty folder: no bwrap on this PATH


def test_routing_runs_read_only_and_says_nothing_of_the_sandbox_without_bwrap(tmp_path):
    argv, notes = routing_command(tmp_path, str(tmp_path))
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert UNSANDBOXED_NOTE not in notes


def test_with_bwrap_on_path_codex_runs_unsandboxed_and_the_note_says_so(tmp_path):
    argv, notes = routing_command(tmp_path, str(failing_bwrap(tmp_path / "bin")))
    assert argv[argv.index("--sandbox") + 1] == "danger-full-access"
    assert UNSANDBOXED_NOTE in notes


@pytest.mark.agent_cli  # the real Codex CLI, found without the CLI fixtures
def test_codexs_shell_reads_the_skill_with_bwrap_on_path(fake_api, tmp_path, monkeypatch):
    folder = bwrap_folder(tmp_path)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    agent = connect_fake("codex", fake_api.base_url, "", tmp_path / "agent")
    room = {
        "pdf-tools": write_skill(tmp_path / "repo", "pdf-tools", "Work with PDF files.", "# PDF\nSay PDF.\n")
    }
    fake_api.script({PROMPT: [R.skill_for("codex", "pdf-tools"), "finished"]})
    with agent.workspace(room) as workspace:
        trace = agent.run(
            RunSpec(PROMPT, workspace, model="fake-model", timeout_s=300, stop=stop_at_decision(4, 8))
        )
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    # Confirmed: the `cat` of SKILL.md exited 0, so the shell ran it.
    assert trace.decision is not None and (trace.decision.name, trace.decision.confirmed) == (
        "pdf-tools",
        True,
    )
    assert UNSANDBOXED_NOTE in trace.notes
    assert not (folder / "ran").exists()  # the stand-in, where it is the one, was never run
