"""Golden listings: for each agent, the listing text its real CLI (at its pin) sends its model for the
seeded catalogs of 10, 40 and 120 skills (tests/agent/listing_catalogs), compared byte for byte with
the runtime's pure listing function and with a golden file kept per CLI version
(tests/agent/listing_golden/<runtime>-<version>/). A new pin without golden files fails, and so does a
CLI whose rule changed: the golden file is the rule's record, the real CLI its judge.

Each CLI starts once per catalog (a module fixture shares the run between the tests that read it).
`SKILLSCOPE_UPDATE_GOLDEN=1` writes the golden files from the real CLI, for a new pin only.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.agent.runtime import pins
from harness.model.listing import listing_rule, predict, render
from tests.agent.test_listing import _text
from tests.fakeapi import FakeAPI
from tests.fakeapi.recorded import LISTING_HEADER, RecordedRequest
from tests.fakeapi.runtimes import MODEL
from tests.support import listing_catalogs
from tests.support.agents import connect_fake

RUNTIMES = ("claude", "copilot", "codex", "gemini", "opencode")
SIZES = tuple(listing_catalogs.SHAPES)
GOLDEN = Path(__file__).resolve().parent / "listing_golden"
ROOT = "{root}"  # the skills folder's path in a golden file (it differs from run to run)
XML_ENTRY = re.compile(r"  <skill>\n.*?\n  </skill>", re.S)


def golden_path(runtime: str, size: int) -> Path:
    return GOLDEN / f"{runtime}-{pins()[runtime]['version']}" / f"catalog-{size:03d}.txt"


def model_for(runtime: str) -> str | None:
    return None if runtime == "gemini" else MODEL


def entry_name(entry: str) -> str:
    return entry.split("<name>", 1)[1].split("</name>", 1)[0]


def listing_text(runtime: str, request: RecordedRequest, root: str) -> str:
    """The block of skill entries the CLI sent, exactly, with the skills folder's path as {root}."""
    if runtime == "claude":
        text = _text(request.body)
        start = text.index(LISTING_HEADER) + len(LISTING_HEADER) + 2  # the header, then a blank line
        return text[start : text.index("\n\n", start)]
    text = request.system_text
    if runtime == "codex":
        start = text.index("### Available skills\n") + len("### Available skills\n")
        return text[start : text.index("\n</skills_instructions>", start)]
    start = text.index("<available_skills>\n") + len("<available_skills>\n")
    block = text[start : text.index("\n</available_skills>", start)].replace(root, ROOT)
    if listing_rule(runtime).order == "any":  # gemini lists in the order its folder reads: ours sorts
        block = "\n".join(sorted(XML_ENTRY.findall(block), key=entry_name))
    return block


def cli_listing(runtime: str, size: int, scratch: Path, claude_bin: str, copilot_cache: str) -> str:
    room = listing_catalogs.write_catalog(scratch / "repo", listing_catalogs.load(size))
    with FakeAPI(["ok"]) as api:
        agent = connect_fake(runtime, api.base_url, claude_bin, scratch / "agent", copilot_cache)
        with agent.workspace(room) as workspace:
            stop = stop_at_decision(4, 8)
            spec = RunSpec("hello", workspace, model=model_for(runtime), timeout_s=300, stop=stop)
            trace = agent.run(spec)
            root = str(workspace / agent.skills_folder)
        turns = api.agent_turns()
    assert turns, (runtime, trace.failure, trace.stderr_tail[-2000:])
    return listing_text(runtime, turns[0], root)


@pytest.fixture(scope="module")
def sent(
    claude_bin: str, copilot_cache: str, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str, int], str]:
    """What each real CLI listed for each catalog, each CLI started once per catalog."""
    runs: dict[tuple[str, int], str] = {}

    def listing(runtime: str, size: int) -> str:
        if (runtime, size) not in runs:
            scratch = tmp_path_factory.mktemp(f"golden-{runtime}-{size}")
            runs[runtime, size] = cli_listing(runtime, size, scratch, claude_bin, copilot_cache)
        return runs[runtime, size]

    return listing


def predicted(runtime: str, size: int) -> str:
    rule = listing_rule(runtime)
    return render(predict(rule, listing_catalogs.load(size), model_for(runtime)), ROOT)


# One xdist group per CLI run, so the tests reading a run share its worker (nox runs --dist loadgroup).
POINTS = [
    pytest.param(runtime, size, marks=pytest.mark.xdist_group(f"listing-{runtime}-{size}"))
    for runtime in RUNTIMES
    for size in SIZES
]


@pytest.mark.parametrize(("runtime", "size"), POINTS)
def test_the_pure_listing_function_writes_what_the_real_cli_sent(
    runtime: str, size: int, sent: Callable[[str, int], str]
) -> None:
    assert predicted(runtime, size) == sent(runtime, size)


@pytest.mark.parametrize(("runtime", "size"), POINTS)
def test_the_golden_file_of_the_pinned_cli_is_what_it_sent(
    runtime: str, size: int, sent: Callable[[str, int], str]
) -> None:
    golden = golden_path(runtime, size)
    real = sent(runtime, size)
    if os.environ.get("SKILLSCOPE_UPDATE_GOLDEN") == "1" and not golden.exists():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(real.encode("utf-8"))
    assert golden.exists(), f"no golden listing for {runtime} {pins()[runtime]['version']}: {golden.name}"
    assert golden.read_bytes() == real.encode("utf-8")


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("size", SIZES)
def test_the_golden_file_is_what_the_pure_function_writes(runtime: str, size: int) -> None:
    """Offline: the rule, as data, still writes the recorded listing (fast lane)."""
    assert golden_path(runtime, size).read_bytes() == predicted(runtime, size).encode("utf-8")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_each_rule_was_measured_on_the_pinned_cli(runtime: str) -> None:
    assert listing_rule(runtime).measured_on == pins()[runtime]["version"]


@pytest.mark.parametrize("size", SIZES)
def test_the_committed_catalogs_are_what_their_seed_generates(size: int) -> None:
    generated = listing_catalogs.generate(size)
    assert listing_catalogs.load(size) == [(skill["name"], skill["description"]) for skill in generated]
