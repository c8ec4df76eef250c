"""What one prompt costs run to completion: which skill fired, time, turns, tool calls, tokens and
dollars, with the skill installed and (given one) without it, side by side; and the dry run that says
what would be run."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from harness import agent
from harness.agent import Agent
from harness.behavioral.runner import AGENT_TOOLS, PERMISSION_MODE
from harness.cancel import Cancellation
from harness.context import Context
from harness.deadline import Deadline
from harness.model import catalog
from harness.model.envelope import ERROR, PASS, Halt, RunMeta, counts, envelope
from harness.model.repo import Repo
from harness.paid import dryrun
from harness.paid.command import PaidRun
from harness.paid.legs import DEFAULT_MODEL
from harness.printable import clip

WITH, WITHOUT = "with", "without"


@dataclass
class CostRun:
    side: str  # "with" the skill, or "without" it
    fired: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    turns: int | None = None
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float | None = None
    error: str | None = None
    retried: str | None = None  # why it ran twice: its first attempt failed the way its agent CLI does
    model: str | None = None  # the model it ran on (None: the CLI's own)

    @classmethod
    def of(cls, side: str, trace: agent.Trace) -> CostRun:
        return cls(
            side=side,
            fired=trace.activated,
            elapsed_s=trace.elapsed_s,
            turns=trace.turns,
            tool_calls=len(trace.tool_calls),
            input_tokens=trace.usage.input_tokens,
            output_tokens=trace.usage.output_tokens,
            cache_read_tokens=trace.usage.cache_read_input_tokens,
            cost_usd=trace.cost_usd,
            error=trace.failure,
            retried=trace.retried,
        )

    def to_json(self) -> dict:
        return {
            "side": self.side,
            "status": ERROR if self.error else PASS,
            "fired": self.fired,
            "elapsed_s": round(self.elapsed_s, 3),
            "turns": self.turns,
            "tool_calls": self.tool_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cost_usd": self.cost_usd,
            "error": self.error,
            "retried": self.retried,
            "model": self.model,
        }


def run_spec(
    settings: agent.AgentSettings,
    prompt: str,
    workspace: Path,
    name: str,
    deadline: Deadline,
    cancel: Cancellation | None = None,
) -> agent.RunSpec:
    """One run of `prompt` to completion in `workspace`, its log (if kept) called `name`."""
    return agent.spec_for(
        settings,
        prompt,
        workspace,
        permission_mode=PERMISSION_MODE,
        allowed_tools=AGENT_TOOLS,
        timeout_s=deadline.cap(settings.case_timeout),
        keep_log=settings.log_path(name, "jsonl"),
        cancel=cancel,
    )


def measure(
    runner: agent.Agent,
    rooms: Mapping[str, Mapping[str, Path]],
    prompt: str,
    settings: agent.AgentSettings,
    repeat: int,
    deadline: Deadline,
    cancel: Cancellation,
) -> list[CostRun]:
    """Each side's room `repeat` times, interleaved (with, without, with, ...) on one pool; a run
    a cancelling signal stopped is left out (it did not finish). A run its agent CLI failed on its own
    (the runtime's RetryRule) runs once more, fresh, and is measured by that second run."""
    order = [(side, n) for n in range(repeat) for side in rooms]

    def attempt(side: str, log: str) -> agent.Trace:
        with runner.workspace(rooms[side]) as workspace:
            return runner.run(run_spec(settings, prompt, workspace, log, deadline, cancel))

    def one(run: tuple[str, int]) -> CostRun | None:
        side, n = run
        if cancel.is_set():
            return None
        if deadline.expired:
            return CostRun(side, error=f"not run: the command's --timeout of {deadline.seconds:g} s ran out")
        try:
            trace = attempt(side, f"{side}-{n + 1}")
            if trace.retryable and not (deadline.expired or cancel.is_set()):
                why = trace.retryable
                trace = attempt(side, f"{side}-{n + 1}.retry")
                trace.retried = why
            return None if trace.stop_reason == "cancelled" else CostRun.of(side, trace)
        except agent.WorkspaceError as exc:
            return CostRun(side, error=f"could not stage the workspace: {exc}")

    with ThreadPoolExecutor(max_workers=max(1, settings.jobs)) as pool:
        return [run for run in pool.map(one, order) if run is not None]


@dataclass
class CostMeta:
    run: RunMeta
    prompt: str
    skill: str | None
    room: list[str]
    repeat: int
    agent: dict
    halt: Halt = field(default_factory=Halt)

    def to_json(self) -> dict:
        return {
            **self.run.to_json(),
            **self.halt.to_json(),
            "prompt": self.prompt,
            "skill": self.skill,
            "room": self.room,
            "repeat": self.repeat,
            "agent": self.agent,
        }


@dataclass
class CostResult:
    meta: CostMeta
    runs: list[CostRun]

    command = "cost"

    @property
    def passed(self) -> bool:
        """Figures from a failed run would mislead: every run must have finished."""
        return not self.meta.halt.halted and bool(self.runs) and not any(r.error for r in self.runs)

    @property
    def models(self) -> list[str | None]:
        """The models measured, in the order --model named them (None: the CLI's own)."""
        return list(self.meta.agent.get("models") or [self.meta.agent.get("model")])

    def sides(self, model: object = ...) -> dict[str, dict]:
        """Per side: the mean of each figure over its finished runs, and what fired in any run; on the
        first model unless `model` names another."""
        chosen = self.models[0] if model is ... else model
        runs = [r for r in self.runs if r.model == chosen]
        out = {}
        for side in dict.fromkeys(r.side for r in runs):
            done = [r for r in runs if r.side == side and not r.error]
            out[side] = {
                "runs": sum(1 for r in runs if r.side == side),
                "finished": len(done),
                "fired": sorted({name for r in done for name in r.fired}),
                **{key: mean([getattr(r, key) for r in done]) for key in FIGURES},
            }
        return out

    def to_json(self) -> dict:
        statuses = [ERROR if r.error else PASS for r in self.runs]
        return {
            **envelope(self.meta.run, self.passed, counts(statuses)),
            "meta": self.meta.to_json(),
            "sides": self.sides(),
            # Each model's sides, so a run on several models is read side by side.
            "models": [{"model": m, "sides": self.sides(m)} for m in self.models],
            "runs": [r.to_json() for r in self.runs],
        }


FIGURES = (
    "elapsed_s",
    "turns",
    "tool_calls",
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cost_usd",
)


def mean(values: list[float | int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 6) if known else None


def sides(repo: Repo, names: list[str], skill: str | None) -> dict[str, dict]:
    """The installed skills of each side: `with` the room `names` (plus `skill`), `without` it minus
    `skill`; with no skill named, `with` alone."""
    names = list(names)
    if skill and skill not in names:
        names.append(skill)
    catalog.load(repo, names)  # an unknown name stops here, with the skills found
    room = {name: repo.skill_dirs[name] for name in names}
    if not skill:
        return {WITH: room}
    return {WITH: room, WITHOUT: {n: p for n, p in room.items() if n != skill}}


def dry_run(
    ctx: Context,
    paid: PaidRun,
    ready: Agent,
    room: dict[str, dict],
    prompt: str,
    repeat: int,
    named: bool = False,
) -> int:
    """Print on `ctx` what the measurement would run; nothing is sent and nothing started, no report.
    `named`: the model is one of several, so it heads its part."""
    out = ctx.out
    model = paid.settings.model or DEFAULT_MODEL
    out("## Cost dry run: nothing was sent" + (f" (model {model})" if named else ""))
    for line in paid.cli_lines():
        out(line)
    out(f"Prompt: {clip(prompt, 80)}")
    for side, skills in room.items():
        out(f"  {side}: {', '.join(skills) or 'no skill'} installed; {repeat} run(s) to completion")
    spec = run_spec(paid.agent_settings(), prompt, Path("<workspace>"), f"{WITH}-1", paid.deadline)
    argv, env = ready.invocation(spec)
    out("Command (one fresh workspace per run as its directory, the prompt on stdin):")
    out(f"  {dryrun.command_text(argv, env)}")
    for line in dryrun.Estimate(samples=repeat * len(room), requests_per_sample=(1, None)).lines():
        out(line)
    return 0
