"""An agent routing run's JSON report, read back: the one reader for every use that learns from what an
agent did (the sweep's separation hint, the lexical calibration study in benchmarks/)."""

from __future__ import annotations

from pathlib import Path

from harness import jsonsafe, nesting
from harness.errors import UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text


def agent_report(path: Path, shown: str, why_agent: str) -> dict:
    """The report of an agent routing run at `path`, or one sentence naming `shown` (the flag and the path
    as given) and the fix; `why_agent` says why a lexical engine's report will not do."""
    return routing_report(path, shown, "agent", why_agent)


def routing_report(path: Path, shown: str, engine: str, why: str) -> dict:
    """The report of a routing run of `engine` at `path` (a report without `engine` is an agent run's),
    or one sentence naming `shown` and the fix; `why` says why another engine's report will not do."""
    try:
        document = jsonsafe.loads(read_text(path, MAX_REPORT_BYTES), shown, depth=nesting.REPORT_DEPTH)
    except UnreadableFile as exc:
        raise UsageError(
            f"{shown}: cannot be read ({exc.reason}); pass the JSON report of a routing run."
        ) from None
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{exc}; pass the JSON report of a routing run.") from None
    if not isinstance(document, dict) or document.get("command") != "routing":
        raise UsageError(f"{shown}: is not a routing report; pass the JSON file a routing run wrote.")
    if document.get("engine", "agent") != engine:
        raise UsageError(f"{shown}: is a report of the {document.get('engine', 'agent')} engine; {why}")
    return document
