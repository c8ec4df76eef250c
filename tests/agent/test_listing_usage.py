"""claude's usage ranking, measured on its real CLI: past its listing budget claude keeps the most used
skills' descriptions (uses decayed by age) and lists the rest by name. A usage profile given to the run
is written where claude records uses, and the listing it sends the scripted model is the one the pure
function predicts for that profile, which differs from the never-used listing of the same catalog."""

from __future__ import annotations

from pathlib import Path

from harness.agent import RunSpec, stop_at_decision
from harness.model.listing import FULL, NAME_ONLY, listing_rule, predict, render, usage_scores
from tests.fakeapi import FakeAPI
from tests.fakeapi.runtimes import MODEL
from tests.support import listing_catalogs
from tests.support.agents import connect_fake
from tests.support.listings import listing_text

SIZE = 120  # past claude's budget at its default model: some skills are listed by name only


def sent_listing(claude_bin: str, scratch: Path, usage: tuple[tuple[str, int, float], ...]) -> str:
    room = listing_catalogs.write_catalog(scratch / "repo", listing_catalogs.load(SIZE))
    with FakeAPI(["ok"]) as api:
        agent = connect_fake("claude", api.base_url, claude_bin, scratch / "agent")
        with agent.workspace(room) as workspace:
            spec = RunSpec(
                "hello", workspace, model=MODEL, timeout_s=300, stop=stop_at_decision(4, 8), skill_usage=usage
            )
            trace = agent.run(spec)
        turns = api.agent_turns()
    assert turns, (trace.failure, trace.stderr_tail[-2000:])
    return listing_text("claude", turns[0], "")


def test_a_usage_profile_changes_claudes_listing_as_the_pure_function_predicts(claude_bin, tmp_path):
    rule = listing_rule("claude")
    catalog = listing_catalogs.load(SIZE)
    never = predict(rule, catalog, MODEL)
    named_only = [skill.name for skill in never.skills if skill.state == NAME_ONLY]
    assert named_only, "the catalog must overflow claude's budget for the ranking to matter"
    # The skills a never-used install lists by name only, used now (and one long ago, whose uses decay
    # to the floor): each is ranked ahead of the never-used ones and keeps its description.
    usage = tuple((name, 3 + index, 30.0 if index == 0 else 0.5) for index, name in enumerate(named_only))
    ranked = predict(rule, catalog, MODEL, usage=usage_scores(rule, {n: (c, d) for n, c, d in usage}))
    assert all(ranked.state_of(name) == FULL for name in named_only)
    assert any(ranked.state_of(skill.name) == NAME_ONLY for skill in never.skills if skill.state == FULL)

    with_usage = sent_listing(claude_bin, tmp_path / "used", usage)
    assert with_usage == render(ranked)
    assert with_usage != render(never)
