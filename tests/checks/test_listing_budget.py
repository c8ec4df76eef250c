"""listing-budget: each agent's predicted listing of the catalog and the room, one warning per skill
not shown in full, with the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.checks import CheckOptions, headroom, listing_budget
from harness.checks import structural as registry
from harness.model import catalog, repo
from harness.model.findings import Finding
from tests.support.catalogs import description, make_catalog
from tests.support.helpers import frontmatter_text, make_skill, structural


def check(root: Path, *agents: str, room: tuple[str, ...] = ()) -> list[Finding]:
    loaded = catalog.load(repo.discover(root, ["*"]))
    return listing_budget.check(loaded, CheckOptions(listing_agents=agents, listing_room=room))


def test_without_an_agent_there_is_no_listing_to_predict_and_the_registry_runs_neither_check(forty: Path):
    """The registry's condition (some --agent) is the listing checks' one switch; run anyway, they
    predict no listing rather than testing the option again."""
    loaded = catalog.load(repo.discover(forty, ["*"]))
    for name, module in (("listing-budget", listing_budget), ("headroom", headroom)):
        assert registry.CHECKS[name](loaded, CheckOptions()) == []
        assert module.check(loaded, CheckOptions()) == []
    assert registry.CHECKS["listing-budget"](loaded, CheckOptions(listing_agents=("claude",))) == check(
        forty, "claude"
    )


def described(root: Path, name: str, text: str) -> None:
    make_skill(root, name, skill_md=frontmatter_text({"name": name, "description": text}) + "# Do it\n")


@pytest.fixture(scope="module")
def forty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 skills of 1,000-character descriptions: over claude's 30,000 and copilot's 15,000."""
    root = tmp_path_factory.mktemp("forty")
    make_catalog(root, 40, 1000)
    return root


def test_claude_lists_the_skills_past_its_budget_by_name_only_each_warned_on_its_description(forty: Path):
    found = check(forty, "claude")
    assert [(f.path, f.line, f.severity) for f in found] == [
        (f"skill-{n:03d}/SKILL.md", 3, "warning") for n in range(29, 40)
    ]
    assert found[0].message == (
        "`skill-029` is not shown in full: claude 2.1.332 lists it by name only, without its description "
        "(budget 30,000 characters, the 40 skills need 40,559); shorten descriptions by 10,559 characters "
        "in all, or split the catalog."
    )


@pytest.mark.parametrize(("cut", "fits"), [(10_559, True), (10_558, False)])
def test_shortening_by_what_the_fix_says_is_exactly_enough(tmp_path: Path, cut: int, fits: bool):
    made = make_catalog(tmp_path, 40, 1000)
    for index, name in enumerate(made):  # the cut spread over the catalog
        share = cut // 40 + (1 if index < cut % 40 else 0)
        text = description(index, 1000 - share)
        described(tmp_path, name, text)
    assert (check(tmp_path, "claude") == []) is fits


def test_one_finding_per_skill_names_every_agent_that_shorts_it_and_what_each_needs(forty: Path):
    found = {f.path: f.message for f in check(forty, "claude", "copilot", "gemini")}
    assert len(found) == 40 - 13  # copilot shows 13 entries whole; claude's 11 are among the rest
    both = found["skill-039/SKILL.md"]
    assert "claude 2.1.332 lists it by name only" in both
    assert "copilot 1.0.102 lists it by name only, without its description (budget 15,000 characters" in both
    assert "gemini" not in both
    assert "in all (claude 10,559, copilot 29,119), or split the catalog." in both
    assert "claude" not in found["skill-013/SKILL.md"]


def test_codex_cuts_every_description_to_the_character_and_the_fix_in_tokens_is_approximate(forty: Path):
    found = check(forty, "codex")
    assert len(found) == 40
    # Each line's share of 2 % of 272,000 tokens, as the real CLI cuts it (tests/agent/test_listing.py).
    assert "codex 0.169.0 cuts its description to 500 of its 1,000 characters" in found[0].message
    assert "budget 5,440 tokens" in found[0].message and "by about 20,000 characters" in found[0].message


def test_a_room_that_fits_is_not_reported_and_the_catalog_clause_says_where(forty: Path):
    room = tuple(f"skill-{n:03d}" for n in range(10))
    found = check(forty, "claude", room=room)
    assert len(found) == 11
    assert all("by name only, without its description in the catalog" in f.message for f in found)


def test_a_room_listed_differently_from_the_catalog_gets_its_own_clause(forty: Path):
    room = tuple(f"skill-{n:03d}" for n in range(20, 40))  # 20 entries: copilot names the last 7 only
    found = {f.path: f.message for f in check(forty, "copilot", room=room)}
    first = found["skill-013/SKILL.md"]
    assert "in the catalog" in first and "routing room" not in first
    last = found["skill-039/SKILL.md"]
    assert "lists it by name only, without its description in the catalog" in last
    assert "without its description in the routing room (budget 15,000 characters, the 20 skills need" in last


def test_a_description_past_claudes_cap_is_cut_even_in_a_small_catalog(tmp_path: Path):
    described(tmp_path, "long", "w " * 800)
    [found] = check(tmp_path, "claude")
    assert "to 1,536 of its 1,600 characters (its cap for one description)" in found.message
    assert found.message.endswith("shorten this description to at most 1,536 characters.")


def test_a_catalog_that_fits_and_an_agent_listing_everything_say_nothing(forty: Path, tmp_path: Path):
    make_catalog(tmp_path, 10, 1000)
    assert check(tmp_path, "claude", "copilot", "codex", "gemini", "opencode") == []
    assert check(forty, "gemini", "opencode") == []


def test_no_agent_means_no_prediction_as_in_a_paid_runs_gate(forty: Path):
    assert check(forty) == []


def test_structural_predicts_all_five_agents_unless_told_or_set(forty: Path, tmp_path: Path):
    run, report = structural(forty, "--skills-dir", "*", tmp=tmp_path)
    messages = [f["message"] for f in report["findings"] if f["rule"] == "listing-budget"]
    assert run.code == 0 and len(messages) == 40  # codex cuts every one
    assert any("claude" in m and "copilot" in m and "codex" in m for m in messages)
    _, told = structural(forty, "--skills-dir", "*", "--agent", "claude", tmp=tmp_path)
    assert len([f for f in told["findings"] if f["rule"] == "listing-budget"]) == 11
    (forty / "skillscope.toml").write_text('agent = "gemini,opencode"\n', encoding="utf-8")
    try:
        _, settled = structural(forty, "--skills-dir", "*", tmp=tmp_path)
    finally:
        (forty / "skillscope.toml").unlink()
    assert [f for f in settled["findings"] if f["rule"] == "listing-budget"] == []


def test_structural_predicts_the_routing_room_and_refuses_an_unknown_agent(forty: Path, tmp_path: Path):
    everything = ("--agent", "copilot", "--routing-room", "all")
    _, report = structural(forty, "--skills-dir", "*", *everything, tmp=tmp_path)
    assert all("routing room" not in f["message"] for f in report["findings"])  # all: the same skills
    run, _ = structural(forty, "--skills-dir", "*", "--agent", "clod", tmp=tmp_path)
    assert run.code == 2 and "--agent: unknown agent 'clod'" in run.stderr


def test_structural_predicts_each_model_named_and_claude_keeps_less_on_an_older_one(tmp_path: Path):
    root = tmp_path / "fourteen"
    make_catalog(root, 14, 600)  # 8,400 characters: within 30,000, over the 4.x family's 8,000
    run, default = structural(root, "--skills-dir", "*", "--agent", "claude", tmp=tmp_path)
    assert run.code == 0 and [f for f in default["findings"] if f["rule"] == "listing-budget"] == []
    both = ("--agent", "claude,copilot", "--model", "claude=claude-sonnet-4-5,claude-opus-5-5")
    run, report = structural(root, "--skills-dir", "*", *both, tmp=tmp_path)
    messages = [f["message"] for f in report["findings"] if f["rule"] == "listing-budget"]
    assert run.code == 0 and messages
    assert all("claude 2.1.332 on claude-sonnet-4-5 lists it by name only" in m for m in messages)
    assert all("claude-opus-5-5" not in m and "copilot" not in m for m in messages)  # both fit there
    assert "budget 8,000 characters" in messages[0]
    run, _ = structural(root, "--skills-dir", "*", "--model", "clod=x", tmp=tmp_path)
    assert run.code == 2 and "--model: 'clod=x' is for agent 'clod'" in run.stderr


def test_copilot_does_not_load_a_description_over_its_limit_and_the_fix_names_the_limit(tmp_path: Path):
    described(tmp_path, "long-one", "Long. " * 200)  # 1,199 characters once YAML trims the end
    described(tmp_path, "short-one", "Does the short job.")
    (found,) = check(tmp_path, "copilot", "gemini")
    assert (found.path, found.line) == ("long-one/SKILL.md", 3)
    assert "copilot 1.0.102 does not load it: its description is over 1,024 characters" in found.message
    assert found.message.endswith("shorten this description to at most 1,024 characters.")
