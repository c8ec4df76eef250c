"""--install plugin's pure parts: which listed `<plugin>:<skill>` names are the room's, how the event
reader credits such a call, and the runtimes without an offline plugin install saying so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.agent import AgentUnavailable
from harness.agent.claude import PLUGIN_HOST
from harness.agent.claude_events import ClaudeEvents
from harness.agent.codex import listed_skills
from harness.agent.plugin_install import missing_sentence, qualified_names, stage
from harness.agent.runtimes import AGENT_CLASSES

NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)


@given(plugin=NAMES, room=st.lists(NAMES, min_size=1, max_size=5, unique=True), data=st.data())
def test_a_room_skill_counts_as_listed_only_under_a_plugin_namespace(plugin, room, data):
    listed_skills = data.draw(st.lists(st.sampled_from(room), unique=True))
    bare = data.draw(st.lists(st.sampled_from(room), unique=True))  # a bare name is a project skill
    listed = [f"{plugin}:{s}" for s in listed_skills] + bare + ["doctor"]
    qualified, missing = qualified_names(listed, room)
    assert qualified == {f"{plugin}:{s}": s for s in listed_skills}
    assert missing == [s for s in room if s not in listed_skills]


def test_the_missing_sentence_is_one_sentence_naming_the_manifest_and_the_fix():
    said = missing_sentence(["beta", "gamma"], PLUGIN_HOST)
    assert said.startswith("beta, gamma are not listed") and ".claude-plugin/marketplace.json" in said
    assert "no case was run" in said and "\n" not in said


def call(reader: ClaudeEvents, name: str) -> str:
    event = {
        "type": "assistant",
        "message": {"content": [{"type": "tool_use", "id": "t1", "name": "Skill", "input": {"skill": name}}]},
    }
    reader.feed(json.dumps(event))
    return reader.trace.activations[-1].name


@pytest.mark.parametrize(
    ("called", "credited"),
    [
        ("demo:alpha", "alpha"),  # the plugin's name for the room skill
        ("/demo:alpha", "alpha"),
        ("other-plugin:alpha", "other:other-plugin:alpha"),  # never a substring or suffix match
        ("alpha", "alpha"),
        ("demo:gamma", "other:demo:gamma"),
    ],
)
def test_a_namespaced_call_is_credited_to_the_room_skill_it_names(called, credited, tmp_path):
    reader = ClaudeEvents({"alpha": tmp_path / "alpha", "beta": tmp_path / "beta"}, {"demo:alpha": "alpha"})
    assert call(reader, called) == credited


# Gemini CLI and OpenCode have no plugin install of skills from a local marketplace at our pins.
@pytest.mark.parametrize("runtime", sorted(set(AGENT_CLASSES) - {"claude", "codex", "copilot"}))
def test_other_runtimes_say_plainly_that_plugin_install_is_not_supported(runtime, tmp_path):
    agent, _ = AGENT_CLASSES[runtime].stand_in(None, {"PATH": ""}, tmp_path)
    with pytest.raises(AgentUnavailable) as raised:
        agent.installed_as_plugins(tmp_path, {})
    assert str(raised.value) == f"--install plugin is not supported on {runtime}; use --install copy"


def test_the_staged_catalog_keeps_the_manifests_and_drops_every_answer_key(tmp_path):
    repo = tmp_path / "repo"
    for path in ("skills/alpha/SKILL.md", "skills/alpha/evals/evals.json", ".claude-plugin/marketplace.json"):
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text("{}", encoding="utf-8")
    (repo / ".git").mkdir()
    catalog, staged = stage(repo, {"alpha": repo / "skills" / "alpha"}, tmp_path / "under")
    assert staged == {"alpha": catalog / "skills" / "alpha"}
    assert (catalog / ".claude-plugin" / "marketplace.json").is_file() and (
        staged["alpha"] / "SKILL.md"
    ).is_file()
    assert not (staged["alpha"] / "evals").exists() and not (catalog / ".git").exists()
    assert Path(repo / "skills/alpha/evals/evals.json").is_file()  # the repo itself is untouched


# What `codex debug prompt-input` renders (0.169.0), trimmed to its skills instructions: a plugin's
# skills are listed `<plugin>:<skill>`, a project skill by its name.
PROMPT_INPUT = json.dumps(
    [
        {
            "type": "message",
            "role": "developer",
            "content": [
                {
                    "type": "input_text",
                    "text": "<skills_instructions>\n## Skills\nThe skills.\n### Skill roots\n"
                    "- `r0` = `/h/.codex/plugins/cache/m/demo/1.0.0`\n### Available skills\n"
                    "- demo:alpha: Alpha: does things. (file: r0/alpha/SKILL.md)\n"
                    "- beta: Beta does things. (file: r1/beta/SKILL.md)\n</skills_instructions>",
                }
            ],
        }
    ]
)


def test_codex_listing_is_read_from_the_rendered_prompt():
    assert listed_skills(PROMPT_INPUT) == ["demo:alpha", "beta"]
    assert listed_skills("[]") == []
