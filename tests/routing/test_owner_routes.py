"""A false case naming its `owner` says "this prompt belongs to the owner": the owner firing is the right
route, the dataset's own skill firing a false trigger of it, a third skill a misroute naming that skill,
nothing at all a miss of the owner. One classification (verdicts.judge) decides it for the agent engine,
the lexical engine and tune's scoring; hypothesis draws the owner and what fired, and every engine must
give judge's verdict, which must be the rule as written here."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.compare.interleave import run_routing
from harness.compare.modes import routing_comparison
from harness.deadline import Deadline
from harness.model.dataset import Case
from harness.paid.controls import RunControls
from harness.report.routing import hint
from harness.routing import verdicts
from harness.routing.lexical import LexicalEngine
from harness.routing.metrics import CaseOutcome
from harness.routing.result import case_json
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.routing.verdicts import CORRECT_TRIGGER, FALSE_TRIGGER, MISSED_TRIGGER, WRONG_SKILL, Sample
from harness.tune.candidates import Candidate
from harness.tune.scoring import LexicalScorer
from harness.tune.split import NEGATIVE, POSITIVE, Split
from tests.support.examples import examples

# Names that share no word with each other, with the prompt or with the filler description.
NAMES = ("amber", "basil", "cedar", "delta", "ember")
PROMPT = "zebra quokka"
HELD = "Zebra and quokka."  # the description of every skill that fires on PROMPT
FILLER = "Lorem ipsum."  # shares no word with PROMPT


def owned(own: str, owner: str) -> Case:
    return Case("n", PROMPT, False, own, f"{own}/evals/evals.json", line=4, owner=owner)


def rule(own: str, owner: str, fired: set[str]) -> str:
    """The rule as the dataset's authors read it, written apart from judge."""
    if own in fired:
        return FALSE_TRIGGER
    if not fired:
        return MISSED_TRIGGER
    return CORRECT_TRIGGER if fired == {owner} else WRONG_SKILL


def lexical(fired: set[str]) -> LexicalEngine:
    """A room whose ranking of PROMPT ties exactly `fired` for first place (nothing, when it is empty)."""
    return LexicalEngine({name: HELD if name in fired else FILLER for name in NAMES})


ROLES = st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True)


@settings(derandomize=True, max_examples=examples(200), deadline=None)
@given(roles=ROLES, fired=st.sets(st.sampled_from(NAMES)))
def test_judge_is_the_rule_and_names_the_skill_to_change(roles, fired):
    own, owner = roles
    verdict, named = verdicts.judge(owner, own, sorted(fired))
    assert verdict == rule(own, owner, fired)
    if verdict == FALSE_TRIGGER:
        assert named == own  # the skill to narrow, even when the owner fired beside it
    elif verdict == WRONG_SKILL:
        assert named in fired - {own, owner}  # the skill that took the owner's prompt
    else:
        assert named == (owner if verdict == CORRECT_TRIGGER else None)


@settings(derandomize=True, max_examples=examples(60), deadline=None)
@given(roles=ROLES, fired=st.sets(st.sampled_from(NAMES), max_size=1))
def test_the_agent_and_the_lexical_engine_agree_on_one_firing(roles, fired):
    own, owner = roles
    case = owned(own, owner)
    observed = next(iter(fired), None)
    agent = CaseOutcome(case, [Sample(observed=observed)])
    ranked = lexical(fired).grade(case)
    assert agent.verdict == ranked.verdict == rule(own, owner, fired)
    assert agent.observed == ranked.observed == observed
    assert agent.expected == ranked.expected == owner  # what every report's `expect` says
    # tune grades a lexical outcome by the same classification
    assert verdicts.classify(case.expected_skill, ranked.observed, case.unwanted_skill) == ranked.verdict


@settings(derandomize=True, max_examples=examples(60), deadline=None)
@given(roles=ROLES, fired=st.sets(st.sampled_from(NAMES), min_size=2))
def test_a_lexical_tie_for_first_counts_against_the_case(roles, fired):
    own, owner = roles
    ranked = lexical(fired).grade(owned(own, owner))
    assert ranked.verdict == verdicts.judge(owner, own, sorted(fired))[0] == rule(own, owner, fired)
    assert ranked.verdict != CORRECT_TRIGGER
    assert ranked.observed in fired  # the skill the summary tells the author to look at


@pytest.mark.parametrize(
    ("observations", "verdict"),
    [
        (["basil", "basil", "amber"], CORRECT_TRIGGER),  # the majority went to the owner
        (["amber", "amber", "basil"], FALSE_TRIGGER),
        (["basil", None, None], MISSED_TRIGGER),
        (["cedar", "basil", "cedar"], WRONG_SKILL),
    ],
)
def test_repeats_take_the_majority_of_the_same_classification(observations, verdict):
    outcome = CaseOutcome(owned("amber", "basil"), [Sample(observed=o) for o in observations])
    assert outcome.verdict == verdict
    fired, graded = outcome.trigger_counts()
    assert (fired, graded) == (observations.count("basil"), 3)  # the owner's share: the expected skill


@pytest.mark.parametrize(
    ("observed", "says"),
    [
        ("amber", "`amber`'s description claims a prompt that belongs to `basil`: narrow `amber`'s"),
        ("cedar", "compare the descriptions of `basil` and `cedar`"),
        (None, "read `basil`'s description as the agent would"),
    ],
)
def test_the_advice_names_the_skill_to_narrow_or_widen(observed, says):
    outcome = CaseOutcome(owned("amber", "basil"), [Sample(observed=observed)])
    assert not outcome.passed
    advice = hint(case_json(outcome))  # the renderer reads the case as the JSON report holds it
    assert says in advice
    assert "narrow `basil`" not in advice  # the owner firing is never what is wrong
    assert "expected basil (the prompt's owner; not amber)" in outcome.summary


@pytest.mark.parametrize(
    ("fired", "says"),
    [
        ({"amber"}, "narrow `amber`'s description or widen `basil`'s"),
        ({"cedar"}, "`cedar`'s description claims a prompt that belongs to basil"),
        (set(), "no skill shares a word: widen `basil`'s description"),
    ],
)
def test_the_lexical_summary_names_the_skill_to_change(fired, says):
    assert says in lexical(fired).grade(owned("amber", "basil")).summary


class NeverRun:
    """An agent a test expects never to be asked: a case the room cannot grade must not be run."""

    runtime = "claude"

    def workspace(self, room):  # pragma: no cover - reaching it fails the test
        raise AssertionError("a case whose owner is outside the room was run")


def test_an_owner_outside_the_agents_room_is_not_run_and_not_graded_and_names_the_fix(tmp_path: Path):
    done: list[CaseOutcome] = []
    run = RoutingRun(
        NeverRun(),  # type: ignore[arg-type]
        {"amber": tmp_path / "amber"},
        RoutingSettings(),
        RunControls(Deadline(0)),
        widen=lambda names: f"`--routing-room catalog` puts {', '.join(names)} in",
    )
    run.on_case_done = done.append
    [outcome] = run.run([owned("amber", "basil")])
    assert done == [outcome] and outcome.samples == []
    assert outcome.verdict == verdicts.ERROR and not outcome.graded and not outcome.passed
    assert outcome.error == (
        "basil is not in the room, so the case cannot be graded (an agent cannot choose a skill it was not "
        "given); `--routing-room catalog` puts basil in"
    )


def test_an_owner_outside_the_lexical_room_is_not_ranked():
    engine = LexicalEngine({"amber": HELD, "cedar": FILLER})
    outcome = engine.grade(owned("amber", "basil"))
    assert outcome.verdict == verdicts.ERROR and "basil is not in the room" in (outcome.error or "")


def test_tune_counts_an_owned_negative_as_a_positive_of_its_owner_and_scores_it_by_the_owner():
    case = owned("amber", "basil")
    split = Split(1, "basil", {})
    assert split.kind(case) == POSITIVE and Split(1, "amber", {}).kind(case) == NEGATIVE
    room = {name: FILLER for name in NAMES}
    scorer = LexicalScorer(room, "basil")
    [took] = scorer.grade(Candidate("current", HELD, "current"), [case])
    assert took.passed is True and took.observed == "basil"
    [lost] = LexicalScorer({**room, "amber": HELD}, "basil").grade(
        Candidate("current", FILLER, "current"), [case]
    )
    assert lost.passed is False and lost.observed == "amber"


def test_compare_never_runs_an_owned_negative_on_a_side_without_its_owner(tmp_path: Path):
    sides = [
        RoutingRun(NeverRun(), {"amber": tmp_path / "amber"}, RoutingSettings(), RunControls(Deadline(0)))  # type: ignore[arg-type]
        for _ in range(2)
    ]
    done: list[tuple[CaseOutcome, CaseOutcome]] = []
    [(base, cand)] = run_routing(*sides, [owned("amber", "basil")], 1, 2, lambda b, c: done.append((b, c)))
    assert done == [(base, cand)] and base.samples == cand.samples == []
    compared = routing_comparison(base, cand)
    assert compared.expect == "basil"
    for side in (compared.baseline, compared.candidate):
        assert side.status == "error" and "basil is not in the room" in (side.error or "")
