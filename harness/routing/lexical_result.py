"""The result of a lexical routing run: the routing report's shape, with ranks in place of agent runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from harness.model.envelope import RunMeta, counts, envelope
from harness.model.findings import Finding
from harness.routing import metrics
from harness.routing.lexical import APPROXIMATION, LexicalOutcome, rank_rates
from harness.routing.metrics import Gate
from harness.routing.result import case_fields, status

ENGINE = "lexical"
SCORE_PLACES = 4


@dataclass
class LexicalMeta:
    run: RunMeta
    room: list[str]
    extended: bool
    min_accuracy: Fraction
    min_rank1: Fraction
    listing: dict | None = None  # what the modelled agent's model is shown of the room (routing/listed.py)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            **self.run.to_json(),
            "engine": ENGINE,
            "room": self.room,
            "extended": self.extended,
            "min_accuracy": float(self.min_accuracy),
            "min_rank1": float(self.min_rank1),
            **({"listing": self.listing} if self.listing is not None else {}),
            "notes": self.notes,
        }


@dataclass
class LexicalResult:
    meta: LexicalMeta
    outcomes: list[LexicalOutcome]
    gate: Gate
    findings: list[Finding] = field(default_factory=list)
    # Each case's entry in the JSON report, made ahead in outcome order by the process that graded the
    # case (a report's laid-out line); None: made from the outcomes when the report is written.
    case_entries: list[object] | None = None
    _rates: tuple[dict, dict[str, dict]] | None = field(default=None, init=False, repr=False, compare=False)
    _totals: dict | None = field(default=None, init=False, repr=False, compare=False)

    command = "routing"
    engine = ENGINE
    approximation = APPROXIMATION

    @property
    def passed(self) -> bool:
        return self.gate.passed

    def rates(self) -> tuple[dict, dict[str, dict]]:
        """Counted once: the totals, the per-skill rows and the headline all read them."""
        if self._rates is None:
            self._rates = rank_rates(self.outcomes, self.meta.room)
        return self._rates

    def totals(self) -> dict:
        """Counted once, in one pass: the JSON report, the headline and the markdown all read them."""
        if self._totals is None:
            graded = passed = fired = expected = 0
            for o in self.outcomes:
                if o.graded:
                    graded += 1
                    passed += o.passed
                    fired += o.fired
                    expected += bool(o.expected)
            overall, _ = self.rates()
            self._totals = {
                "cases": len(self.outcomes),
                "graded": graded,
                "passed": passed,
                "errors": len(self.outcomes) - graded,
                "accuracy": metrics.accuracy(passed, graded),
                "activations": fired,
                "activations_expected": expected,
                "rank1": overall,
                "vocabulary_gaps": len(self.findings),
            }
        return self._totals

    def per_skill(self) -> dict[str, dict]:
        """The routing per-skill rows, each with its skill's rank-1 and top-k figures."""
        _, rates = self.rates()
        rows = metrics.per_skill(self.outcomes, self.meta.room)
        return {name: {**row, **rates[name]} for name, row in rows.items()}

    def to_json(self) -> dict:
        cases = self.case_entries
        if cases is None:
            cases = [case_json(o) for o in self.outcomes]
        return {
            **envelope(self.meta.run, self.passed, counts([status(o) for o in self.outcomes])),
            "engine": ENGINE,
            "approximation": APPROXIMATION,
            "meta": self.meta.to_json(),
            "gate": {"passed": self.gate.passed, "reason": self.gate.reason},
            "totals": self.totals(),
            "verdicts": metrics.verdict_counts(self.outcomes),
            "by_category": metrics.by_category(self.outcomes),
            "per_skill": self.per_skill(),
            "confusion": metrics.confusion(self.outcomes),
            "findings": [f.to_dict() for f in self.findings],
            "cases": cases,
        }


def gate(outcomes: list[LexicalOutcome], min_accuracy: Fraction, min_rank1: Fraction) -> Gate:
    """As agent routing's gate (nothing graded or nothing ranked fails at any bar), then --min-rank1."""
    graded = [o for o in outcomes if o.graded]
    if not graded:
        return Gate(
            False, "no case could be ranked (every case errored), so the run says nothing about routing"
        )
    if any(o.expected for o in graded) and not any(o.fired for o in graded):
        return Gate(
            False, "no prompt shares a word with any description in the room, so no skill ranked at all"
        )
    verdict = metrics.accuracy_gate(sum(1 for o in graded if o.passed), len(graded), min_accuracy)
    if not verdict.passed or not min_rank1:
        return verdict
    overall, _ = rank_rates(outcomes, [])
    hits, positives = overall["rank1"], overall["positives"]
    if not positives:
        return Gate(False, "--min-rank1 is set but no positive case was graded, so there is no rank-1 rate")
    if Fraction(hits, positives) < min_rank1:
        return Gate(
            False,
            f"rank-1 rate {hits}/{positives} ({hits / positives:.3f}) is below the --min-rank1 bar of "
            f"{float(min_rank1):g}",
        )
    return Gate(True, f"{verdict.reason}; rank-1 {hits}/{positives} meets --min-rank1 {float(min_rank1):g}")


def case_json(o: LexicalOutcome) -> dict:
    return {
        **case_fields(o),
        "top_k": o.case.top_k if o.case.should_trigger else None,
        "owner": o.case.owner,
        "rank": o.rank,
        "score": round(o.score, SCORE_PLACES),
        "owner_rank": o.owner_rank,
        "owner_score": None if o.owner_score is None else round(o.owner_score, SCORE_PLACES),
        "rank1": o.rank1,
        "vocabulary_gap": o.vocabulary_gap,
        "top": [
            {"skill": m.skill, "score": round(m.score, SCORE_PLACES), "shared": list(m.shared)} for m in o.top
        ],
    }
