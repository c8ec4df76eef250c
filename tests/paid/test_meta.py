"""The shared head and tail of an agent run's meta, as routing and behavioral reports write them."""

from __future__ import annotations

from harness.model.envelope import Halt, RunMeta
from harness.paid.meta import AgentRunMeta

RUN = RunMeta(command="routing", repo="/repo", globs=["*"], started_at="2026-01-01T00:00:00+00:00")


def meta(agent: str) -> AgentRunMeta:
    return AgentRunMeta(
        run=RUN,
        agent=agent,
        agent_version="1.2.3",
        model=None,
        effort=None,
        extended=True,
        jobs=2,
        case_timeout=60.0,
        max_budget_usd=0.5,
        isolation={},
        halt=Halt(interrupted="SIGINT", unfinished=3),
    )


def test_claude_keeps_its_version_under_the_older_name_too():
    written = meta("claude").to_json()
    assert (written["agent_version"], written["claude_version"]) == ("1.2.3", "1.2.3")


def test_another_runtime_has_no_claude_version():
    assert "claude_version" not in meta("codex").to_json()


def test_the_halt_is_spread_into_the_meta():
    written = meta("claude").to_json()
    assert (written["interrupted"], written["unfinished"], written["agent_error"]) == ("SIGINT", 3, None)
