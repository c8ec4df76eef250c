"""--propose: the agent writes new descriptions in one call that sees the description to improve, its
failures on the train split and the neighbours' descriptions; never a validation or final case, which
is why this module is only ever handed train outcomes."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from harness.checks.skill_md import MAX_DESCRIPTION

HEADER = (
    "You are improving the description of an Agent Skill, the text an agent reads to decide whether to "
    "use it."
)
FAILURES_SHOWN = 40
PROMPT_CHARS = 400
ARRAY = re.compile(r"\[[\s\S]*\]")


@dataclass(frozen=True)
class Failure:
    """A train case the description got wrong: what was asked, what should have fired, what did."""

    prompt: str
    expected: str | None
    observed: str | None


def build_prompt(
    skill: str, description: str, failures: list[Failure], neighbours: dict[str, str], count: int
) -> str:
    lines = [
        HEADER,
        "",
        f"Skill `{skill}` is installed side by side with other skills. Its description now:",
        "",
        _quoted(description),
        "",
        "The other skills in the room, which it must not take cases from:",
        "",
    ]
    lines += [f"- `{name}`: {_one_line(text)}" for name, text in neighbours.items()] or ["- (none)"]
    lines += ["", "Prompts it routed wrongly (expected -> observed):", ""]
    for failure in failures[:FAILURES_SHOWN]:
        expected = failure.expected or "no skill"
        lines.append(
            f"- {_one_line(failure.prompt)[:PROMPT_CHARS]!r}: {expected} -> {failure.observed or 'no skill'}"
        )
    if not failures:
        lines.append("- (none: make it clearer without losing what it gets right)")
    lines += [
        "",
        f"Write {count} different new descriptions for `{skill}`. Each says what the skill does and when to "
        f"use it, in at most {MAX_DESCRIPTION} characters, and must not draw in the other skills' prompts.",
        f"Answer with only a JSON array of {count} strings.",
    ]
    return "\n".join(lines)


def parse_answer(answer: str | None, count: int) -> tuple[list[str], str | None]:
    """The descriptions in the agent's answer (at most `count`), and why none could be read, if so."""
    match = ARRAY.search(answer or "")
    if match is None:
        return [], "the proposal answer held no JSON array"
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        return [], f"the proposal answer's array is not valid JSON ({exc.msg})"
    texts = (
        [item.strip() for item in data if isinstance(item, str) and item.strip()]
        if isinstance(data, list)
        else []
    )
    if not texts:
        return [], "the proposal answer's array held no description string"
    return list(dict.fromkeys(texts))[:count], None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" for line in text.splitlines() or [""])


class AgentProposer:
    """Asks `runner` for descriptions in one read-only call with no skill installed; what it costs is
    charged to the run's budget, and a call is not made once the budget is spent."""

    def __init__(
        self, runner, settings, skill: str, neighbours: dict[str, str], budget, cancel, keep_logs=None
    ):
        self.runner, self.settings, self.skill, self.neighbours = runner, settings, skill, neighbours
        self.budget, self.cancel, self.keep_logs = budget, cancel, keep_logs
        self.cost_usd = 0.0
        self.calls = 0

    def __call__(self, description: str, failures: list[Failure], count: int) -> tuple[list[str], str | None]:
        from harness import agent  # the agent stack, which a lexical tuning never loads

        if self.budget.reached:
            return [], self.budget.not_run_reason()
        prompt = build_prompt(self.skill, description, failures, self.neighbours, count)
        self.calls += 1
        log = self.settings.log_path(f"propose-{self.calls}", "jsonl")
        with self.runner.workspace({}) as workspace:
            spec = agent.read_only_spec(
                prompt,
                workspace,
                model=self.settings.model,
                effort=self.settings.effort,
                max_budget_usd=self.settings.max_budget_usd or None,
                timeout_s=self.settings.case_timeout,
                keep_log=log,
                installed={},
                cancel=self.cancel,
            )
            trace = self.runner.run(spec)
        self.budget.charge(trace.cost_usd)
        self.cost_usd += trace.cost_usd or 0.0
        if trace.failure:
            return [], f"the proposal call failed ({trace.failure})"
        return parse_answer(trace.final_message, count)
