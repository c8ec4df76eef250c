"""PaidRun without an agent: the settings and meta it builds from the flags, and what it says."""

from __future__ import annotations

import io
from pathlib import Path

from harness.agent import AgentSettings
from harness.cancel import Cancellation
from harness.context import Context
from harness.deadline import Deadline
from harness.model.repo import Repo
from harness.paid.command import NOT_PROBED, PaidRun, PaidSettings
from harness.routing.result import RoutingMeta
from harness.routing.runner import RoutingSettings


def paid(tmp_path: Path, **flags) -> PaidRun:
    ctx = Context(environ={}, cwd=tmp_path, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    settings = PaidSettings(command="routing", **flags)
    repo = Repo(root=tmp_path, globs=["*"])
    return PaidRun(settings, ctx, repo, Deadline(0), Cancellation(), publish=lambda result: None)


def test_agent_settings_hold_the_shared_flags_and_a_command_s_own_win(tmp_path):
    run = paid(tmp_path, model="m", effort="low", jobs=3, case_timeout=60.0, logs=tmp_path / "logs")
    settings = run.agent_settings(RoutingSettings, max_tool_calls=2, case_timeout=30.0)
    assert (settings.model, settings.effort, settings.jobs) == ("m", "low", 3)
    assert (settings.case_timeout, settings.max_tool_calls, settings.keep_logs) == (
        30.0,
        2,
        tmp_path / "logs",
    )
    assert type(run.agent_settings()) is AgentSettings


def test_the_meta_of_an_agent_that_never_started_names_it_without_a_version(tmp_path):
    run = paid(tmp_path, agents=("claude", "codex"), cache=tmp_path / "cache", keep_logs="logs", strict=True)
    meta = run.meta(
        RoutingMeta,
        runtime="codex",
        halt=run.halt(4, 0, "codex is not installed"),
        notes=[],
        sandbox=run.sandbox_use(NOT_PROBED),
        seen_model=None,
        agent_path=None,
        room=["pdf"],
        repeat=1,
        max_tool_calls=4,
        max_inspection_calls=8,
        min_accuracy=1,
    )
    assert (meta.agent, meta.agent_version, meta.isolation) == ("codex", None, {})
    assert (meta.cache, meta.keep_logs, meta.strict) == (str(tmp_path / "cache"), "logs", True)
    assert (meta.halt.agent_error, meta.halt.unfinished) == ("codex is not installed", 4)


def test_without_sandbox_nothing_is_probed_or_said(tmp_path):
    run = paid(tmp_path)
    assert run.probe_sandbox(object()) == NOT_PROBED
    said = run.sandbox_use(NOT_PROBED).to_json()
    assert said.items() >= {"requested": False, "status": "off", "reason": None}.items()
    assert said["headline"] == "no shell sandbox (--no-sandbox)"
    assert run.ctx.stderr.getvalue() == ""


def test_no_cache_means_no_cache_and_no_note(tmp_path):
    run = paid(tmp_path)
    assert run.cache() is None and run.cache_notes() == []
    assert run.budget() is run.budget()  # one spend for every runner of the run
