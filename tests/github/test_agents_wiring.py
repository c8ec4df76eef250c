"""The `agents` input followed through the YAML: validated in discover, one leg per agent and skill, each
leg installing its agent's pinned CLI, running `--agent` with that agent, and reading that agent's key."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from tests.support.yamlfiles import ACTION, ROOT, WORKFLOWS, jobs, load

REUSABLE = next(p for p in WORKFLOWS if p.name == "reusable.yml")
KEY_VARIABLES = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "COPILOT_PROVIDER_API_KEY")


def agents_step() -> dict:
    return next(s for s in jobs(load(REUSABLE))["discover"]["steps"] if s.get("id") == "agents")


def run_agents_step(text: str, tmp_path, monkeypatch) -> str:
    output = tmp_path / "output"
    output.write_text("")
    monkeypatch.setenv("AGENTS", text)
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    exec(compile(agents_step()["run"], "discover: Check the agents", "exec"), {})
    return output.read_text()


def test_discover_turns_the_input_into_a_list_of_known_agents(tmp_path, monkeypatch):
    assert (
        run_agents_step(" claude, codex,codex ,gemini", tmp_path, monkeypatch)
        == 'agents=["claude", "codex", "gemini"]\n'
    )


@pytest.mark.parametrize("text", ["claude,cursor", " , "])
def test_an_unknown_or_empty_agents_input_stops_discover(text, tmp_path, monkeypatch):
    with pytest.raises(SystemExit) as stopped:
        run_agents_step(text, tmp_path, monkeypatch)
    assert "::error title=Invalid input agents::" in str(stopped.value)


@pytest.mark.parametrize("job_id", ["routing", "behavioral"])
def test_each_graded_leg_runs_one_agent_with_its_cli_and_its_key(job_id):
    job = jobs(load(REUSABLE))[job_id]
    assert job["strategy"]["matrix"]["agent"] == "${{ fromJSON(needs.discover.outputs.agents) }}"
    assert "${{ matrix.agent }}" in job["name"]
    (grade,) = [s for s in job["steps"] if s.get("id") == "grade"]
    args = shlex.split(grade["with"]["args"])
    assert args[args.index("--agent") + 1] == "${{ matrix.agent }}"
    if job_id == "behavioral":  # the judge too, so one key serves the leg
        assert args[args.index("--judge-agent") + 1] == "${{ matrix.agent }}"
    assert grade["with"]["install-claude"] == "${{ matrix.agent == 'claude' }}"
    assert grade["with"]["install-agent"] == "${{ matrix.agent != 'claude' && matrix.agent || '' }}"
    assert set(KEY_VARIABLES) <= set(grade["env"])
    for variable, value in grade["env"].items():
        if variable in KEY_VARIABLES:
            assert "secrets.api_key" in value and "matrix.agent ==" in value, variable
    # One artifact and one cache per leg: an agent other than claude adds its name.
    upload = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    restore = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/cache/restore@"))
    for text in (upload["with"]["name"], restore["with"]["key"], grade["with"]["args"]):
        assert "format('-{0}', matrix.agent)" in text


def test_the_action_installs_each_agent_at_the_version_the_harness_pins(monkeypatch):
    (step,) = [s for s in load(ACTION)["runs"]["steps"] if s.get("name") == "Install the agent CLI"]
    code = compile(re.search(r"python -c '([^']+)'", step["run"]).group(1), "install", "exec")
    path = ROOT / "harness" / "data" / "agents.json"
    monkeypatch.setenv("PINS", str(path))
    for agent, pin in json.loads(path.read_text(encoding="utf-8")).items():
        monkeypatch.setenv("AGENT", agent)
        printed = []
        exec(code, {"print": printed.append})
        assert printed == [f"{pin['package']}@{pin['version']}"]
    monkeypatch.setenv("AGENT", "cursor")
    printed = []
    exec(code, {"print": printed.append})
    assert printed == [""]  # the script then names the input and stops
