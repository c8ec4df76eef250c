"""Each runtime's predicted listing against what its real CLI sent to the scripted API: which skills
it listed, in full, cut or by name only, over catalogs of 10 to 200 skills and descriptions of 100
to 1,024 characters."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.model.listing import DROPPED, FULL, NAME_ONLY, TRUNCATED, listing_rule, predict
from tests.fakeapi import FakeAPI, write_skill
from tests.fakeapi.recorded import LISTING_HEADER, RecordedRequest
from tests.fakeapi.runtimes import MODEL
from tests.support.agents import connect_fake

WORDS = [
    "amber",
    "basalt",
    "cedar",
    "dune",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "iris",
    "jade",
    "kelp",
    "lichen",
    "moss",
]
# (skills, description length): a length list is cycled over the catalog.
POINTS = {
    "claude": [(10, 1024), (40, 1000), (200, 100), (60, [100, 1024, 400, 800])],
    "copilot": [(10, 1000), (40, 1000), (200, 100), (30, [100, 1024, 600])],
    "gemini": [(40, 1000), (200, 100)],
    "opencode": [(40, 1024)],
    "codex": [(10, 100), (40, 1000)],
}


def catalog(size: int, length: int | list[int], seed: int = 7) -> list[tuple[str, str]]:
    """Names in no particular order (so sorting shows), descriptions of exact lengths."""
    rnd = random.Random(seed)
    lengths = length if isinstance(length, list) else [length]
    made = []
    for index in range(size):
        name = f"{rnd.choice(WORDS)}-{rnd.choice(WORDS)}-{index:03d}"
        text = f"Skill {index} handles task {index}."
        while len(text) < lengths[index % len(lengths)]:
            text += f" Use it for widget{index} and gadget{index} work."
        made.append((name, text[: lengths[index % len(lengths)]].rstrip()))  # YAML drops an end space
    return made


def claude_listing(request: RecordedRequest) -> dict[str, str]:
    """Name -> state from claude's listing, wherever in the request it sits (a system message on
    current models, a reminder in the user turn on older ones); name-only lines have no colon."""
    text = _text(request.body)
    start = text.index(LISTING_HEADER) + len(LISTING_HEADER)
    block = re.split(r"\n\n|\n</system-reminder>", text[start:].lstrip("\n"), maxsplit=1)[0]
    return {line[2:].partition(": ")[0]: line for line in block.splitlines()}


def _text(value) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_text(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value)
    return ""


def sent_listing(runtime: str, request: RecordedRequest, skills: dict[str, str]) -> dict[str, str]:
    """Name -> state of each room skill, as the CLI really listed it."""
    if runtime == "claude":
        lines = claude_listing(request)
        states = {}
        for name, line in lines.items():
            _, colon, shown = line[2:].partition(": ")
            states[name] = NAME_ONLY if not colon else FULL if shown == skills[name] else TRUNCATED
    else:
        shown = request.skill_listing
        states = {name: FULL if shown[name] == skills[name] else TRUNCATED for name in shown}
    return {name: states.get(name, DROPPED) for name in sorted(skills)} | {
        name: "extra" for name in states if name not in skills
    }


@pytest.mark.parametrize(
    ("runtime", "size", "length"),
    [(runtime, size, length) for runtime, points in POINTS.items() for size, length in points],
)
def test_the_predicted_listing_is_what_the_real_cli_sent(
    runtime: str, size: int, length, tmp_path: Path, claude_bin: str, copilot_cache: str
) -> None:
    skills = catalog(size, length)
    source = tmp_path / "repo"
    room = {name: write_skill(source, name, description) for name, description in skills}
    with FakeAPI(["ok"]) as api:
        agent = connect_fake(runtime, api.base_url, claude_bin, tmp_path / "agent", copilot_cache)
        with agent.workspace(room) as workspace:
            model = None if runtime == "gemini" else MODEL
            spec = RunSpec("hello", workspace, model=model, timeout_s=300, stop=stop_at_decision(4, 8))
            trace = agent.run(spec)
        turns = api.agent_turns()
    assert turns, (trace.failure, trace.stderr_tail[-2000:])
    real = sent_listing(runtime, turns[0], dict(skills))
    predicted = predict(agent.listing, skills, model)
    assert list(real) == sorted(name for name, _ in skills)  # listed in name order, nothing extra
    states = {skill.name: skill.state for skill in predicted.skills}
    if runtime == "codex":  # its share of the budget is predicted by state, not to the character
        assert states == real
        return
    assert states == real
    if runtime == "claude" and predicted.budget is not None and predicted.used > predicted.budget:
        assert NAME_ONLY in states.values()  # an overflowing catalog really lost descriptions


def test_the_claude_budget_follows_the_model() -> None:
    rule = listing_rule("claude")
    assert rule.budget is not None
    assert rule.budget.limit("claude-opus-5-5") == 30_000  # 1 M context, 3 characters a token
    assert rule.budget.limit(None) == 30_000
    assert rule.budget.limit("claude-sonnet-4-5") == 8_000  # 200 k, 4 characters a token
    assert rule.budget.limit("claude-sonnet-4-5[1m]") == 40_000
    assert rule.budget.limit("claude-sonnet-4-5", {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "500"}) == 500


def test_an_older_claude_model_keeps_less(tmp_path: Path, claude_bin: str) -> None:
    """The 4.x family gets 8,000 characters: 12 descriptions of 600 characters no longer all fit."""
    skills = catalog(14, 600)
    room = {name: write_skill(tmp_path / "repo", name, text) for name, text in skills}
    with FakeAPI(["ok"]) as api:
        agent = connect_fake("claude", api.base_url, claude_bin, tmp_path / "agent")
        with agent.workspace(room) as workspace:
            agent.run(RunSpec("hello", workspace, model="claude-sonnet-4-5", timeout_s=300))
        real = sent_listing("claude", api.agent_turns()[0], dict(skills))
    predicted = predict(agent.listing, skills, "claude-sonnet-4-5")
    assert {s.name: s.state for s in predicted.skills} == real
    assert NAME_ONLY in real.values()
