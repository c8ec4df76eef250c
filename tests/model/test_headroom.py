"""Description headroom agrees with the listing it is derived from: a description grown by its
headroom is still listed in full, and one character more (a few, under a token budget) is not; a
negative headroom is a skill already cut or dropped. Checked on catalogs drawn from the built-in
ballast, whose descriptions vary in length and wording as a marketplace's do."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.model.ballast import built_in_skills
from harness.model.headroom import headroom
from harness.model.listing import FULL, listing_rule, predict
from tests.support.examples import examples

# Past a headroom, how many characters may still leave the skill listed in full: a token budget counts
# whole tokens, so a few more characters can fit in the last one.
SLACK = {"claude": 1, "copilot": 1, "codex": 8}
MODELS = {"claude": "claude-sonnet-4-5", "copilot": None, "codex": None}


def state_after(runtime: str, skills: list[tuple[str, str]], name: str, added: int) -> str | None:
    grown = [(n, d + "x" * added if n == name else d) for n, d in skills]
    return predict(listing_rule(runtime), grown, MODELS[runtime]).state_of(name)


@pytest.mark.parametrize("runtime", sorted(SLACK))
@settings(
    max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_description_grown_by_its_headroom_is_still_listed_in_full_and_not_past_it(runtime, data):
    pool = list(built_in_skills())
    size = data.draw(st.sampled_from([4, 30, 60, 110]))
    skills = data.draw(
        st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique_by=lambda s: s[0])
    )
    name = data.draw(st.sampled_from([n for n, _ in skills]))
    room = headroom(listing_rule(runtime), skills, MODELS[runtime]).rooms[name]
    assert room.chars is not None
    if room.chars >= 0:
        assert state_after(runtime, skills, name, room.chars) == FULL
        assert state_after(runtime, skills, name, room.chars + SLACK[runtime]) != FULL
    else:
        assert room.state != FULL


@pytest.mark.parametrize("runtime", sorted(SLACK))
@pytest.mark.parametrize("size", [60, 110])
def test_no_skill_listed_in_full_is_told_to_lose_characters(runtime, size):
    """Every slice of the ballast at this size: under codex's token budget the round-robin can fill a
    last token past the common level the headroom's arithmetic finds (ballast[240:300] at 60 skills
    gave docs-clean -1 while listed whole), which must read as a room of 0, not a cut."""
    pool = list(built_in_skills())
    for start in range(0, len(pool) - size, size):
        rooms = headroom(listing_rule(runtime), pool[start : start + size], MODELS[runtime]).rooms
        for room in rooms.values():
            if room.state == FULL:
                assert room.chars is not None and room.chars >= 0, (start, room)


def test_an_agent_without_a_budget_or_cap_has_no_bound():
    rooms = headroom(listing_rule("gemini"), list(built_in_skills())[:50]).rooms
    assert {room.chars for room in rooms.values()} == {None}
    assert {room.bound for room in rooms.values()} == {"none"}


def test_a_catalog_under_every_bound_is_bound_by_the_cap_and_says_its_slack():
    skills = list(built_in_skills())[:3]
    room = headroom(listing_rule("codex"), skills)
    first = room.rooms[skills[0][0]]
    assert first.bound == "cap" and first.chars == 1024 - len(skills[0][1])
    assert room.slack is not None and room.slack > 0
