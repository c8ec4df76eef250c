"""What `skillscope show` prints of a run's kept logs beside its report: the table of the logs (each row
read by harness.agent.transcript) with the status each case got, and a case's head above its transcript."""

from __future__ import annotations

from collections.abc import Sequence

from harness.jsonfields import array_at, object_at
from harness.report.markdown import table
from harness.report.routing import observation


def listing(logs: Sequence[tuple[str, str, list[str] | str, dict | None]], *, graded: bool = False) -> str:
    """One row per kept file: (where, role, the log's cells read back or why it could not be read, its
    case in the run's report); `graded` adds the case's status from the report. The reasons a log could
    not be read follow the table, whole."""
    rows, unread = [], []
    for where, role, cells, case in logs:
        if isinstance(cells, str):
            unread.append(f"{where}: {cells}")
            cells = ["", "", "", "", "unreadable (below)"]
        row = [where, role, *cells]
        if graded:
            row.append((outcome_of(case) or "?") if case else "not in the report")
        rows.append(row)
    headers = ["log", "part", "agent", "skills called", "tool calls", "tokens in/out", "ended"]
    return "\n".join([table(headers + ["case graded"] * graded, rows), *unread])


def outcome_of(case: dict) -> str | None:
    """The word a report gives a case: its status, compare's label, or whether a matrix's agents differ."""
    if case.get("status") or case.get("label"):
        return str(case.get("status") or case.get("label"))
    if "differs" in case:
        return "agents differ" if case["differs"] else "agents agree"
    return None


def case_head(case: dict) -> list[str]:
    """A case as its run's report graded it: id, outcome, prompt, what was expected and seen."""
    return case_title(case) + prompt_lines(case) + expected_and_seen(case) + case_findings(case)


def case_title(case: dict) -> list[str]:
    """The case's id and outcome, with its skill, category and mode where the report gives them."""
    outcome = outcome_of(case) or "?"
    about = ", ".join(str(case[key]) for key in ("skill", "category", "mode") if case.get(key))
    return [f"-- case {case['id']}: {outcome}" + (f" ({about})" if about else "")]


def prompt_lines(case: dict) -> list[str]:
    """The case's prompt, its later lines aligned under the first."""
    if not isinstance(case.get("prompt"), str):
        return []
    return [
        f"   prompt: {line}" if i == 0 else f"           {line}"
        for i, line in enumerate(case["prompt"].splitlines())
    ]


def expected_and_seen(case: dict) -> list[str]:
    """One line of the skill expected, the one observed and the verdict, where the report has them."""
    if "expect" not in case and "observed" not in case:
        return []
    seen = [f"expect {case.get('expect') or 'no skill'}"] if "expect" in case else []
    seen += [f"observed {observation(case)}"] if "observed" in case else []
    return ["   " + "; ".join(seen) + (f"; verdict {case['verdict']}" if case.get("verdict") else "")]


def case_findings(case: dict) -> list[str]:
    """Each agent's observation and verdict, each unmet check, and the case's error."""
    lines = []
    for agent, seen in object_at(case, "by_agent").items():
        if isinstance(seen, dict):
            lines.append(f"   {agent}: observed {observation(seen)}; verdict {seen.get('verdict')}")
    for check in array_at(case, "checks"):
        if isinstance(check, dict) and check.get("passed") is False:
            lines.append(f"   unmet {check.get('kind')} `{check.get('expectation')}`: {check.get('detail')}")
    if case.get("error"):
        lines.append(f"   error: {case['error']}")
    return lines
