"""The legs of a paid run: every agent --agent names on every model --model gives it.

Activation is a property of description x agent x model, so a run over several models is the same
cases on each (agent, model) pair. A bare `--model` entry applies to every agent; `agent=model`
applies to that agent only (model ids are per runtime: a Gemini id means nothing to claude). An agent
given no model runs its CLI's own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from harness.errors import UsageError

if TYPE_CHECKING:  # select plans legs too, and loads no agent code
    from harness.agent.session import AgentSettings

DEFAULT_MODEL = "default"  # how a leg on the CLI's own model is named
SettingsT = TypeVar("SettingsT", bound="AgentSettings")
ResultT = TypeVar("ResultT")


@dataclass(frozen=True)
class Leg:
    """One agent on one model (None: the CLI's own)."""

    agent: str
    model: str | None

    @property
    def model_name(self) -> str:
        return self.model or DEFAULT_MODEL


def model_entries(flag: str, entries: Sequence[str], known: Sequence[str]) -> list[tuple[str | None, str]]:
    """Each --model entry as (the agent it is for, or None for every agent; the model id). `known`: the
    agent names; an entry for an agent the run does not use applies to no leg (a workflow passes one
    list to each agent's job)."""
    parsed = []
    for entry in entries:
        runtime, sep, model = entry.partition("=")
        target = runtime.strip() if sep else None
        model = (model if sep else entry).strip()
        if not model:
            raise UsageError(
                f"{flag}: '{entry}' names no model id; give one after the `=`, such as claude=sonnet."
            )
        if any(ch.isspace() for ch in model) or model.startswith("-"):
            raise UsageError(
                f"{flag}: '{model}' is not a model id (no spaces, no leading dash); pass the id the "
                "agent's CLI takes, such as sonnet."
            )
        if target is not None and target not in known:
            raise UsageError(
                f"{flag}: '{entry}' is for agent {target!r}, which skillscope does not know; name one of "
                f"{', '.join(known)} before the `=`."
            )
        parsed.append((target, model))
    return parsed


def plan_legs(agents: Sequence[str], entries: Sequence[tuple[str | None, str]]) -> list[Leg]:
    """Agent-major legs: each agent on each model meant for it, in the order given, each once."""
    legs = []
    for agent in agents:
        models: list[str | None] = list(dict.fromkeys(m for target, m in entries if target in (None, agent)))
        legs += [Leg(agent, m) for m in models or [None]]
    return legs


def labels(legs: Sequence[Leg]) -> list[str]:
    """Each leg's name in a report: its agent when the agent runs one model, else `agent@model`."""
    runs = {leg.agent: sum(1 for other in legs if other.agent == leg.agent) for leg in legs}
    return [leg.agent if runs[leg.agent] == 1 else f"{leg.agent}@{leg.model_name}" for leg in legs]


def leg_settings(settings: SettingsT, leg: Leg, name: str | None) -> SettingsT:
    """The settings of one leg: its model, and in a matrix (`name`: the leg's) its own sub-folder of
    --keep-logs for its transcripts."""
    logs = settings.keep_logs / name if settings.keep_logs is not None and name else settings.keep_logs
    return dataclasses.replace(settings, model=leg.model, keep_logs=logs)


def against_first(
    legs: Sequence[tuple[str, ResultT]], agent_of: Callable[[ResultT], str]
) -> list[tuple[str, str, ResultT, str, ResultT]]:
    """(agent, its first leg's name and result, a later leg's name and result) for each agent that ran
    on several models: what a matrix's between-models differences compare."""
    by_agent: dict[str, list[tuple[str, ResultT]]] = {}
    for label, result in legs:
        by_agent.setdefault(agent_of(result), []).append((label, result))
    return [
        (agent, first_label, first, label, other)
        for agent, ((first_label, first), *others) in by_agent.items()
        for label, other in others
    ]
