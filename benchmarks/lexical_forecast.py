"""How far the free lexical engine forecasts an agent's routing: a calibration study over two reports of
the same cases, one from `skillscope routing --engine lexical`, one from an agent routing run.

    python benchmarks/lexical_forecast.py LEXICAL_REPORT AGENT_REPORT [--json]

Prints, in markdown, the share of cases both engines graded on which their verdicts agree (pass or
fail) and on which the lexical first pick is the skill the agent fired, the agreement per skill, and
the cases they disagree on; with --json, the same figures as one JSON object. Once the lexical report's
`--against` flag; a study of the engine, not a product feature, so it lives here.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from harness.errors import UsageError  # noqa: E402
from harness.report.format import percent, share  # noqa: E402
from harness.report.markdown import table  # noqa: E402
from harness.routing.saved import agent_report, routing_report  # noqa: E402

ERROR = "error"  # the verdict of a case an engine could not grade
ROWS_SHOWN = 200


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
    against: str
    compared: int = 0
    agreed: int = 0
    same_pick: int = 0
    not_in_report: int = 0  # lexical cases the agent report does not hold
    agent_errors: int = 0  # cases the agent report holds but could not grade
    per_skill: dict[str, dict[str, int]] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)


def cases_of(document: dict, shown: str) -> dict[str, dict]:
    cases = document.get("cases")
    if not isinstance(cases, list) or not all(
        isinstance(c, dict) and isinstance(c.get("id"), str) for c in cases
    ):
        raise UsageError(f"{shown}: its `cases` list is missing or malformed; pass an unedited report.")
    return {case["id"]: case for case in cases}


def lexical_report(path: Path) -> dict[str, dict]:
    why = "the forecast reads a lexical run, so pass the report of `skillscope routing --engine lexical`."
    return cases_of(routing_report(path, str(path), "lexical", why), str(path))


def verdict_of(case: dict) -> str:
    written = case.get("verdict")
    return written if isinstance(written, str) else ERROR


def pick_of(case: dict) -> str | None:
    observed = case.get("observed")
    return observed if isinstance(observed, str) else None


def compare(lexical: dict[str, dict], agent: dict[str, dict], against: str) -> Forecast:
    """Every graded lexical case the agent graded too, compared on pass or fail and on the skill picked."""
    forecast = Forecast(against)
    for case_id, case in lexical.items():
        seen = agent.get(case_id)
        if seen is None:
            forecast.not_in_report += 1
            continue
        if verdict_of(seen) == ERROR:
            forecast.agent_errors += 1
            continue
        if verdict_of(case) == ERROR:
            continue
        row = forecast.per_skill.setdefault(case.get("skill") or "", {"compared": 0, "agreed": 0})
        forecast.compared += 1
        row["compared"] += 1
        forecast.same_pick += pick_of(case) == pick_of(seen)
        if (case.get("passed") is True) == (seen.get("passed") is True):
            forecast.agreed += 1
            row["agreed"] += 1
            continue
        forecast.disagreements.append(
            Disagreement(
                case_id, case.get("skill"), verdict_of(case), pick_of(case), verdict_of(seen), pick_of(seen)
            )
        )
    return forecast


def markdown(forecast: Forecast) -> list[str]:
    """Where the free tier's verdicts part from the agent's, so authors learn which skills it mispredicts."""
    lines = [f"### Forecast against `{forecast.against}`", ""]
    compared = forecast.compared
    if not compared:
        lines.append(
            f"No case was graded by both engines ({forecast.not_in_report} not in that report, "
            f"{forecast.agent_errors} errored there)."
        )
        return lines
    lines.append(
        f"Of {compared} cases graded by both engines, the lexical verdict matched the agent's "
        f"(pass or fail) for {share(forecast.agreed, compared)}; the lexical first pick was "
        f"the skill the agent fired for {share(forecast.same_pick, compared)}. "
        f"Not compared: {forecast.not_in_report} not in that report, {forecast.agent_errors} errored there."
    )
    lines += ["", "By skill:", ""]
    by_skill = sorted(
        forecast.per_skill.items(), key=lambda item: (item[1]["agreed"] / item[1]["compared"], item[0])
    )
    lines.append(
        table(
            ["skill", "compared", "agreed", "agreement"],
            [(n, v["compared"], v["agreed"], percent(v["agreed"] / v["compared"])) for n, v in by_skill],
        )
    )
    if forecast.disagreements:
        lines += ["", "Cases the engines disagree on:", ""]
        rows = [
            (
                d.id,
                d.skill,
                f"{d.lexical_verdict} (first: {d.lexical_pick or 'none'})",
                f"{d.agent_verdict} (fired: {d.agent_pick or 'none'})",
            )
            for d in forecast.disagreements[:ROWS_SHOWN]
        ]
        more = len(forecast.disagreements) - ROWS_SHOWN
        lines.append(
            table(["case", "skill", "lexical", "agent"], rows) + (f"\n\n{more} more." if more > 0 else "")
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lexical", type=Path, help="the JSON report of `skillscope routing --engine lexical`")
    parser.add_argument(
        "agent", type=Path, help="the JSON report of an agent routing run over the same cases"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    try:
        lexical = lexical_report(args.lexical)
        why = (
            "the forecast compares against an agent run, so pass the report of `skillscope routing` "
            "without --engine lexical."
        )
        agent = cases_of(agent_report(args.agent, str(args.agent), why), str(args.agent))
    except UsageError as exc:
        print(f"lexical_forecast: {exc}", file=sys.stderr)
        return 2
    forecast = compare(lexical, agent, str(args.agent))
    print(json.dumps(asdict(forecast), indent=2) if args.json else "\n".join(markdown(forecast)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
