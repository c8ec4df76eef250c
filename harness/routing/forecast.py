"""The cheap tier's forecast: where lexical routing and an agent's routing report disagree on the same cases.

Authors learn which skills the free engine mispredicts, and so how far to trust it for them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness import jsonsafe, nesting
from harness.errors import UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text
from harness.routing.lexical import LexicalOutcome

FLAG = "--against"


@dataclass(frozen=True)
class AgentCase:
    """What the agent did with one case: its pick and verdict (an errored case was not graded)."""

    id: str
    observed: str | None
    verdict: str
    passed: bool
    graded: bool


@dataclass(frozen=True)
class Disagreement:
    id: str
    skill: str | None
    lexical_verdict: str
    lexical_pick: str | None
    agent_verdict: str
    agent_pick: str | None


@dataclass
class Forecast:
    source: str
    compared: int = 0
    agreed: int = 0
    same_pick: int = 0
    not_in_report: int = 0  # lexical cases the agent report does not hold
    agent_errors: int = 0  # cases the agent report holds but could not grade
    per_skill: dict[str, dict[str, int]] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "against": self.source,
            "compared": self.compared,
            "agreed": self.agreed,
            "same_pick": self.same_pick,
            "not_in_report": self.not_in_report,
            "agent_errors": self.agent_errors,
            "per_skill": self.per_skill,
            "disagreements": [d.__dict__ for d in self.disagreements],
        }


def load(path: Path, shown: str) -> dict[str, AgentCase]:
    """The cases of an agent engine's routing report at `path` (`shown` names it in messages)."""
    try:
        document = jsonsafe.loads(
            read_text(path, MAX_REPORT_BYTES), f"{FLAG} {shown}", depth=nesting.REPORT_DEPTH
        )
    except UnreadableFile as exc:
        raise UsageError(
            f"{FLAG} {shown}: cannot be read ({exc.reason}); pass the JSON report of a routing run."
        ) from None
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{exc}; pass the JSON report of a routing run.") from None
    if not isinstance(document, dict) or document.get("command", _meta(document).get("command")) != "routing":
        raise UsageError(f"{FLAG} {shown}: is not a routing report; pass the JSON file a routing run wrote.")
    if document.get("engine", "agent") != "agent":
        raise UsageError(
            f"{FLAG} {shown}: is a report of the {document.get('engine')} engine; the forecast compares "
            "against an agent run, so pass the report of `skillscope routing` without --engine lexical."
        )
    cases = document.get("cases")
    if not isinstance(cases, list) or not all(
        isinstance(c, dict) and isinstance(c.get("id"), str) for c in cases
    ):
        raise UsageError(
            f"{FLAG} {shown}: its `cases` list is missing or malformed; pass an unedited report."
        )
    return {case["id"]: _agent_case(case) for case in cases}


def compare(outcomes: list[LexicalOutcome], agent: dict[str, AgentCase], source: str) -> Forecast:
    """Every graded lexical case the agent graded too, compared on pass or fail and on the skill picked."""
    forecast = Forecast(source)
    for outcome in outcomes:
        seen = agent.get(outcome.case.id)
        if seen is None:
            forecast.not_in_report += 1
            continue
        if not seen.graded:
            forecast.agent_errors += 1
            continue
        if not outcome.graded:
            continue
        row = forecast.per_skill.setdefault(outcome.case.skill or "", {"compared": 0, "agreed": 0})
        forecast.compared += 1
        row["compared"] += 1
        forecast.same_pick += outcome.observed == seen.observed
        if outcome.passed == seen.passed:
            forecast.agreed += 1
            row["agreed"] += 1
            continue
        forecast.disagreements.append(
            Disagreement(
                outcome.case.id,
                outcome.case.skill,
                outcome.verdict,
                outcome.observed,
                seen.verdict,
                seen.observed,
            )
        )
    return forecast


def _meta(document: object) -> dict:
    meta = document.get("meta") if isinstance(document, dict) else None
    return meta if isinstance(meta, dict) else {}


def _agent_case(case: dict) -> AgentCase:
    observed, written = case.get("observed"), case.get("verdict")
    verdict = written if isinstance(written, str) else "error"
    return AgentCase(
        id=case["id"],
        observed=observed if isinstance(observed, str) else None,
        verdict=verdict,
        passed=case.get("passed") is True,
        graded=verdict != "error",
    )
