"""Routing verdicts: what one run observed, graded against what the case expected."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from harness.model.stats import wilson_interval
from harness.paid.replay import Origin, Replay
from harness.paid.spend import NOT_RUN

CORRECT_TRIGGER = "correct_trigger"
TRUE_NEGATIVE = "true_negative"
MISSED_TRIGGER = "missed_trigger"
WRONG_SKILL = "wrong_skill"
FALSE_TRIGGER = "false_trigger"
ERROR = "error"
# NOT_RUN (from harness.paid.spend): the run's --max-run-usd was reached before this case started
# The stop reason of a case never started because its agent's canary failed (routing/canary.py): an error.
CANARY_STOP = "canary"
VERDICTS = (CORRECT_TRIGGER, TRUE_NEGATIVE, MISSED_TRIGGER, WRONG_SKILL, FALSE_TRIGGER, ERROR, NOT_RUN)
PASSING = (CORRECT_TRIGGER, TRUE_NEGATIVE)
UNGRADED = (ERROR, NOT_RUN)
# A case's verdict is its samples' majority, so repeats decide on which side of one half it lies.
DECISION_THRESHOLD = 0.5
# What a cache entry leaves out: how this run came by the sample, and errors, which are never stored.
NOT_STORED = ("cached", "cached_from", "not_run", "error", "retried")
# When samples disagree evenly, the case is held to the stricter reading.
SEVERITY = {
    NOT_RUN: -1,
    ERROR: 0,
    CORRECT_TRIGGER: 1,
    TRUE_NEGATIVE: 1,
    MISSED_TRIGGER: 2,
    FALSE_TRIGGER: 2,
    WRONG_SKILL: 3,
}


def judge(expected: str | None, unwanted: str | None, fired: Sequence[str]) -> tuple[str, str | None]:
    """The one routing classification every engine and command grades by, and the skill it names.

    `expected`: the skill that should fire (a true case's own, a false case's `owner`), None when none
    should; `unwanted`: a false case's own skill, whose firing is a false trigger whatever else fired;
    `fired`: what fired, best first (an agent fires one skill; a lexical ranking may tie several first,
    and a tie counts against the case). The named skill is the one a reader acts on: the expected one
    when it alone fired, else the one that took the prompt; None when nothing fired."""
    if not fired:
        return (TRUE_NEGATIVE if expected is None else MISSED_TRIGGER), None
    if unwanted is not None and unwanted in fired:
        return FALSE_TRIGGER, unwanted
    if expected is None:
        return FALSE_TRIGGER, fired[0]
    took = [skill for skill in fired if skill != expected]
    return (WRONG_SKILL, took[0]) if took else (CORRECT_TRIGGER, expected)


def classify(expected: str | None, observed: str | None, unwanted: str | None = None) -> str:
    """`judge` of a run that fired `observed` (None: no skill)."""
    return judge(expected, unwanted, [observed] if observed is not None else [])[0]


@dataclass
class Sample:
    """One run of one case. `error` set means no routing decision was observed: never a miss."""

    observed: str | None = None
    error: str | None = None
    stop_reason: str = ""
    elapsed_s: float = 0.0
    tool_calls: int = 0
    inspection_calls: int = 0
    turns: int | None = None  # model turns, as the CLI's result event counts them
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    visible_skills: list[str] = field(default_factory=list)
    model: str | None = None
    cached: bool = False  # reused from the result cache, not run now
    cached_from: Origin | None = None  # the run that made it, when reused
    not_run: bool = False  # never started: the run's spend cap was reached (`error` says so)
    # The decision was a tool call naming the skill's SKILL.md whose read failed: why, in the tool's words.
    read_failed: str | None = None
    retried: str | None = None  # run twice: the first run failed in a way its runtime declares its own
    # With --sandbox: whether the run's CLI said its shell sandbox was on, and why not (for the report's
    # meta.sandbox, which the runs decide rather than the probe before them).
    sandbox: bool | None = None
    sandbox_off: str | None = None

    def verdict(self, expected: str | None, unwanted: str | None = None) -> str:
        """Graded against what its case expects (see `judge`)."""
        if self.not_run:
            return NOT_RUN
        return ERROR if self.error else classify(expected, self.observed, unwanted)

    def cache_entry(self) -> dict:
        """Everything needed to stand in for this sample in a later run."""
        return {k: v for k, v in asdict(self).items() if k not in NOT_STORED}

    @classmethod
    def from_cache(cls, replay: Replay) -> Sample:
        known = {
            k: v for k, v in replay.sample.items() if k in cls.__dataclass_fields__ and k not in NOT_STORED
        }
        return cls(**{**known, "cached": True, "cached_from": replay.origin})

    def to_json(self, expected: str | None, unwanted: str | None = None) -> dict:
        return {
            "observed": self.observed,
            "verdict": self.verdict(expected, unwanted),
            "error": self.error,
            "stop_reason": self.stop_reason,
            "elapsed_s": round(self.elapsed_s, 3),
            "tool_calls": self.tool_calls,
            "inspection_calls": self.inspection_calls,
            "turns": self.turns,
            "tokens": {"input": self.input_tokens, "output": self.output_tokens},
            "cost_usd": self.cost_usd,
            "cached": self.cached,
            "cached_from": self.cached_from.to_json() if self.cached_from else None,
            "read_failed": self.read_failed,
            "retried": self.retried,
        }


def majority(verdicts: list[str]) -> str:
    """The most common graded verdict; ties go to the stricter one; all errors stay an error, and a
    case none of whose samples started is not-run."""
    graded = [v for v in verdicts if v not in UNGRADED]
    if not graded:
        return ERROR if ERROR in verdicts or not verdicts else NOT_RUN
    counts = Counter(graded)
    return max(counts, key=lambda v: (counts[v], SEVERITY[v], v))


def decided(successes: int, trials: int, threshold: float = DECISION_THRESHOLD) -> bool:
    """Whether the 95 % Wilson interval of `successes` in `trials` lies wholly on one side of
    `threshold`: more samples would not change the case's verdict."""
    interval = wilson_interval(successes, trials)
    return interval is not None and (interval[0] > threshold or interval[1] < threshold)
