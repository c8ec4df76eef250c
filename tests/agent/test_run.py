"""agent.run with the real claude CLI against the scripted fake API."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from harness.agent import ClaudeAgent, RunSpec, build_argv, isolation_for, stage_workspace, stop_at_decision
from tests.fakeapi import FakeAPI, hermetic_env, write_skill
from tests.fakeapi import replies as R
from tests.support.procs import group_members
from tests.support.sandbox import path_without, require_bubblewrap

MODEL = "claude-fake-1"


@pytest.fixture
def room(skill_sources, temp_root):
    with stage_workspace(skill_sources, temp_root) as workspace:
        yield workspace


@pytest.fixture
def go(claude_cli, isolation, fake_env):
    """`go(prompt, workspace, **RunSpec fields) -> Trace` with the hermetic setup."""

    def start(prompt: str, workspace: Path, **fields):
        fields.setdefault("model", MODEL)
        fields.setdefault("timeout_s", 60)
        return ClaudeAgent(claude_cli, fake_env, isolation=isolation).run(
            RunSpec(prompt, workspace, **fields)
        )

    return start


# --- activation -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def four_calls(claude_cli, tmp_path_factory):
    """One run whose model calls the skill `pdf`, `/pdf-tools` with a leading slash, the alias `front`
    of `dirname`, and a name no skill has, then answers: one start read by the activation tests.
    Returns the trace and the room it ran in."""
    scratch = tmp_path_factory.mktemp("four-calls")
    root = scratch / "repo"
    sources = {
        "pdf": write_skill(root, "pdf", "Plain PDF work.", "# PDF\nSay PDF-ACTIVE.\n"),
        "pdf-tools": write_skill(root, "pdf-tools", "Tools for PDF files."),
        "dirname": write_skill(root, "dirname", "A skill whose name differs.", name="front"),
    }
    calls = [R.skill("pdf"), R.skill("/pdf-tools"), R.skill("front"), R.skill("no-such-skill"), "PDF done."]
    with FakeAPI(calls) as api:
        environ = hermetic_env(api.base_url, scratch / "env", config_dir=False)
        runs = scratch / "runs"
        runs.mkdir()
        with stage_workspace(sources, runs) as workspace:
            spec = RunSpec("convert this pdf", workspace, model=MODEL, timeout_s=60)
            trace = ClaudeAgent(claude_cli, environ, isolation=isolation_for(environ, runs)).run(spec)
    return trace, workspace


def test_exact_activation_is_confirmed(four_calls):
    trace, room = four_calls
    assert trace.error is None, trace.error
    assert trace.stop_reason == "result" and trace.exit_code == 0
    activation = trace.activations[0]
    assert (activation.name, activation.confirmed) == ("pdf", True)
    assert activation.base_dir == str(room / ".claude" / "skills" / "pdf")
    assert trace.final_message == "PDF done."
    assert "PDF-ACTIVE" in trace.injected_skill_text[0]
    assert trace.cost_usd and trace.usage.input_tokens > 0
    assert trace.init.claude_code_version and "pdf" in trace.init.skills


def test_prefix_neighbour_gets_exact_credit(four_calls):
    trace, _ = four_calls
    assert trace.activated[:2] == ["pdf", "pdf-tools"]


def test_neighbour_name_not_installed_is_other(fake_api, go, skill_sources, temp_root):
    fake_api.script([R.skill("pdf")])
    only_tools = {"pdf-tools": skill_sources["pdf-tools"]}
    with stage_workspace(only_tools, temp_root) as workspace:
        trace = go("use pdf", workspace)
    (activation,) = trace.activations
    assert activation.name == "other:pdf" and not activation.confirmed
    assert "Unknown skill" in activation.error_text


def test_alias_resolves_to_the_directory(four_calls):
    activation = four_calls[0].activations[2]
    assert (activation.name, activation.raw_input_name) == ("dirname", "front")
    assert activation.confirmed


def test_leading_slash_and_unknown_names(four_calls):
    trace, _ = four_calls
    assert [a.name for a in trace.activations] == ["pdf", "pdf-tools", "dirname", "other:no-such-skill"]
    assert [a.confirmed for a in trace.activations] == [True, True, True, False]


def test_stop_at_activation_sends_nothing_after_the_decision(fake_api, go, room):
    fake_api.script([R.skill("pdf"), "never shown", "never asked"])
    trace = go("route me", room, stop=stop_at_decision())
    assert trace.stop_reason == "activation"
    assert trace.activated == ["pdf"]
    assert trace.error is None
    # The decision came with the first reply; at most the follow-up was already in flight.
    assert len(fake_api.agent_turns()) <= 2
    assert "never shown" not in (trace.final_message or "")
    assert group_members(trace.pid) == []


def test_the_stop_hook_ends_the_run_at_the_decision_with_one_request(fake_api, go, room):
    fake_api.script([R.skill("pdf"), "never asked"])
    trace = go("route me", room, stop=stop_at_decision(), stop_after_skill=True)
    assert len(fake_api.agent_turns()) == 1
    assert (trace.stop_reason, trace.terminal_reason, trace.exit_code) == ("activation", "hook_stopped", 0)
    assert trace.activated == ["pdf"] and trace.decision.confirmed and trace.failure is None
    # The CLI's own result came, so the decision's tokens and cost are known.
    assert trace.cost_usd and trace.usage.input_tokens > 0 and trace.usage.output_tokens > 0
    assert group_members(trace.pid) == []


def test_the_stop_hook_lets_a_read_of_a_skill_file_come_first(fake_api, go, room):
    fake_api.script(
        [R.tool_use("Read", {"file_path": "{{cwd}}/.claude/skills/pdf/SKILL.md"}), R.skill("pdf")]
    )
    trace = go("look first", room, stop=stop_at_decision(), stop_after_skill=True)
    assert len(fake_api.agent_turns()) == 2
    assert trace.inspection_calls == 1 and trace.activated == ["pdf"]
    assert trace.terminal_reason == "hook_stopped"


def test_the_stop_hook_sits_in_the_isolation_settings(claude_cli, isolation, room):
    argv, notes = build_argv(claude_cli, RunSpec("p", room, stop_after_skill=True), isolation)
    settings = json.loads(argv[argv.index("--settings") + 1])
    assert settings["enabledPlugins"] == {"cc-plugin-plugin-authoring@builtin": False}
    (entry,) = settings["hooks"]["PostToolUse"]
    assert entry["matcher"] == "Skill" and notes == []
    plain, _ = build_argv(claude_cli, RunSpec("p", room), isolation)
    assert "hooks" not in json.loads(plain[plain.index("--settings") + 1])


def test_a_cli_without_settings_is_stopped_at_the_decision_event(
    fake_api, claude_cli, isolation, fake_env, room
):
    older = dataclasses.replace(claude_cli, optional_flags=claude_cli.optional_flags - {"--settings"})
    fake_api.script([R.skill("pdf"), "never shown"])
    spec = RunSpec(
        "route me", room, model=MODEL, timeout_s=60, stop=stop_at_decision(), stop_after_skill=True
    )
    trace = ClaudeAgent(older, fake_env, isolation=isolation).run(spec)
    assert trace.stop_reason == "activation" and trace.activated == ["pdf"]
    assert trace.terminal_reason is None and "no --settings" in trace.notes[0]


def test_tool_budget_stops_a_run_that_never_decides(fake_api, go, room):
    fake_api.script(lambda request: R.tool_use("Bash", {"command": "echo hi"}))
    trace = go("loop forever", room, stop=stop_at_decision(max_tool_calls=2))
    assert trace.stop_reason == "tool_budget"
    assert trace.budget_tool_calls == 2
    assert trace.activations == []


# --- isolation ------------------------------------------------------------------------


def test_user_and_config_dir_skills_never_reach_the_model(
    fake_api, claude_cli, fake_env, temp_root, room, tmp_path
):
    home = Path(fake_env["HOME"])
    write_skill(home / ".claude" / "skills", "home-user-skill", "From HOME.")
    user_config = tmp_path / "user-config"
    write_skill(user_config / "skills", "cfg-user-skill", "From the config dir.")
    environ = {**fake_env, "CLAUDE_CONFIG_DIR": str(user_config)}
    spec = RunSpec("what skills exist?", room, model=MODEL, timeout_s=60)
    trace = ClaudeAgent(claude_cli, environ, temp_root).run(spec)
    assert trace.error is None, trace.error
    (turn,) = fake_api.agent_turns()
    assert set(turn.skill_listing) == {"pdf", "pdf-tools", "dirname"}
    assert not (user_config / "projects").exists()  # the user's config dir was not used
    assert [p.name for p in temp_root.iterdir()] == [room.name]  # run config dir removed


def test_the_agents_tools_inherit_no_key_while_the_cli_still_authenticates(
    fake_api, claude_cli, fake_env, temp_root, room, tmp_path
):
    secret = "sk-ant-fake-0123456789abcdef"
    environ = {**fake_env, "ANTHROPIC_API_KEY": secret, "OPENAI_API_KEY": "sk-openai-fake-0123456789"}
    fake_api.script([R.tool_use("Bash", {"command": "env; echo model-saw-" + secret}), "done."])
    log = tmp_path / "logs" / "env.jsonl"
    spec = RunSpec("print the environment", room, model=MODEL, timeout_s=60, allowed_tools=("Bash",))
    spec.keep_log, spec.permission_mode = log, "acceptEdits"
    trace = ClaudeAgent(claude_cli, environ, temp_root).run(spec)
    assert trace.error is None, trace.error
    assert {r.headers.get("x-api-key") for r in fake_api.agent_turns()} == {secret}
    (call,) = trace.tool_calls
    printed = call.result_text or ""
    assert "PATH=" in printed  # the command ran and printed its environment
    # The CLI holds the run's stand-in token, which only its key relay takes; no other runtime's key.
    assert "ANTHROPIC_API_KEY=skillscope-run-" in printed and "OPENAI_API_KEY=" not in printed
    assert "model-saw-[redacted ANTHROPIC_API_KEY]" in printed  # what the model echoed is blanked
    kept = log.read_text()
    assert secret not in kept and "[redacted ANTHROPIC_API_KEY]" in kept
    assert log.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in temp_root.iterdir()] == [room.name]  # the credential left with its dir


def test_describe_reports_the_isolation(isolation, fake_env):
    assert isolation.describe()["config_dir"] == "fresh"
    without_key = {k: v for k, v in fake_env.items() if k != "ANTHROPIC_API_KEY"}
    kept = isolation_for(without_key).describe()
    assert kept["config_dir"] == "user" and "setting-sources" in kept["note"]
    assert "key relay" in isolation.describe()["credentials"]
    assert kept["bundled_skills"] == "disabled" and kept["setting_sources"] == "project"


# --- faults ---------------------------------------------------------------------------


def test_overloaded_api_is_an_error_with_a_useful_message(fake_api, go, room):
    fake_api.script([R.error(529)])
    trace = go("anything", room)
    assert trace.error == "the API answered 529 (overloaded)"
    assert trace.exit_code == 1 and trace.is_error and trace.api_error_status == 529


def test_malformed_stream_is_an_error(fake_api, go, room):
    fake_api.script([R.malformed(), R.malformed()])  # the CLI retries once without streaming
    trace = go("anything", room)
    assert trace.is_error and trace.exit_code == 1
    assert trace.error and trace.error.startswith("claude reported an error: API Error")


def test_hang_past_the_timeout_kills_the_group_and_cleans_up(
    fake_api, claude_cli, isolation, fake_env, skill_sources, temp_root
):
    fake_api.script([R.hang()])
    with stage_workspace(skill_sources, temp_root) as workspace:
        # The reply never comes, so the CLI never finishes: a timeout of a second is as far past as any.
        spec = RunSpec("hang please", workspace, model=MODEL, timeout_s=1)
        trace = ClaudeAgent(claude_cli, fake_env, isolation=isolation).run(spec)
    assert trace.stop_reason == "timeout"
    assert trace.error == "timed out after 1 s before claude finished"
    assert group_members(trace.pid) == []
    with pytest.raises(ProcessLookupError):
        os.killpg(trace.pid, 0)
    assert list(temp_root.iterdir()) == []  # workspace and config dir are gone


def test_cli_rejecting_its_arguments_is_an_error(fake_api, go, room):
    trace = go("anything", room, permission_mode="no-such-mode")
    assert trace.exit_code == 1
    assert trace.error.startswith("claude exited 1 without any JSON output: ")
    assert "no-such-mode" in trace.error
    assert fake_api.agent_turns() == []


def test_budget_limit_ends_the_run(fake_api, go, room):
    fake_api.script(lambda request: R.tool_use("Bash", {"command": "echo again"}))
    trace = go("spend", room, max_budget_usd=0.002)
    assert trace.stop_reason == "budget"
    assert trace.result_subtype == "error_max_budget_usd"
    assert trace.cost_usd is not None and trace.cost_usd >= 0.002
    assert trace.error is None
    assert len(fake_api.agent_turns()) == 3  # $0.0008 per fake reply: overshoots by one


# --- plumbing -------------------------------------------------------------------------


def test_long_prompt_goes_over_stdin_and_raw_log_is_kept(fake_api, go, room, tmp_path):
    prompt = "start " + "word " * 60_000 + "end"  # ~300 kB: beyond one argv string's limit
    log = tmp_path / "logs" / "run.jsonl"
    trace = go(prompt, room, keep_log=log)
    assert trace.error is None, trace.error
    assert fake_api.agent_turns()[0].prompt == prompt
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["subtype"] == "init"
    assert json.loads(lines[-1])["type"] == "result"


def test_accept_edits_lets_the_agent_write_into_the_workspace(fake_api, go, room):
    fake_api.script([R.tool_use("Write", {"file_path": "{{cwd}}/out.txt", "content": "hi\n"})])
    trace = go("write a file", room, permission_mode="acceptEdits")
    assert (room / "out.txt").read_text() == "hi\n"
    (call,) = trace.tool_calls
    assert call.name == "Write" and call.answered and not call.is_error
    assert trace.permission_denials == []


def test_default_mode_records_permission_denials(fake_api, go, room):
    fake_api.script([R.tool_use("Write", {"file_path": "{{cwd}}/out.txt", "content": "hi\n"})])
    trace = go("write a file", room)
    assert not (room / "out.txt").exists()
    assert [d["tool_name"] for d in trace.permission_denials] == ["Write"]
    assert trace.tool_calls[0].is_error


def test_concurrent_runs_do_not_share_state(fake_api, claude_cli, isolation, fake_env, skill_sources):
    names = ["pdf", "pdf-tools", "front"]
    arrived = threading.Barrier(3, timeout=60)

    def router(request):
        if request.tool_results:
            return "done."
        arrived.wait()  # all three runs are in flight at once
        return R.skill(request.prompt.split()[-1])

    fake_api.script(router)

    def one(name: str):
        with stage_workspace(skill_sources) as workspace:
            spec = RunSpec(f"please use {name}", workspace, model=MODEL, timeout_s=60)
            return ClaudeAgent(claude_cli, fake_env, isolation=isolation).run(spec)

    with ThreadPoolExecutor(3) as pool:
        traces = list(pool.map(one, names))
    assert [t.activated for t in traces] == [["pdf"], ["pdf-tools"], ["dirname"]]
    assert fake_api.max_concurrency() == 3


# --- the shell sandbox -------------------------------------------------------------------


@pytest.mark.parametrize("bubblewrap", ["present", "hidden"])
def test_the_sandbox_probe_reads_the_init_event_and_sends_no_model_request(
    fake_api, claude_cli, isolation, fake_env, tmp_path, bubblewrap
):
    if bubblewrap == "present":
        require_bubblewrap()
    else:
        fake_env = {**fake_env, "PATH": str(path_without("bwrap", fake_env["PATH"], tmp_path / "bin"))}
    fake_env = {**fake_env, "XDG_CACHE_HOME": str(tmp_path / "cache")}  # no kept verdict: probed
    support = ClaudeAgent(claude_cli, fake_env, isolation=isolation).probe_sandbox()
    assert fake_api.requests == []  # stopped at init, and pointed at a closed port besides
    assert not support.kept
    if bubblewrap == "present":
        assert (support.available, support.reason) == (True, None)
    else:
        assert support.available is False and "bubblewrap" in support.reason


@pytest.mark.parametrize("bubblewrap", ["present", "hidden"])
def test_a_sandboxed_run_carries_the_setting_and_reports_whether_it_applied(
    fake_api, claude_cli, isolation, fake_env, room, tmp_path, bubblewrap
):
    if bubblewrap == "present":
        require_bubblewrap()
    else:
        fake_env = {**fake_env, "PATH": str(path_without("bwrap", fake_env["PATH"], tmp_path / "bin"))}
    fake_api.script([R.tool_use("Bash", {"command": "echo inside"}), "Done."])
    spec = RunSpec(
        "run something", room, model=MODEL, timeout_s=60, sandbox=True, permission_mode="acceptEdits",
        allowed_tools=["Bash"],
    )  # fmt: skip
    trace = ClaudeAgent(claude_cli, fake_env, isolation=isolation).run(spec)
    assert trace.init is not None and trace.sandbox_applied is trace.init.sandbox_enabled
    assert trace.tool_calls[0].result_text.strip() == "inside"  # Bash still runs, confined or not
    assert trace.sandbox_applied is (bubblewrap == "present")
    if bubblewrap == "hidden":
        assert "bubblewrap" in trace.sandbox_reason


def test_the_sandbox_settings_go_into_the_isolation_settings(claude_cli, isolation):
    argv, _ = build_argv(claude_cli, RunSpec("p", Path("/ws"), sandbox=True), isolation)
    settings = json.loads(argv[argv.index("--settings") + 1])
    assert settings["sandbox"] == {"enabled": True, "allowUnsandboxedCommands": False}
    plain, _ = build_argv(claude_cli, RunSpec("p", Path("/ws")), isolation)
    assert "sandbox" not in json.loads(plain[plain.index("--settings") + 1])


def test_unreadable_folders_are_denied_to_bash_and_the_file_tools_but_never_the_workspace(
    claude_cli, isolation
):
    spec = RunSpec("p", Path("/tmp/ws"), sandbox=True, unreadable=(Path("/repo/skill"), Path("/tmp")))
    argv, _ = build_argv(claude_cli, spec, isolation)
    settings = json.loads(argv[argv.index("--settings") + 1])
    assert settings["sandbox"]["filesystem"] == {"denyRead": ["/repo/skill"]}  # /tmp holds the workspace
    assert settings["permissions"] == {"deny": ["Read(//repo/skill/**)"]}
    assert settings["sandbox"]["enabled"] is True and settings["sandbox"]["allowUnsandboxedCommands"] is False
