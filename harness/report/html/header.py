"""The head of every report page, read in two seconds: status word, gate, headline figures, and what ran
it, when, for how long, at what cost."""

from __future__ import annotations

from collections.abc import Sequence

from harness.report.format import dollars
from harness.report.html.shell import figures, text
from harness.report.matrix import leg_rows

UNKNOWN = "not known"  # a cost no CLI reported


def status_word(report: dict) -> str:
    return "interrupted" if report.get("meta", {}).get("interrupted") else report["status"]


def agent_facts(meta: dict) -> tuple[str | None, str | None, str | None]:
    """(agent, its version, model) from either meta shape: flat (routing, behavioral) or nested under
    `agent` (compare, cost)."""
    nested = meta.get("agent")
    if isinstance(nested, dict):
        return nested.get("runtime"), nested.get("version"), nested.get("model")
    return nested, meta.get("agent_version"), meta.get("model")


def leg_facts(report: dict) -> tuple[str | None, None, str | None]:
    """A matrix report's agents (with their versions) and models, from its legs (routing's `agents`);
    it has no meta."""
    agents = dict.fromkeys(
        " ".join(str(v) for v in (leg["agent"], leg["agent_version"]) if v) for leg in leg_rows(report)
    )
    models = dict.fromkeys(str(leg["model"] or "the CLI's default") for leg in leg_rows(report))
    return ", ".join(a for a in agents if a) or None, None, ", ".join(models) or None


def duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def header(
    report: dict,
    headline: Sequence[tuple[str, str]],
    gate: str | None,
    cost: object = None,
    cached: str | None = None,
    canary: str | None = None,
) -> str:
    """The page's head. `gate`: why the run passed or failed; `cost`: dollars, or words (`legs.spent`);
    `cached`: what the result cache gave, in words; `canary`: what the canary said (default: the meta's)."""
    meta = report.get("meta", {})  # a matrix report has none: its legs' rows say what ran
    word = status_word(report)
    lexical = report.get("engine") == "lexical"  # routing and sweep name their engine
    title = f"skillscope {report['command']}" + (" (lexical engine)" if lexical else "")
    parts = [f'<header><h1>{text(title)} <span class="status {text(word)}">{text(word)}</span></h1>']
    if gate:
        parts.append(f'<p class="gate">{text(gate)}</p>')
    halted = halt_notice(meta)
    if halted:
        parts.append(f'<p class="notice" role="status">{text(halted)}</p>')
    parts.append(figures(headline))
    agent, version, model = agent_facts(meta) if meta else leg_facts(report)
    if not isinstance(cost, str):
        cost = dollars(cost, UNKNOWN) if cost is not None or agent else None
    facts = [
        ("agent", " ".join(str(v) for v in (agent, version) if v) or None),
        ("model", model or ("the CLI's default" if agent else None)),
        ("canary", canary or canary_word(meta)),
        ("harness", report["harness_version"]),
        ("started", report["started_at"]),
        ("took", duration(report["elapsed_s"])),
        ("cost", cost),
        ("from the result cache", cached),
        ("repo", report["repo"]),
    ]
    shown = "".join(
        f"<div><span>{text(label)}:</span> {fact_value(label, value)}</div>"
        for label, value in facts
        if value is not None
    )
    parts.append(f'<div class="facts">{shown}</div></header>')
    return "\n".join(parts)


def canary_word(meta: dict) -> str | None:
    """The routing canary's status word (activated, not-activated, error, skipped, cached), if one ran."""
    checked = meta.get("canary")
    word = checked.get("status") if isinstance(checked, dict) else None
    return word if isinstance(word, str) else None


def halt_notice(meta: dict) -> str | None:
    if meta.get("interrupted"):
        return (
            f"Interrupted by {meta['interrupted']}: this page holds the cases that finished; "
            f"{meta.get('unfinished', 0)} selected case(s) did not."
        )
    if meta.get("agent_error"):
        return f"No case ran: {meta['agent_error']}."
    return None


def fact_value(label: str, value: str) -> str:
    """A timestamp is one token: kept on one line, never broken at a hyphen mid-date."""
    if label == "started":
        return f'<time datetime="{text(value)}">{text(value)}</time>'
    return text(value)
