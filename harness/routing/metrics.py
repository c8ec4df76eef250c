"""Routing metrics over graded cases, and the gate that turns them into a pass or a fail."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from harness.model.dataset import Case
from harness.routing.verdicts import (
    CANARY_STOP,
    NOT_RUN,
    PASSING,
    UNGRADED,
    VERDICTS,
    Sample,
    majority,
    wilson_interval,
)

NO_SKILL = "(no skill)"
CATEGORIES = ("positive", "near_miss", "unrelated")


class Graded(Protocol):
    """What the metrics and every routing report read of a case, whichever engine graded it
    (CaseOutcome, LexicalOutcome)."""

    @property
    def case(self) -> Case: ...
    @property
    def verdict(self) -> str: ...
    @property
    def expected(self) -> str | None: ...
    @property
    def observed(self) -> str | None: ...
    @property
    def graded(self) -> bool: ...
    @property
    def passed(self) -> bool: ...
    @property
    def error(self) -> str | None: ...
    @property
    def summary(self) -> str: ...


@dataclass
class CaseOutcome:
    case: Case
    samples: list[Sample] = field(default_factory=list)
    # A miss whose expected skill the agent did not list in full (see routing/listed.py): why, or "".
    unlisted: str = ""

    @property
    def expected(self) -> str | None:
        return self.case.expected_skill

    @property
    def verdict(self) -> str:
        return majority([s.verdict(self.expected) for s in self.samples])

    @property
    def graded(self) -> bool:
        return self.verdict not in UNGRADED

    @property
    def flaky(self) -> bool:
        """Its graded samples disagree on pass or fail."""
        passes = {s.verdict(self.expected) in PASSING for s in self.samples if not (s.error or s.not_run)}
        return len(passes) == 2

    @property
    def runs(self) -> list[Sample]:
        """The samples actually run now: neither reused from the cache nor never started."""
        return [s for s in self.samples if not (s.cached or s.not_run or s.stop_reason == CANARY_STOP)]

    @property
    def passed(self) -> bool:
        return self.verdict in PASSING

    @property
    def representative(self) -> Sample | None:
        """The first sample that agrees with the case's verdict."""
        return next((s for s in self.samples if s.verdict(self.expected) == self.verdict), None)

    @property
    def observed(self) -> str | None:
        sample = self.representative
        return sample.observed if sample else None

    @property
    def summary(self) -> str:
        # An errored or unrun case made no decision, which is not "no skill": that would read as a miss.
        got = f"got {self.observed or 'no skill'}" if self.graded else "no decision"
        why = f"; {self.unlisted}" if self.unlisted else ""
        return f"expected {self.expected or 'no skill'} -> {got}{why}"

    @property
    def read_failed(self) -> str | None:
        """Why the failed SKILL.md read that decided a sample failed (the first such), or None."""
        return next((s.read_failed for s in self.samples if s.read_failed and not s.error), None)

    @property
    def retried(self) -> str | None:
        """Why a sample of this case was run a second time (the first such), or None."""
        return next((s.retried for s in self.samples if s.retried), None)

    @property
    def error(self) -> str | None:
        if self.graded:
            return None
        return next((s.error for s in self.samples if s.error), "no sample ran")

    def trigger_rate(self) -> tuple[float | None, tuple[float, float] | None]:
        """Share of graded samples where the expected skill (for a negative: any skill) fired."""
        graded = [s for s in self.samples if not s.error]
        fired = sum(1 for s in graded if (s.observed == self.expected if self.expected else s.observed))
        rate = fired / len(graded) if graded else None
        return rate, wilson_interval(fired, len(graded))


@dataclass
class Gate:
    passed: bool
    reason: str


def accuracy(passed: int, graded: int) -> float | None:
    return round(passed / graded, 3) if graded else None


def verdict_counts(outcomes: Sequence[Graded]) -> dict[str, int]:
    counts = dict.fromkeys(VERDICTS, 0)
    for outcome in outcomes:
        counts[outcome.verdict] += 1
    return counts


def by_category(outcomes: Sequence[Graded]) -> dict[str, dict]:
    graded, passed = dict.fromkeys(CATEGORIES, 0), dict.fromkeys(CATEGORIES, 0)
    for o in outcomes:  # one pass: a large run's outcomes are walked by several aggregates already
        if o.graded:
            category = o.case.category
            if category in graded:
                graded[category] += 1
                passed[category] += o.passed
    return {
        category: {
            "graded": graded[category],
            "passed": passed[category],
            "accuracy": accuracy(passed[category], graded[category]),
        }
        for category in CATEGORIES
    }


def per_skill(outcomes: Sequence[Graded], room: list[str]) -> dict[str, dict]:
    # Tallied in one pass: a room of a thousand skills over ten thousand cases must not scan every case
    # per skill. Each skill: expected, correct, missed, fired, fired when another was expected.
    tally = {skill: [0, 0, 0, 0, 0] for skill in room}
    for o in outcomes:
        if not o.graded:
            continue
        expected, observed = o.expected, o.observed
        row = tally.get(expected) if expected else None
        if row is not None:
            row[0] += 1
            row[1] += observed == expected
            row[2] += observed is None
        row = tally.get(observed) if observed else None
        if row is not None:
            row[3] += 1
            row[4] += expected != observed
    out = {}
    for skill, (wanted, correct, missed, fired, stray) in tally.items():
        out[skill] = {
            "expected": wanted,
            "correct": correct,
            "missed": missed,
            "lost_to_other_skill": wanted - correct - missed,
            "fired_total": fired,
            "fired_when_not_expected": stray,
            "recall": round(correct / wanted, 3) if wanted else None,
            "precision": round(correct / fired, 3) if fired else None,
            "recall_ci95": interval_json(correct, wanted),
            "precision_ci95": interval_json(correct, fired),
        }
    return out


def interval_json(passed: int, total: int) -> list[float] | None:
    """A rate's 95 % Wilson interval as a report holds it; None for a rate of nothing."""
    bounds = wilson_interval(passed, total)
    return list(bounds) if bounds else None


def confusion(outcomes: Sequence[Graded]) -> dict[str, dict[str, int]]:
    matrix: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for outcome in outcomes:
        if outcome.graded:
            matrix[outcome.expected or NO_SKILL][outcome.observed or NO_SKILL] += 1
    return {row: dict(cols) for row, cols in matrix.items()}


def counted(outcomes: list[CaseOutcome], strict: bool = False) -> list[CaseOutcome]:
    """The cases a gate counts: provisional ones only with --strict, or when no stable case ran."""
    stable = [o for o in outcomes if not o.case.provisional]
    return outcomes if strict or not stable else stable


def gate(
    outcomes: list[CaseOutcome],
    min_accuracy: Fraction,
    strict: bool = False,
    quarantined: Collection[str] = (),
) -> Gate:
    """A case not run, nothing graded or nothing fired fails at any bar; otherwise the exact ratio
    meets the bar. Provisional cases are left out unless --strict (see `counted`); quarantined ones
    (by id) always: they are run and reported, and never gate."""
    gating = [o for o in outcomes if o.case.id not in quarantined]
    if outcomes and not gating:
        return Gate(False, "every selected case is quarantined, so nothing gates this run")
    outcomes = gating
    not_run = [o for o in outcomes if o.verdict == NOT_RUN]
    if not_run:
        why = (not_run[0].error or "").removeprefix("not run: ")
        return Gate(False, f"{len(not_run)} case(s) did not run: {why}")
    graded = [o for o in counted(outcomes, strict) if o.graded]
    if not graded:
        # Name the cause when one is shared (an agent whose own sandbox fails every tool, say).
        causes = {o.error for o in outcomes if o.error}
        cause = f": {next(iter(causes))}" if len(causes) == 1 else ""
        return Gate(
            False, f"no case was graded (every case errored{cause}), so the run says nothing about routing"
        )
    expected_activations = sum(1 for o in graded if o.expected)
    # Any sample counts: with --repeat, a skill that fired in a minority of samples still fired.
    if expected_activations and not any(s.observed for o in graded for s in o.samples):
        return Gate(
            False,
            "no skill activated in any case although some were expected: the skills were "
            "not installed, or activation detection is broken",
        )
    return accuracy_gate(sum(1 for o in graded if o.passed), len(graded), min_accuracy)


def accuracy_gate(passed: int, graded: int, min_accuracy: Fraction) -> Gate:
    """passed/graded (graded > 0) against the bar, as an exact ratio; a bar of 0 only reports."""
    if min_accuracy > 0 and Fraction(passed, graded) < min_accuracy:
        return Gate(
            False,
            f"{passed}/{graded} correct (accuracy {passed / graded:.3f}) is below "
            f"the --min-accuracy bar of {float(min_accuracy):g}",
        )
    bar = f"meets the bar of {float(min_accuracy):g}" if min_accuracy else "reported only (--min-accuracy 0)"
    return Gate(True, f"{passed}/{graded} correct; {bar}")
