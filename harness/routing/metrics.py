"""Routing metrics over graded cases, and the gate that turns them into a pass or a fail."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from harness.model import notes
from harness.model.dataset import Case
from harness.model.stats import wilson_interval
from harness.routing.verdicts import (
    CANARY_STOP,
    ERROR,
    NOT_RUN,
    PASSING,
    UNGRADED,
    VERDICTS,
    Sample,
    majority,
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


def expects(case: Case) -> str:
    """What a case expects to fire, in words: a false case's `owner` is named as the prompt's owner."""
    expected = case.expected_skill
    if expected is None:
        return "no skill"
    if case.unwanted_skill:
        return f"{expected} (the prompt's owner; not {case.unwanted_skill})"
    return expected


@dataclass
class CaseOutcome:
    case: Case
    samples: list[Sample] = field(default_factory=list)
    # A miss whose expected skill the agent did not list in full (see routing/listed.py): why, or "".
    unlisted: str = ""
    # Why the case could not be graded in this room at all (the skill it expects is not installed), with
    # the fix; it is then never run. "": gradable.
    ungradable: str = ""

    @property
    def expected(self) -> str | None:
        return self.case.expected_skill

    @property
    def unwanted(self) -> str | None:
        return self.case.unwanted_skill

    def verdict_of(self, sample: Sample) -> str:
        return sample.verdict(self.expected, self.unwanted)

    @property
    def verdict(self) -> str:
        if self.ungradable:
            return ERROR
        return majority([self.verdict_of(s) for s in self.samples])

    @property
    def graded(self) -> bool:
        return self.verdict not in UNGRADED

    @property
    def flaky(self) -> bool:
        """Its graded samples disagree on pass or fail."""
        passes = {self.verdict_of(s) in PASSING for s in self.samples if not (s.error or s.not_run)}
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
        return next((s for s in self.samples if self.verdict_of(s) == self.verdict), None)

    @property
    def observed(self) -> str | None:
        sample = self.representative
        return sample.observed if sample else None

    @property
    def summary(self) -> str:
        # An errored or unrun case made no decision, which is not "no skill": that would read as a miss.
        got = f"got {self.observed or 'no skill'}" if self.graded else "no decision"
        why = f"; {self.unlisted}" if self.unlisted else ""
        return f"expected {expects(self.case)} -> {got}{why}"

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
        return self.ungradable or next((s.error for s in self.samples if s.error), "no sample ran")

    def trigger_counts(self) -> tuple[int, int]:
        """Graded samples where the expected skill (when none is: any skill) fired, of the graded ones."""
        graded = [s for s in self.samples if not s.error]
        fired = sum(1 for s in graded if (s.observed == self.expected if self.expected else s.observed))
        return fired, len(graded)

    def trigger_rate(self) -> tuple[float | None, tuple[float, float] | None]:
        """The share `trigger_counts` gives, and its 95 % interval."""
        fired, graded = self.trigger_counts()
        return (fired / graded if graded else None), wilson_interval(fired, graded)


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


@dataclass(frozen=True)
class Tally:
    """Every count of a run's cases that its reports show, made once: the JSON totals, the headline, the
    gate's reason, the markdown and the page all read these, so no two of them can disagree. The gate
    counts a subset of the graded cases (provisional ones only with --strict, quarantined ones never),
    and says which cases it left out whenever that subset differs."""

    cases: int
    graded: int
    passed: int
    errors: int  # no decision: never graded
    not_run: int  # never started: never graded
    counted: int  # the graded cases the gate counts
    counted_passed: int
    provisional: int  # graded, and left out of the gate: provisional without --strict
    quarantined: int  # graded, and left out of the gate: quarantined

    @classmethod
    def of(
        cls, outcomes: Sequence[CaseOutcome], strict: bool = False, quarantined: Collection[str] = ()
    ) -> Tally:
        graded = [o for o in outcomes if o.graded]
        gating = [o for o in outcomes if o.case.id not in quarantined]
        kept = [o for o in counted(gating, strict) if o.graded]
        held = sum(1 for o in graded if o.case.id in quarantined)
        return cls(
            cases=len(outcomes),
            graded=len(graded),
            passed=sum(1 for o in graded if o.passed),
            errors=sum(1 for o in outcomes if o.verdict == ERROR),
            not_run=sum(1 for o in outcomes if o.verdict == NOT_RUN),
            counted=len(kept),
            counted_passed=sum(1 for o in kept if o.passed),
            provisional=len(graded) - held - len(kept),
            quarantined=held,
        )

    @property
    def accuracy(self) -> float | None:
        return accuracy(self.passed, self.graded)

    def left_out(self) -> str:
        """The graded cases the gate does not count, in words; "" when it counts them all."""
        return notes.left_out(self.to_json())

    def ungraded(self) -> str:
        """The cases that were not graded, in words (", 2 errored and 1 not run: not graded"); "" if none."""
        return notes.ungraded({"errors": self.errors, "not_run": self.not_run})

    def to_json(self) -> dict:
        """The gate's own counts, beside the totals."""
        return {
            "graded": self.counted,
            "passed": self.counted_passed,
            "accuracy": accuracy(self.counted_passed, self.counted),
            "provisional_left_out": self.provisional,
            "quarantined_left_out": self.quarantined,
        }


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
    (by id) always: they are run and reported, and never gate. The ratio is the Tally's."""
    gating = [o for o in outcomes if o.case.id not in quarantined]
    if outcomes and not gating:
        return Gate(False, "every selected case is quarantined, so nothing gates this run")
    not_run = [o for o in gating if o.verdict == NOT_RUN]
    if not_run:
        why = (not_run[0].error or "").removeprefix("not run: ")
        return Gate(False, f"{len(not_run)} case(s) did not run: {why}")
    graded = [o for o in counted(gating, strict) if o.graded]
    if not graded:
        # Name the cause when one is shared (an agent whose own sandbox fails every tool, say).
        causes = {o.error for o in gating if o.error}
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
    tally = Tally.of(outcomes, strict, quarantined)
    return accuracy_gate(tally.counted_passed, tally.counted, min_accuracy, tally.left_out())


def accuracy_gate(passed: int, graded: int, min_accuracy: Fraction, left_out: str = "") -> Gate:
    """passed/graded (graded > 0) against the bar, as an exact ratio; a bar of 0 only reports.
    `left_out`: the graded cases the ratio does not count, named so it never reads as another total."""
    if min_accuracy > 0 and Fraction(passed, graded) < min_accuracy:
        apart = f"; {left_out}" if left_out else ""
        return Gate(
            False,
            f"{passed}/{graded} correct (accuracy {passed / graded:.3f}{apart}) is below "
            f"the --min-accuracy bar of {float(min_accuracy):g}",
        )
    bar = f"meets the bar of {float(min_accuracy):g}" if min_accuracy else "reported only (--min-accuracy 0)"
    apart = f" ({left_out})" if left_out else ""
    return Gate(True, f"{passed}/{graded} correct{apart}; {bar}")
