"""The real claude's sandbox probe is started once per machine: a later run reads the kept verdict until
the CLI, a program the sandbox needs on PATH, the kernel or the settings change; a sandbox that is off
is probed on every run; a kept verdict never hides what a run's own CLI says. The rules for any change
of the key, with a stub probe: tests/agent/test_probes.py."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from harness.agent import ClaudeAgent, LocatedCLI, RunSpec, stage_workspace
from harness.agent.probes import AVAILABLE, PROBES, SANDBOX, ProbeCache
from tests.fakeapi import replies as R
from tests.support.sandbox import path_without, require_bubblewrap

MODEL = "claude-fake-1"


def counting(claude_cli: LocatedCLI, folder: Path, note: str = "") -> LocatedCLI:
    """`claude_cli` behind a launcher that appends a line to starts.log at each start; `note` changes
    the launcher (a new executable to the cache)."""
    folder.mkdir(parents=True, exist_ok=True)
    launcher = folder / "claude"
    count = f'echo start >> "{folder}/starts.log"'
    launcher.write_text(f'#!/bin/sh\n# {note}\n{count}\nexec "{claude_cli.path}" "$@"\n')
    launcher.chmod(0o755)
    return dataclasses.replace(claude_cli, path=str(launcher))


def starts(cli: LocatedCLI) -> int:
    log = Path(cli.path).parent / "starts.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.fixture
def env(fake_env, tmp_path) -> dict[str, str]:
    """The hermetic environment with a probe cache of this test's own (none of the session's answers)."""
    return {**fake_env, "XDG_CACHE_HOME": str(tmp_path / "cache")}


@pytest.fixture
def room(skill_sources, temp_root):
    with stage_workspace(skill_sources, temp_root) as workspace:
        yield workspace


def probe(cli: LocatedCLI, env: dict[str, str], isolation):
    return ClaudeAgent(cli, env, isolation=isolation).probe_sandbox()


def test_a_second_run_reads_the_kept_verdict_and_starts_claude_not_at_all(
    fake_api, claude_cli, isolation, env, tmp_path
):
    require_bubblewrap()
    cli = counting(claude_cli, tmp_path / "bin")
    first = probe(cli, env, isolation)
    assert (first.available, first.kept, starts(cli)) == (True, False, 1)
    again = probe(cli, env, isolation)
    assert (again.available, again.kept, starts(cli)) == (True, True, 1)
    assert fake_api.requests == []
    changed = counting(claude_cli, tmp_path / "bin", "upgraded")  # the same path, a new executable
    assert (probe(changed, env, isolation).kept, starts(cli)) == (False, 2)


@pytest.mark.parametrize("tool", ["bwrap", "socat"])
def test_a_tool_hidden_from_path_is_probed_and_its_absence_never_kept(
    claude_cli, isolation, env, tmp_path, tool
):
    require_bubblewrap()
    cli = counting(claude_cli, tmp_path / "bin")
    assert probe(cli, env, isolation).available is True
    hidden = {**env, "PATH": str(path_without(tool, env["PATH"], tmp_path / "hidden"))}
    for _ in range(2):  # off: asked again on every run, which says why each time
        off = probe(cli, hidden, isolation)
        assert off.available is False and tool in off.reason and not off.kept
    assert starts(cli) == 3
    assert probe(cli, env, isolation).kept  # the tool back: the kept verdict again
    assert starts(cli) == 3


def test_a_replaced_tool_on_path_is_probed_again(claude_cli, isolation, env, tmp_path):
    require_bubblewrap()
    cli = counting(claude_cli, tmp_path / "bin")
    probe(cli, env, isolation)
    own = tmp_path / "own"
    own.mkdir()
    shutil.copy2(str(shutil.which("socat", path=env["PATH"])), own / "socat")  # another socat, first on PATH
    moved = {**env, "PATH": f"{own}:{env['PATH']}"}
    assert (probe(cli, moved, isolation).available, starts(cli)) == (True, 2)


def test_a_damaged_or_unwritable_cache_costs_a_probe_never_an_error(claude_cli, isolation, env, tmp_path):
    require_bubblewrap()
    cli = counting(claude_cli, tmp_path / "bin")
    probe(cli, env, isolation)
    for entry in (tmp_path / "cache" / "skillscope" / PROBES).glob("*.json"):
        entry.write_bytes(b"\x00{")
    assert (probe(cli, env, isolation).available, starts(cli)) == (True, 2)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    unwritable = {**env, "XDG_CACHE_HOME": str(blocked)}
    assert [probe(cli, unwritable, isolation).available for _ in range(2)] == [True, True]
    assert starts(cli) == 4


def test_a_stale_kept_verdict_never_hides_that_a_run_went_without_the_sandbox(
    fake_api, claude_cli, isolation, env, tmp_path, room
):
    """Kept "it starts" for this very key (bwrap hidden since, a case the key cannot see): the probe
    believes it, and the run's own CLI still says its sandbox was off, and why."""
    hidden = {**env, "PATH": str(path_without("bwrap", env["PATH"], tmp_path / "hidden"))}
    cli = counting(claude_cli, tmp_path / "bin")
    stale = ClaudeAgent(cli, hidden, isolation=isolation)
    ProbeCache.of(hidden).put(cli.path, SANDBOX, AVAILABLE, stale.sandbox_context())
    assert stale.probe_sandbox().kept and starts(cli) == 0
    fake_api.script([R.tool_use("Bash", {"command": "echo inside"}), "Done."])
    spec = RunSpec(
        "run something", room, model=MODEL, timeout_s=60, sandbox=True, permission_mode="acceptEdits",
        allowed_tools=["Bash"],
    )  # fmt: skip
    trace = stale.run(spec)
    assert trace.sandbox_applied is False and "bubblewrap" in str(trace.sandbox_reason)
