"""One label per case from both sides' graded runs: the vocabulary of every compare report.

An errored side is never a regression: a case with any side that graded nothing is `error`.
With one run a side, a flip of pass/fail is the change itself; with repeats, the flip must
also survive the rate test in `stats` (otherwise it is `same-*` with both rates shown).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.model import stats

LABELS = ("regression", "improvement", "changed", "error", "same-fail", "same-pass")


@dataclass(frozen=True)
class Side:
    """What one side did on one case, over its graded runs."""

    passes: int  # graded runs that passed
    runs: int  # graded runs (errored runs are not counted here)
    errors: int = 0  # runs that graded nothing
    outcome: frozenset[str] = field(default_factory=frozenset)  # what fired / which expectations held

    @property
    def graded(self) -> bool:
        return self.runs > 0

    @property
    def passed(self) -> bool:
        """The side's verdict: a majority of its graded runs passed (ties fail, as routing's do)."""
        return self.passes * 2 > self.runs

    @property
    def rate(self) -> float | None:
        return self.passes / self.runs if self.runs else None


def label(baseline: Side, candidate: Side) -> str:
    if not baseline.graded or not candidate.graded:
        return "error"
    if baseline.passed != candidate.passed:
        if max(baseline.runs, candidate.runs) == 1 or stats.differs(
            baseline.passes, baseline.runs, candidate.passes, candidate.runs
        ):
            return "improvement" if candidate.passed else "regression"
        # Within noise: both sides are read as one pool of runs.
        pooled = (baseline.passes + candidate.passes) * 2 > baseline.runs + candidate.runs
        return "same-pass" if pooled else "same-fail"
    if baseline.outcome != candidate.outcome:
        return "changed"
    return "same-pass" if candidate.passed else "same-fail"
