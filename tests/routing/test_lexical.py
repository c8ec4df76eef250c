"""The lexical engine on a catalog whose ranks are known by construction (tests/routing/lexical_catalog).

Each description there uses words no other one does, so which skills a prompt can rank follows from
the words it holds; expected.json beside the skills gives every case's verdict and rank.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.model import catalog, repo
from harness.model.dataset import Case
from harness.routing import verdicts
from harness.routing.lexical import LexicalEngine, rank_rates, vocabulary_gaps

CATALOG = Path(__file__).parent / "lexical_catalog"
EXPECTED = json.loads((CATALOG / "expected.json").read_text(encoding="utf-8"))


def load():
    loaded = catalog.load(repo.discover(CATALOG, ["*"]))
    engine = LexicalEngine({name: skill.description for name, skill in loaded.skills.items()})
    return engine, [engine.grade(case) for case in loaded.cases()]


def test_every_case_gets_the_verdict_and_rank_its_construction_gives():
    _, outcomes = load()
    got = {o.case.id: {"verdict": o.verdict, "rank": o.rank} for o in outcomes}
    assert got == EXPECTED["cases"]


def test_rank1_and_top_k_rates_count_the_positives():
    engine, outcomes = load()
    overall, per_skill = rank_rates(outcomes, engine.room)
    assert {key: overall[key] for key in ("positives", "rank1", "top_k")} == EXPECTED["rank1"]
    assert per_skill["pdf-merge"]["rank1"] == 2 and per_skill["pdf-merge"]["top_k"] == 3


def test_a_positive_sharing_no_word_with_its_description_is_its_own_finding():
    _, outcomes = load()
    [gap] = vocabulary_gaps(outcomes)
    assert gap.rule == "description-vocabulary-gap" and gap.severity == "warning"
    assert (gap.path, gap.line) == ("csv-profile/evals/evals.json", 5)
    assert "shares no word with a prompt users would type (half, rows, spreadsheet, blank)" in gap.message
    assert [o.case.id for o in outcomes if o.vocabulary_gap] == EXPECTED["vocabulary_gaps"]


def test_a_third_skill_ranked_above_the_owner_is_a_misroute_naming_it_though_the_skill_is_not_first():
    _, outcomes = load()
    lost = next(o for o in outcomes if o.case.id == "csv-profile-owner-lost")
    assert lost.verdict == verdicts.WRONG_SKILL and lost.observed == "pdf-merge"
    assert lost.owner_score == 0 < lost.score
    assert "expected its owner git-history first -> pdf-merge ranked first" in lost.summary
    assert "`pdf-merge`'s description claims a prompt that belongs to git-history" in lost.summary


def test_each_case_keeps_the_top_three_with_scores_and_the_shared_words():
    _, outcomes = load()
    second = next(o for o in outcomes if o.case.id == "pdf-merge-second")
    assert [m.skill for m in second.top] == ["slide-deck", "pdf-merge"]
    assert second.top[0].score > second.top[1].score > 0
    assert set(second.top[1].shared) == {"merge", "pdf"}


def test_a_tie_at_the_cut_counts_against_a_positive_and_for_a_false_trigger():
    engine = LexicalEngine({"alpha-job": "Renders invoices.", "beta-job": "Renders invoices."})
    tie = "render the invoices"
    positive = engine.grade(Case("p", tie, True, "alpha-job", "a.json", top_k=1))
    negative = engine.grade(Case("n", tie, False, "beta-job", "b.json"))
    assert (positive.verdict, positive.rank) == (verdicts.WRONG_SKILL, 2)
    assert negative.verdict == verdicts.FALSE_TRIGGER


@pytest.mark.parametrize(
    ("case", "error"),
    [
        (Case("n", "merge pdf", False, "pdf-merge", "a.json", owner="outside"), "outside is not in the room"),
        (Case("u", "merge pdf", False, None, "negatives.json"), "a shared negative belongs to no skill"),
    ],
)
def test_a_case_the_room_cannot_rank_is_an_error_never_a_pass_or_a_miss(case: Case, error: str):
    engine, _ = load()
    outcome = engine.grade(case)
    assert outcome.verdict == verdicts.ERROR and not outcome.graded and not outcome.passed
    assert error in outcome.error


def test_the_same_catalog_ranks_the_same_every_time():
    _, first = load()
    _, second = load()
    assert [(o.case.id, o.top, o.rank, o.score) for o in first] == [
        (o.case.id, o.top, o.rank, o.score) for o in second
    ]


# A room where the prompt's one subject word ("tests") is held by one skill's name only and by another's
# description: the name heads the listing entry, so its skill ranks first.
NAMED_ROOM = {
    "test-driven-development": "Use when implementing logic, fixing a bug or changing behavior, and when a "
    "bug report arrives before you modify existing functionality.",
    "browser-debugging": "Inspect the DOM and console errors of a page and run its tests.",
    "choosing-skills": "Use at the start of a session to find which skill applies to the task at hand.",
}


def test_a_skill_whose_name_carries_the_only_matching_word_ranks_first():
    engine = LexicalEngine(NAMED_ROOM)
    prompt = "Add accessibility regression tests for the settings modal"
    outcome = engine.grade(Case("tdd", prompt, True, "test-driven-development", "a.json", top_k=1))
    assert (outcome.verdict, outcome.rank) == (verdicts.CORRECT_TRIGGER, 1)
    assert outcome.top[0].shared == ("tests",)
    assert [m.skill for m in outcome.top] == ["test-driven-development", "browser-debugging"]


def test_a_skill_about_skills_matches_which_skill_should_handle_this():
    engine = LexicalEngine(NAMED_ROOM)
    prompt = "Which skill should handle this request?"
    negative = Case("n", prompt, False, "test-driven-development", "a.json", owner="choosing-skills")
    outcome = engine.grade(negative)
    assert outcome.verdict == verdicts.CORRECT_TRIGGER  # its owner took it: the right route
    assert outcome.observed == "choosing-skills" and outcome.owner_rank == 1
    assert outcome.top[0].shared == ("skill",)
