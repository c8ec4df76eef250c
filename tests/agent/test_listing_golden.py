"""Golden listings: for each agent, the listing text its real CLI (at its pin) sends its model for the
seeded catalogs of 10, 40 and 120 skills (tests/agent/listing_catalogs), compared byte for byte with
the runtime's pure listing function and with a golden file kept per CLI version
(tests/agent/listing_golden/<runtime>-<version>/). A new pin without golden files fails, and so does a
CLI whose rule changed: the golden file is the rule's record, the real CLI its judge.

Each CLI starts once per catalog (a module fixture shares the run between the tests that read it),
except where its rule lists every entry on its own (no budget, so one entry never changes another):
there one start lists the three catalogs together, under names made unique, and each catalog's
listing is cut out of it, the whole listing checked against the pure function as well.
`SKILLSCOPE_UPDATE_GOLDEN=1` writes the golden files from the real CLI, for a new pin only.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.agent import RunSpec, stop_at_decision
from harness.agent.runtime import pins
from harness.model.listing import listing_rule, predict, render
from tests.fakeapi import FakeAPI
from tests.fakeapi.runtimes import MODEL
from tests.support import listing_catalogs
from tests.support.agents import connect_fake
from tests.support.listings import ROOT, XML_ENTRY, entry_name, listing_text

RUNTIMES = ("claude", "copilot", "codex", "gemini", "opencode")
SIZES = tuple(listing_catalogs.SHAPES)
GOLDEN = Path(__file__).resolve().parent / "listing_golden"


def golden_path(runtime: str, size: int) -> Path:
    return GOLDEN / f"{runtime}-{pins()[runtime]['version']}" / f"catalog-{size:03d}.txt"


def model_for(runtime: str) -> str | None:
    return None if runtime == "gemini" else MODEL


def cli_listing(
    runtime: str, skills: list[tuple[str, str]], scratch: Path, claude_bin: str, copilot_cache: str
) -> str:
    room = listing_catalogs.write_catalog(scratch / "repo", skills)
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


def one_start_lists_every_catalog(runtime: str) -> bool:
    """Whether each entry of the runtime's listing depends on its own skill alone."""
    return listing_rule(runtime).overflow == "none"


def union_catalog() -> tuple[list[tuple[str, str]], dict[int, dict[str, str]]]:
    """The three catalogs as one, a name that an earlier catalog holds made unique with the catalog's
    size; and per catalog, the name in the union -> its own name."""
    union: list[tuple[str, str]] = []
    names: dict[int, dict[str, str]] = {}
    for size in SIZES:
        names[size] = {}
        for name, description in listing_catalogs.load(size):
            unique = name if name not in dict(union) else f"{name}-{size}"
            union.append((unique, description))
            names[size][unique] = name
    assert len(dict(union)) == len(union)
    return union, names


def cut_out(block: str, names: dict[str, str]) -> str:
    """One catalog's listing from the union's: its entries, under their own names, in name order."""
    entries = []
    for entry in XML_ENTRY.findall(block):
        unique = entry_name(entry)
        if unique in names:
            own = names[unique]
            entry = entry.replace(f"<name>{unique}</name>", f"<name>{own}</name>")
            entries.append(entry.replace(f"{ROOT}/{unique}/SKILL.md", f"{ROOT}/{own}/SKILL.md"))
    return "\n".join(sorted(entries, key=entry_name))


@pytest.fixture(scope="module")
def sent(
    claude_bin: str, copilot_cache: str, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str, int], str]:
    """What each real CLI listed for each catalog, each CLI started once per catalog, or once."""
    runs: dict[tuple[str, int], str] = {}

    def start(runtime: str, size: int, skills: list[tuple[str, str]]) -> str:
        scratch = tmp_path_factory.mktemp(f"golden-{runtime}-{size}")
        return cli_listing(runtime, skills, scratch, claude_bin, copilot_cache)

    def listing(runtime: str, size: int) -> str:
        if (runtime, size) in runs:
            return runs[runtime, size]
        if not one_start_lists_every_catalog(runtime):
            runs[runtime, size] = start(runtime, size, listing_catalogs.load(size))
            return runs[runtime, size]
        union, names = union_catalog()
        whole = start(runtime, 0, union)
        assert whole == render(predict(listing_rule(runtime), union, model_for(runtime)), ROOT)
        runs.update({(runtime, each): cut_out(whole, names[each]) for each in SIZES})
        return runs[runtime, size]

    return listing


def predicted(runtime: str, size: int) -> str:
    rule = listing_rule(runtime)
    return render(predict(rule, listing_catalogs.load(size), model_for(runtime)), ROOT)


# One xdist group per CLI run, so the tests reading a run share its worker (nox runs --dist loadgroup).
POINTS = [
    pytest.param(
        runtime,
        size,
        marks=pytest.mark.xdist_group(
            f"listing-{runtime}" if one_start_lists_every_catalog(runtime) else f"listing-{runtime}-{size}"
        ),
    )
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
