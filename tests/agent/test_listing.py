"""Each runtime's predicted listing against what its real CLI sent to the scripted API, to the
character: which skills it listed, in full, cut (and what of each survived) or by name only, over
catalogs of 10 to 500 skills, descriptions of 60 to 5,000 characters, wide and combining characters,
emoji and runs of spaces."""

from __future__ import annotations

import html
import json
import random
import re
import subprocess
import time
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.model.listing import DROPPED, FULL, NAME_ONLY, TRUNCATED, listing_rule, normalized, predict
from tests.fakeapi import FakeAPI, hermetic_env, write_skill
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
# (skills, description length): a length list is cycled over the catalog; "mixed" is a catalog of
# wide, combining and emoji characters with runs of spaces; "over" has descriptions past the caps.
POINTS = {
    "claude": [(10, 1024), (40, 1000), (200, 100), (60, [100, 1024, 400, 800]), (40, "mixed"), (6, "over")],
    "copilot": [(10, 1000), (40, 1000), (200, 100), (30, [100, 1024, 600]), (40, "mixed"), (6, "over")],
    "gemini": [(40, 1000), (200, 100), (40, "mixed"), (6, "over")],
    "opencode": [(40, 1024), (40, "mixed"), (6, "over")],
    "codex": [(10, 100), (40, 1000), (60, [100, 1024, 400, 800]), (40, "mixed"), (6, "over"), (500, 60)],
}
PIECES = [
    "Déjà vu ",
    "日本語のテキスト ",
    "emoji 🙂 ok ",
    "plain words here ",
    "  double  spaces ",
    "e\u0301 👩\u200d💻 ",
]
OVER = [1024, 1025, 1536, 1537, 5000, 600]


def catalog(size: int, length: int | list[int] | str, seed: int = 7) -> list[tuple[str, str]]:
    """Names in no particular order (so sorting shows), descriptions of exact lengths."""
    rnd = random.Random(seed)
    if length == "mixed":
        return [(f"{rnd.choice(WORDS)}-{index:03d}", _mixed(rnd, 900)) for index in range(size)]
    if length == "over":  # one of them of emoji, over 1,024 in UTF-16 units but not in characters
        lengths = OVER[:size]
        return [(f"over-{n}", "🙂" * n if n == 600 else ("Long. " * n)[:n].rstrip()) for n in lengths]
    lengths = length if isinstance(length, list) else [length]
    made = []
    for index in range(size):
        name = f"{rnd.choice(WORDS)}-{rnd.choice(WORDS)}-{index:03d}"
        text = f"Skill {index} handles task {index}."
        while len(text) < lengths[index % len(lengths)]:
            text += f" Use it for widget{index} and gadget{index} work."
        made.append((name, text[: lengths[index % len(lengths)]].rstrip()))  # YAML drops an end space
    return made


def _mixed(rnd: random.Random, length: int) -> str:
    text = "Mixed words "
    while len(text) < length:
        text += rnd.choice(PIECES)
    return text[:length].strip()


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


# Exact forms, no whitespace folded: codex's bare entry has no description at all.
CODEX_LINE = re.compile(r"^- (?P<name>[^:\n]+):(?: (?P<desc>.*?))? \(file: [^)\n]+\)$", re.M)
NAMES_LINE = re.compile(r"^Additional skills available \(invoke by name\): (?P<names>.*)$", re.M)
XML_ENTRY = re.compile(
    r"<skill>\s*<name>(?P<name>[^<]*)</name>\s*<description>(?P<desc>.*?)</description>", re.S
)


def sent_texts(runtime: str, request: RecordedRequest) -> dict[str, str | None]:
    """Name -> the description text as the CLI really listed it (None: by name only), in its order."""
    if runtime == "claude":
        lines = claude_listing(request)
        return {name: line[2:].partition(": ")[2] if ": " in line else None for name, line in lines.items()}
    text = request.system_text
    if runtime == "codex":
        start = text.index("### Available skills")
        return {m["name"]: m["desc"] or "" for m in CODEX_LINE.finditer(text[start:])}
    block = text[text.index("<available_skills>") : text.index("</available_skills>")]
    found: dict[str, str | None] = {m["name"]: html.unescape(m["desc"]) for m in XML_ENTRY.finditer(block)}
    named = NAMES_LINE.search(block)  # copilot names the skills past its budget on one line
    return found | dict.fromkeys(named["names"].split(", ") if named else [])


def predicted_texts(runtime: str, skills: list[tuple[str, str]], model: str | None) -> dict[str, str | None]:
    """The same from the predictor: what of each description survives, in listing order."""
    rule = listing_rule(runtime)
    listing = predict(rule, skills, model)
    described = dict(skills)
    plain = html.unescape if rule.escape == "xml" else str  # sent_texts reads XML entries unescaped
    out: dict[str, str | None] = {}
    for skill in listing.skills:
        if skill.state == FULL:
            out[skill.name] = plain(normalized(rule, described[skill.name]))
        elif skill.state == TRUNCATED:
            out[skill.name] = plain(skill.shown)
        elif skill.state == NAME_ONLY:
            out[skill.name] = None
    return out


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
    real = {name: text for name, text in sent_texts(runtime, turns[0]).items() if name in dict(skills)}
    predicted = predicted_texts(runtime, skills, model)
    if listing_rule(runtime).order == "name":
        assert list(real) == list(predicted)  # the same skills, in the same order
    assert real == predicted  # and of each, the same text to the character
    states = {skill.name: skill.state for skill in predict(agent.listing, skills, model).skills}
    if (size, length) == (40, 1000) and runtime in ("claude", "codex", "copilot"):
        assert set(states.values()) & {NAME_ONLY, TRUNCATED, DROPPED}  # this catalog overflows


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
        real = sent_texts("claude", api.agent_turns()[0])
    assert {name: text for name, text in real.items() if name in dict(skills)} == predicted_texts(
        "claude", skills, "claude-sonnet-4-5"
    )
    assert None in real.values()  # some listed by name only


def test_past_the_budget_claude_keeps_the_descriptions_of_the_skills_used_most(
    tmp_path: Path, claude_bin: str
) -> None:
    """claude ranks descriptions by its usage record (uses, decayed by age) before the budget takes
    them; skills never used (every new skill) keep listing order. Recorded today, the score is the
    count; the two used skills at the end of the list keep their descriptions, two earlier ones lose
    theirs."""
    skills = [(f"skill-{n:02d}", "w" * 1000) for n in range(40)]
    workspace = tmp_path / "ws"
    for name, text in skills:
        write_skill(workspace / ".claude" / "skills", name, text)
    now_ms = int(time.time() * 1000)
    counts = {"skill-39": 2, "skill-38": 1}
    record = {name: {"usageCount": count, "lastUsedAt": now_ms} for name, count in counts.items()}
    plugins_off = json.dumps({"enabledPlugins": {"cc-plugin-plugin-authoring@builtin": False}})
    isolation = ["--setting-sources", "project", "--settings", plugins_off, "--model", MODEL]
    with FakeAPI(["ok"]) as api:
        env = hermetic_env(api.base_url, tmp_path / "scratch", {"CLAUDE_CODE_DISABLE_BUNDLED_SKILLS": "1"})
        Path(env["CLAUDE_CONFIG_DIR"], ".claude.json").write_text(json.dumps({"skillUsage": record}))
        argv = [claude_bin, "-p", "--output-format", "stream-json", "--verbose", *isolation]
        run = {"cwd": workspace, "env": env, "capture_output": True, "text": True, "timeout": 300}
        done = subprocess.run(argv, input="hello", check=False, **run)
        assert api.agent_turns(), done.stderr[-2000:]
        real = sent_texts("claude", api.agent_turns()[0])
    usage = {name: float(count) for name, count in counts.items()}
    predicted = predict(listing_rule("claude"), skills, MODEL, usage=usage)
    assert {name: text for name, text in real.items() if name in dict(skills)} == {
        skill.name: skill.shown or None for skill in predicted.skills
    }
    assert [name for name, text in real.items() if text is None] == [f"skill-{n:02d}" for n in range(27, 38)]
