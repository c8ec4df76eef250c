"""Each runtime's predicted listing against what its real CLI sent to the scripted API, to the
character: which skills it listed, in full, cut (and what of each survived) or by name only, over
catalogs of 10 to 500 skills, descriptions of 60 to 5,000 characters, wide and combining characters,
emoji and runs of spaces.

What each CLI at its pin sent for each catalog is recorded under tests/agent/listing_recorded/
<runtime>-<version>/ and read offline; per runtime one catalog is sent by the real CLI again and must be
its recording byte for byte, so the recordings stay what that CLI sends. A new pin without recordings
fails; `SKILLSCOPE_UPDATE_GOLDEN=1` records the missing ones from the real CLI."""

from __future__ import annotations

import html
import json
import os
import random
import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.agent.runtime import pins
from harness.model.listing import DROPPED, FULL, NAME_ONLY, TRUNCATED, listing_rule, normalized, predict
from tests.fakeapi import FakeAPI, hermetic_env, write_skill
from tests.fakeapi.runtimes import MODEL
from tests.support.agents import connect_fake
from tests.support.listings import listing_text

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
# The catalog each runtime's real CLI sends again: one past its budget where it has one.
REAL_POINT = {runtime: (40, 1024 if runtime == "opencode" else 1000) for runtime in POINTS}
RECORDED = Path(__file__).resolve().parent / "listing_recorded"


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


# Exact forms, no whitespace folded: codex's bare entry has no description at all.
CODEX_LINE = re.compile(r"^- (?P<name>[^:\n]+):(?: (?P<desc>.*?))? \(file: [^)\n]+\)$", re.M)
NAMES_LINE = re.compile(r"^Additional skills available \(invoke by name\): (?P<names>.*)$", re.M)
XML_FIELDS = re.compile(
    r"<skill>\s*<name>(?P<name>[^<]*)</name>\s*<description>(?P<desc>.*?)</description>", re.S
)


def sent_texts(runtime: str, block: str) -> dict[str, str | None]:
    """Name -> the description text as the CLI listed it (None: by name only), in its order, from
    the listing block it sent (tests/support/listings.py); claude's name-only lines have no colon."""
    if runtime == "claude":
        lines = [line[2:] for line in block.splitlines()]
        return {line.partition(": ")[0]: line.partition(": ")[2] if ": " in line else None for line in lines}
    if runtime == "codex":
        return {m["name"]: m["desc"] or "" for m in CODEX_LINE.finditer(block)}
    found: dict[str, str | None] = {m["name"]: html.unescape(m["desc"]) for m in XML_FIELDS.finditer(block)}
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


def point_name(size: int, length: int | list[int] | str) -> str:
    shape = "-".join(map(str, length)) if isinstance(length, list) else str(length)
    return f"{size:03d}-{shape}"


def recorded_path(runtime: str, size: int, length: int | list[int] | str) -> Path:
    return RECORDED / f"{runtime}-{pins()[runtime]['version']}" / f"{point_name(size, length)}.txt"


def model_for(runtime: str) -> str | None:
    return None if runtime == "gemini" else MODEL


def cli_block(
    runtime: str, skills: list[tuple[str, str]], scratch: Path, claude_bin: str, copilot_cache: str
) -> str:
    """The listing block `runtime`'s real CLI sends for `skills`."""
    room = {name: write_skill(scratch / "repo", name, description) for name, description in skills}
    with FakeAPI(["ok"]) as api:
        agent = connect_fake(runtime, api.base_url, claude_bin, scratch / "agent", copilot_cache)
        with agent.workspace(room) as workspace:
            spec = RunSpec(
                "hello", workspace, model=model_for(runtime), timeout_s=300, stop=stop_at_decision(4, 8)
            )
            trace = agent.run(spec)
            root = str(workspace / agent.skills_folder)
        turns = api.agent_turns()
    assert turns, (trace.failure, trace.stderr_tail[-2000:])
    return listing_text(runtime, turns[0], root)


def assert_predicted(runtime: str, size: int, length, block: str) -> None:
    skills = catalog(size, length)
    real = {name: text for name, text in sent_texts(runtime, block).items() if name in dict(skills)}
    predicted = predicted_texts(runtime, skills, model_for(runtime))
    if listing_rule(runtime).order == "name":
        assert list(real) == list(predicted)  # the same skills, in the same order
    assert real == predicted  # and of each, the same text to the character
    states = {
        skill.name: skill.state for skill in predict(listing_rule(runtime), skills, model_for(runtime)).skills
    }
    if (size, length) == (40, 1000) and runtime in ("claude", "codex", "copilot"):
        assert set(states.values()) & {NAME_ONLY, TRUNCATED, DROPPED}  # this catalog overflows


@pytest.mark.parametrize(
    ("runtime", "size", "length"),
    [(runtime, size, length) for runtime, points in POINTS.items() for size, length in points],
)
def test_the_predicted_listing_is_what_the_cli_at_its_pin_sent(runtime: str, size: int, length) -> None:
    """Offline, from the recording (fast lane)."""
    recorded = recorded_path(runtime, size, length)
    assert recorded.exists(), (
        f"no recorded listing for {runtime} {pins()[runtime]['version']}: {recorded.name}"
    )
    assert_predicted(runtime, size, length, recorded.read_text(encoding="utf-8"))


@pytest.fixture
def short_path() -> Iterator[Path]:
    """A scratch folder of a short path: codex counts its skills root's path against the listing's
    budget once the root passes about 128 characters (measured on 0.169.0: each character past it one
    description character fewer), as a deep pytest folder under xdist can; skillscope's own workspaces
    sit a few dozen characters below the temp folder."""
    with tempfile.TemporaryDirectory(prefix="listing-") as scratch:
        yield Path(scratch)


@pytest.mark.parametrize("runtime", list(POINTS))
def test_the_real_cli_sends_its_recorded_listing(
    runtime: str, short_path: Path, claude_bin: str, copilot_cache: str
) -> None:
    tmp_path = short_path
    if os.environ.get("SKILLSCOPE_UPDATE_GOLDEN") == "1":  # a new pin: record what is missing
        for index, (size, length) in enumerate(POINTS[runtime]):
            recorded = recorded_path(runtime, size, length)
            if not recorded.exists():
                block = cli_block(
                    runtime, catalog(size, length), tmp_path / f"record-{index}", claude_bin, copilot_cache
                )
                recorded.parent.mkdir(parents=True, exist_ok=True)
                recorded.write_bytes(block.encode("utf-8"))
    size, length = REAL_POINT[runtime]
    block = cli_block(runtime, catalog(size, length), tmp_path, claude_bin, copilot_cache)
    assert_predicted(runtime, size, length, block)
    assert recorded_path(runtime, size, length).read_bytes() == block.encode("utf-8")


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
        real = sent_texts("claude", listing_text("claude", api.agent_turns()[0], ""))
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
        real = sent_texts("claude", listing_text("claude", api.agent_turns()[0], ""))
    usage = {name: float(count) for name, count in counts.items()}
    predicted = predict(listing_rule("claude"), skills, MODEL, usage=usage)
    assert {name: text for name, text in real.items() if name in dict(skills)} == {
        skill.name: skill.shown or None for skill in predicted.skills
    }
    assert [name for name, text in real.items() if text is None] == [f"skill-{n:02d}" for n in range(27, 38)]
