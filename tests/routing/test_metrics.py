"""Metrics over graded cases and the gate, with hand-built outcomes (no CLI)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.model.dataset import Case
from harness.model.stats import wilson_interval
from harness.routing import metrics
from harness.routing.metrics import NO_SKILL, CaseOutcome
from harness.routing.verdicts import ERROR, Sample
from tests.support.examples import examples

ROOM = ["pdf", "pdf-tools"]
ERRORED = object()  # marker: this sample errored


def case(case_id: str, skill: str | None, trigger: bool) -> Case:
    return Case(
        id=case_id,
        prompt=f"prompt of {case_id}",
        should_trigger=trigger,
        skill=skill,
        source=f"{skill or 'shared'}/evals/evals.json",
        line=3,
    )


def outcome(the_case: Case, *observations: object) -> CaseOutcome:
    """One sample per observation: a skill name, None (nothing fired) or ERRORED."""
    samples = [
        Sample(error="the API answered 529 (overloaded)") if o is ERRORED else Sample(observed=o)
        for o in observations
    ]
    return CaseOutcome(the_case, samples)


def pos(case_id: str, skill: str, *observed: object) -> CaseOutcome:
    return outcome(case(case_id, skill, True), *observed)


def near(case_id: str, skill: str, *observed: object) -> CaseOutcome:
    return outcome(case(case_id, skill, False), *observed)


def shared(case_id: str, *observed: object) -> CaseOutcome:
    return outcome(case(case_id, None, False), *observed)


# --- per skill ---------------------------------------------------------------------------


def defined_per_skill(outcomes: list[CaseOutcome], room: list[str]) -> dict[str, dict]:
    """The rows as the report defines them, skill by skill over every outcome."""
    rows = {}
    for skill in room:
        expecting = [o for o in outcomes if o.graded and o.expected == skill]
        fired = [o for o in outcomes if o.graded and o.observed == skill]
        correct = sum(1 for o in expecting if o.observed == skill)
        missed = sum(1 for o in expecting if o.observed is None)
        rows[skill] = {
            "expected": len(expecting),
            "correct": correct,
            "missed": missed,
            "lost_to_other_skill": len(expecting) - correct - missed,
            "fired_total": len(fired),
            "fired_when_not_expected": sum(1 for o in fired if o.expected != skill),
            "recall": round(correct / len(expecting), 3) if expecting else None,
            "precision": round(correct / len(fired), 3) if fired else None,
            "recall_ci95": list(bounds) if (bounds := wilson_interval(correct, len(expecting))) else None,
            "precision_ci95": list(bounds) if (bounds := wilson_interval(correct, len(fired))) else None,
        }
    return rows


SKILLS = st.sampled_from([*ROOM, "not-in-room"])
OBSERVED = st.sampled_from([*ROOM, "not-in-room", None, ERRORED])


@settings(derandomize=True, max_examples=examples(300))
@given(st.lists(st.tuples(st.none() | SKILLS, st.booleans(), OBSERVED), max_size=12))
def test_per_skill_rows_are_the_defined_counts_whatever_the_outcomes(drawn):
    outcomes = [
        outcome(case(f"c{n}", skill, trigger and skill is not None), observed)
        for n, (skill, trigger, observed) in enumerate(drawn)
    ]
    assert metrics.per_skill(outcomes, ROOM) == defined_per_skill(outcomes, ROOM)


def test_per_skill_counts_every_kind_of_outcome():
    outcomes = [
        pos("p1", "pdf", "pdf"),
        pos("p2", "pdf", None),
        pos("p3", "pdf", "pdf-tools"),
        pos("p4", "pdf", "other:pdf-extra"),
        pos("t1", "pdf-tools", "pdf-tools"),
        near("n1", "pdf", "pdf"),
        shared("s1", "pdf-tools"),
        pos("p5", "pdf", ERRORED),  # errors count nowhere
    ]
    rows = metrics.per_skill(outcomes, ROOM)
    assert rows["pdf"] == {
        "expected": 4,
        "correct": 1,
        "missed": 1,
        "lost_to_other_skill": 2,
        "fired_total": 2,
        "fired_when_not_expected": 1,
        "recall": 0.25,
        "precision": 0.5,
        "recall_ci95": list(wilson_interval(1, 4)),
        "precision_ci95": list(wilson_interval(1, 2)),
    }
    assert rows["pdf-tools"] == {
        "expected": 1,
        "correct": 1,
        "missed": 0,
        "lost_to_other_skill": 0,
        "fired_total": 3,
        "fired_when_not_expected": 2,
        "recall": 1.0,
        "precision": 0.333,
        "recall_ci95": list(wilson_interval(1, 1)),
        "precision_ci95": list(wilson_interval(1, 3)),
    }


def test_other_skills_never_get_a_row():
    outcomes = [pos("p1", "pdf", "other:stray"), shared("s1", "other:stray")]
    rows = metrics.per_skill(outcomes, ROOM)
    assert list(rows) == ROOM
    assert rows["pdf"]["lost_to_other_skill"] == 1 and rows["pdf"]["fired_total"] == 0


def test_recall_and_precision_are_none_when_their_denominator_is_zero():
    rows = metrics.per_skill([shared("s1", None), pos("t1", "pdf-tools", None)], ROOM)
    assert rows["pdf"]["recall"] is None and rows["pdf"]["precision"] is None
    assert rows["pdf-tools"]["recall"] == 0.0 and rows["pdf-tools"]["precision"] is None


def test_a_prefix_neighbour_is_counted_under_its_own_name_only():
    rows = metrics.per_skill([pos("t1", "pdf-tools", "pdf-tools")], ROOM)
    assert rows["pdf"]["fired_total"] == 0 and rows["pdf-tools"]["correct"] == 1


# --- categories, confusion, counts ---------------------------------------------------------


def test_by_category_reports_each_category_even_when_empty():
    outcomes = [
        pos("p1", "pdf", "pdf"),
        pos("p2", "pdf", None),
        near("n1", "pdf", None),
        near("n2", "pdf", ERRORED),
    ]
    assert metrics.by_category(outcomes) == {
        "positive": {"graded": 2, "passed": 1, "accuracy": 0.5},
        "near_miss": {"graded": 1, "passed": 1, "accuracy": 1.0},
        "unrelated": {"graded": 0, "passed": 0, "accuracy": None},
    }


def test_accuracy_is_rounded_for_display_only():
    assert metrics.accuracy(2, 3) == 0.667
    assert metrics.accuracy(3999, 4000) == 1.0
    assert metrics.accuracy(0, 0) is None


def test_confusion_matrix_rows_are_expected_and_columns_observed():
    outcomes = [
        pos("p1", "pdf", "pdf"),
        pos("p2", "pdf", "pdf-tools"),
        pos("p3", "pdf", "pdf"),
        shared("s1", None),
        shared("s2", "other:stray"),
        pos("p4", "pdf", ERRORED),
    ]
    assert metrics.confusion(outcomes) == {
        "pdf": {"pdf": 2, "pdf-tools": 1},
        NO_SKILL: {NO_SKILL: 1, "other:stray": 1},
    }


def test_verdict_counts_list_every_verdict():
    counts = metrics.verdict_counts([pos("p1", "pdf", "pdf"), shared("s1", ERRORED)])
    assert counts == {
        "correct_trigger": 1,
        "true_negative": 0,
        "missed_trigger": 0,
        "wrong_skill": 0,
        "false_trigger": 0,
        "error": 1,
        "not-run": 0,
    }


def test_a_case_not_run_is_neither_graded_nor_an_error_and_fails_the_gate_first():
    skipped = CaseOutcome(
        Case(id="late", prompt="p", should_trigger=True, skill="pdf", source="pdf/evals/evals.json"),
        [Sample(error="not run: the run had spent $1.0000, reaching its --max-run-usd of $1", not_run=True)],
    )
    assert (skipped.verdict, skipped.graded, skipped.passed) == ("not-run", False, False)
    assert metrics.verdict_counts([skipped])["not-run"] == 1
    gate = metrics.gate([pos("p1", "pdf", "pdf"), skipped], Fraction(0))
    assert not gate.passed
    assert gate.reason == "1 case(s) did not run: the run had spent $1.0000, reaching its --max-run-usd of $1"


def test_a_case_whose_samples_disagree_on_pass_or_fail_is_flaky():
    assert pos("p1", "pdf", "pdf", None, "pdf").flaky
    assert not pos("p2", "pdf", "pdf", ERRORED, "pdf").flaky
    assert not pos("p3", "pdf", None, "other-skill").flaky  # two ways of failing are not flaky


# --- a case over repeated samples -------------------------------------------------------------


def test_repeated_samples_give_the_majority_and_a_trigger_rate():
    o = pos("p1", "pdf", "pdf", None, "pdf")
    assert o.verdict == "correct_trigger" and o.observed == "pdf" and o.passed
    rate, (low, high) = o.trigger_rate()
    assert rate == pytest.approx(2 / 3) and low == pytest.approx(0.2077, abs=1e-4)
    assert high == pytest.approx(0.9385, abs=1e-4)


def test_a_negative_case_trigger_rate_counts_any_skill():
    o = shared("s1", "pdf", None, "pdf-tools", None)
    assert o.verdict == "false_trigger"  # 2-2 tie goes to the stricter verdict
    assert o.observed == "pdf"  # the first sample agreeing with the verdict
    assert o.trigger_rate()[0] == 0.5


def test_errored_samples_leave_the_trigger_rate_and_an_all_error_case_has_none():
    o = pos("p1", "pdf", ERRORED, "pdf")
    assert o.trigger_rate()[0] == 1.0 and o.graded and o.error is None
    dead = pos("p2", "pdf", ERRORED, ERRORED)
    assert dead.verdict == ERROR and not dead.graded and not dead.passed
    assert dead.trigger_rate() == (None, None)
    assert dead.error == "the API answered 529 (overloaded)" and dead.observed is None
    assert CaseOutcome(case("p3", "pdf", True)).error == "no sample ran"


def test_summary_names_both_sides():
    assert pos("p1", "pdf", None).summary == "expected pdf -> got no skill"
    assert shared("s1", "other:x").summary == "expected no skill -> got other:x"


def test_an_errored_case_made_no_decision_which_is_not_no_skill():
    assert pos("p2", "pdf", ERRORED).summary == "expected pdf -> no decision"
    assert CaseOutcome(case("p3", "pdf", True)).summary == "expected pdf -> no decision"


# --- the gate ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bar", [Fraction(0), Fraction(1, 2), Fraction(1)])
def test_nothing_graded_fails_at_any_bar(bar):
    result = metrics.gate([pos("p1", "pdf", ERRORED), shared("s1", ERRORED)], bar)
    assert not result.passed and "no case was graded" in result.reason
    assert not metrics.gate([], bar).passed


@pytest.mark.parametrize("bar", [Fraction(0), Fraction(1, 2), Fraction(1)])
def test_no_activation_while_some_were_expected_fails_at_any_bar(bar):
    # Four of five right, but nothing ever fired: detection or installation is broken.
    outcomes = [
        pos("p1", "pdf", None),
        near("n1", "pdf", None),
        shared("s1", None),
        shared("s2", None),
        shared("s3", None),
    ]
    result = metrics.gate(outcomes, bar)
    assert not result.passed and "no skill activated" in result.reason


def test_an_activation_in_a_minority_of_samples_still_counts_as_one():
    # Every case's majority is "nothing fired", but detection plainly works: report, do not cry broken.
    outcomes = [pos("p1", "pdf", None, None, "pdf"), pos("p2", "pdf", None, "pdf", None)]
    assert all(o.observed is None for o in outcomes)
    result = metrics.gate(outcomes, Fraction(0))
    assert result.passed and "reported only" in result.reason
    assert not metrics.gate(outcomes, Fraction(1)).passed


def test_no_activation_is_fine_when_none_was_expected():
    assert metrics.gate([shared("s1", None), near("n1", "pdf", None)], Fraction(1)).passed


def test_an_activation_expected_only_by_an_errored_case_does_not_trip_the_no_activation_rule():
    result = metrics.gate([pos("p1", "pdf", ERRORED), shared("s1", None)], Fraction(1))
    assert result.passed, result.reason


def test_the_bar_is_an_exact_ratio():
    outcomes = [pos(f"p{i}", "pdf", "pdf") for i in range(3999)] + [pos("bad", "pdf", None)]
    assert metrics.accuracy(3999, 4000) == 1.0  # what a report shows
    result = metrics.gate(outcomes, Fraction(1))
    assert not result.passed and result.reason.startswith("3999/4000 correct")
    assert metrics.gate(outcomes, Fraction("0.99975")).passed
    assert not metrics.gate(outcomes, Fraction("0.99976")).passed


def test_bar_zero_only_reports():
    result = metrics.gate([pos("p1", "pdf", "pdf-tools"), pos("p2", "pdf", "pdf")], Fraction(0))
    assert result.passed and "reported only" in result.reason


def test_errors_count_on_neither_side_of_the_bar():
    errored = [pos(f"e{i}", "pdf", ERRORED) for i in range(5)]
    outcomes = [pos("p1", "pdf", "pdf"), shared("s1", None), *errored]
    result = metrics.gate(outcomes, Fraction(1))
    assert result.passed and result.reason.startswith("2/2 correct")
    outcomes.append(pos("p2", "pdf", None))
    assert metrics.gate(outcomes, Fraction(2, 3)).passed
    assert not metrics.gate(outcomes, Fraction(3, 4)).passed
