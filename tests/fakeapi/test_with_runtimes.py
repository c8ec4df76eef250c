"""The fake speaks each agent CLI's wire protocol well enough for a routing decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakeapi import FakeAPI, write_skill
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, find_runtime, run_runtime

# Per runtime: the wire it speaks, and how its event stream shows the skill as loaded.
WIRE = {"copilot": "anthropic", "codex": "responses", "gemini": "gemini", "opencode": "chat"}


def _loaded(name: str, events: list[dict]) -> list[str]:
    if name == "copilot":
        return [
            e["data"]["arguments"]["skill"]
            for e in events
            if e.get("type") == "tool.execution_start" and e["data"].get("toolName") == "skill"
        ]
    if name == "codex":
        return [
            e["item"]["command"]
            for e in events
            if e.get("type") == "item.completed"
            and e["item"].get("type") == "command_execution"
            and e["item"].get("exit_code") == 0
        ]
    if name == "gemini":
        return [
            e["parameters"]["name"]
            for e in events
            if e.get("type") == "tool_use" and e.get("tool_name") == "activate_skill"
        ]
    return [
        e["part"]["state"]["input"]["name"]
        for e in events
        if e.get("type") == "tool_use"
        and e["part"].get("tool") == "skill"
        and e["part"]["state"].get("status") == "completed"
    ]


@pytest.mark.parametrize("name", sorted(WIRE))
def test_real_cli_loads_the_skill_the_fake_picks(name: str, tmp_path: Path, copilot_cache: str):
    binary = find_runtime(name)
    if binary is None:
        pytest.fail(f"the {name} CLI is needed: set {TEST_ENV[name]}=/path/to/{name}", pytrace=False)
    workspace = tmp_path / "ws"
    skills = workspace / ".agents" / "skills"
    write_skill(skills, "pdf-tools", "Work with PDF files.", "# PDF\nSay PDF-SKILL-ACTIVE.\n")
    write_skill(skills, "csv-report", "Summarize CSV files.")
    with FakeAPI({"convert my pdf": [R.skill_for(name, "pdf-tools"), "finished"]}) as api:
        run = run_runtime(
            name,
            binary,
            api.base_url,
            workspace,
            tmp_path / "state",
            "convert my pdf",
            extra_env={"COPILOT_CACHE_HOME": copilot_cache},
        )
    turns = api.agent_turns()
    assert turns, run.stderr[-2000:]
    assert {t.wire.name for t in turns} == {WIRE[name]}
    first = turns[0]
    assert set(first.skill_listing) == {"pdf-tools", "csv-report"}  # no user or built-in skill
    assert "convert my pdf" in first.prompt
    assert first.cwd == str(workspace)
    loaded = _loaded(name, run.events)
    assert len(loaded) == 1 and "pdf-tools" in loaded[0], run.stdout[-3000:]
    assert "PDF-SKILL-ACTIVE" in turns[1].tool_results[-1]["text"] or "PDF-SKILL-ACTIVE" in str(turns[1].body)
