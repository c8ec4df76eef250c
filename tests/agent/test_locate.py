"""Finding the CLI, probing it, preflight, and faults only a fake `claude` can produce."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from harness.agent import (
    AgentUnavailable,
    ClaudeAgent,
    LocatedCLI,
    RunSpec,
    build_argv,
    isolation_for,
    locate,
    stage_workspace,
)
from harness.cancel import Cancellation
from harness.deadline import Deadline
from tests.fakeapi import replies as R
from tests.support.procs import group_members, tagged

HELP = "Usage: claude [options]\n  --settings <file>\n  --setting-sources <s>\n  --effort <e>\n"


def fake_claude(directory: Path, body: str) -> Path:
    """A shell script standing in for `claude`: answers --version/--help, else runs `body`."""
    script = directory / "claude"
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        '  --version) echo "9.8.7 (Claude Code)"; exit 0;;\n'
        f"  --help) printf '%s' '{HELP}'; exit 0;;\n"
        "esac\n"
        f"{body}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_missing_cli_names_the_fix(tmp_path):
    with pytest.raises(AgentUnavailable, match="not found on PATH: install it with `npm"):
        locate(None, {"PATH": str(tmp_path)})
    with pytest.raises(AgentUnavailable, match=r"not found at /nope/claude \(from --claude\)"):
        locate("/nope/claude", {"PATH": str(tmp_path)})
    with pytest.raises(AgentUnavailable, match=r"from \$SKILLSCOPE_CLAUDE"):
        locate(None, {"PATH": str(tmp_path), "SKILLSCOPE_CLAUDE": str(tmp_path / "gone")})


def test_locate_order_and_flag_probe(tmp_path):
    script = fake_claude(tmp_path, "exit 0")
    on_path = locate(None, {"PATH": str(tmp_path)})
    assert on_path == LocatedCLI(
        str(script), "9.8.7", frozenset({"--settings", "--setting-sources", "--effort"})
    )
    from_env = locate(None, {"PATH": "", "SKILLSCOPE_CLAUDE": str(script)})
    assert from_env.path == str(script)
    other = tmp_path / "other"
    other.mkdir()
    explicit = fake_claude(other, "exit 0")
    assert locate(str(explicit), {"SKILLSCOPE_CLAUDE": str(script)}).path == str(explicit)


def test_real_cli_probe(claude_cli):
    assert claude_cli.version.count(".") == 2
    assert claude_cli.supports("--setting-sources")
    assert claude_cli.supports("--max-budget-usd")
    assert not claude_cli.supports("--max-turns")  # hidden in --help: never assumed


def test_argv_uses_only_supported_optional_flags(tmp_path):
    cli = LocatedCLI("claude", "1.0.0", frozenset())
    spec = RunSpec(
        "p",
        tmp_path,
        model="m",
        effort="low",
        max_budget_usd=0.5,
        allowed_tools=["Write", "Bash(git *)"],
        extra_args=["--tools", "Read,Glob"],
    )
    argv, notes = build_argv(cli, spec, isolation_for({}))
    assert argv[:5] == ["claude", "-p", "--output-format", "stream-json", "--verbose"]
    assert "--effort" not in argv and "--max-budget-usd" not in argv
    assert "--no-session-persistence" not in argv
    assert len(notes) == 2
    assert argv[-5:] == ["--allowedTools", "Write", "Bash(git *)", "--tools", "Read,Glob"]
    full = LocatedCLI("claude", "1.0.0", frozenset({"--effort", "--max-budget-usd"}))
    argv, notes = build_argv(full, spec, isolation_for({}))
    assert argv[argv.index("--max-budget-usd") + 1] == "0.5" and notes == []


def _run_fake(script: Path, environ: dict[str, str], temp_root: Path, **fields):
    cli = LocatedCLI(str(script), "9.8.7", frozenset())
    with stage_workspace({}, temp_root) as workspace:
        spec = RunSpec("prompt", workspace, **{"timeout_s": 30, **fields})
        return ClaudeAgent(cli, environ, temp_root).run(spec)


def test_a_hanging_version_probe_ends_with_the_commands_timeout_and_its_group(tmp_path):
    script = fake_claude(tmp_path, "")
    pidfile = tmp_path / "probe.pid"
    script.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nsleep 600 & sleep 600\n")
    mark = str(tmp_path)  # inherited by the probe's children: found however far the shell got
    with pytest.raises(AgentUnavailable, match=r"--version` did not finish within .* --timeout ran out"):
        locate(str(script), {"PATH": os.environ["PATH"], "PROBE_MARK": mark}, deadline=Deadline(1))
    assert tagged("PROBE_MARK", mark) == []  # the shell and its `sleep` child are gone
    if pidfile.exists():  # on a loaded machine the timeout may fall before the shell wrote it
        assert group_members(int(pidfile.read_text())) == []


def test_a_cancelled_probe_is_interrupted_not_missing(tmp_path):
    script = fake_claude(tmp_path, "")
    cancel = Cancellation()
    cancel.cancel(signal.SIGTERM)
    with pytest.raises(AgentUnavailable, match="interrupted while"):
        locate(str(script), {"PATH": os.environ["PATH"]}, cancel=cancel)


def test_garbage_stdout_is_an_error(tmp_path, temp_root, fake_env):
    script = fake_claude(tmp_path, "cat >/dev/null; echo 'Segmentation fault (core dumped)'")
    trace = _run_fake(script, fake_env, temp_root)
    assert trace.error == "claude produced no JSON output: Segmentation fault (core dumped)"
    assert trace.exit_code == 0 and trace.stop_reason == "completed"


def test_nonzero_exit_keeps_the_stderr_tail(tmp_path, temp_root, fake_env):
    script = fake_claude(tmp_path, "echo 'fatal: out of cheese' >&2; exit 3")
    trace = _run_fake(script, fake_env, temp_root)
    assert trace.error == "claude exited 3 without any JSON output: fatal: out of cheese"
    assert trace.stderr_tail.strip() == "fatal: out of cheese"


def test_stream_cut_short_is_an_error(tmp_path, temp_root, fake_env):
    init = '{"type":"system","subtype":"init","skills":[],"tools":[]}'
    script = fake_claude(tmp_path, f"echo '{init}'; echo 'killed by OOM' >&2; exit 137")
    trace = _run_fake(script, fake_env, temp_root)
    assert trace.error == "claude exited 137 before reporting a result: killed by OOM"


def test_timeout_kills_children_that_ignore_sigterm(tmp_path, temp_root, fake_env):
    # Only a fake can promise to ignore SIGTERM and leave a grandchild behind.
    script = fake_claude(tmp_path, "trap '' TERM; sleep 600 & sleep 600")
    trace = _run_fake(script, fake_env, temp_root, timeout_s=1)
    assert trace.stop_reason == "timeout"
    assert group_members(trace.pid) == []
    assert list(temp_root.iterdir()) == []


def test_preflight_passes_against_a_working_api(fake_api, claude_cli, fake_env, temp_root):
    ClaudeAgent(claude_cli, fake_env, temp_root).preflight("claude-fake-1")
    (turn,) = fake_api.agent_turns()
    assert turn.prompt == "Reply with the single word: ok"


def test_preflight_explains_rejected_credentials(fake_api, claude_cli, fake_env):
    # A rejected key stays rejected: with a key helper the CLI asks it again after a 401 and retries.
    fake_api.script(lambda request: R.error(401))
    with pytest.raises(AgentUnavailable, match=r"rejected the credentials .*401"):
        ClaudeAgent(claude_cli, fake_env).preflight("claude-fake-1")


def test_preflight_explains_a_missing_login(fake_api, claude_cli, fake_env):
    no_key = {k: v for k, v in fake_env.items() if k != "ANTHROPIC_API_KEY"}
    with pytest.raises(AgentUnavailable, match="not logged in: set ANTHROPIC_API_KEY"):
        ClaudeAgent(claude_cli, no_key).preflight("claude-fake-1")
    assert fake_api.agent_turns() == []


def test_preflight_explains_an_unreachable_api(fake_api, claude_cli, fake_env):
    port = fake_api.port
    fake_api.stop()  # nothing listens there any more
    environ = {**fake_env, "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}"}
    with pytest.raises(AgentUnavailable, match="cannot reach the API"):
        ClaudeAgent(claude_cli, environ).preflight("claude-fake-1")


def test_preflight_refuses_a_cli_that_cannot_isolate(tmp_path, fake_env):
    old = LocatedCLI(str(fake_claude(tmp_path, "exit 0")), "1.0.0", frozenset())
    with pytest.raises(AgentUnavailable, match="cannot isolate skills"):
        ClaudeAgent(old, fake_env).preflight()
    assert os.path.exists(old.path)


@pytest.mark.parametrize("runtime", ["copilot", "codex", "gemini", "opencode"])
def test_a_missing_runtime_names_its_flag_and_its_variable(runtime, tmp_path):
    from harness.agent.runtime import locate_cli

    with pytest.raises(AgentUnavailable) as raised:
        locate_cli(runtime, None, {"PATH": str(tmp_path)})
    message = str(raised.value)
    assert message.startswith(f"{runtime} CLI not found on PATH: install it with `npm install -g ")
    assert message.endswith(f"or pass --{runtime} PATH (or set SKILLSCOPE_{runtime.upper()})")
