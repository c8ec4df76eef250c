"""A live compare's plan: the two versions' folders, each mode's cases and settings on both sides, the
agents of each side, and what the report says of the run. The command reads the flags; this module
turns them into what runs."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from harness import agent
from harness.behavioral import hooks as behavioral_hooks
from harness.behavioral.runner import BehavioralSettings, SkillUnderTest
from harness.behavioral.selection import behavioral_cases
from harness.compare import versions
from harness.compare.modes import SIDES, BehavioralCompare, RoutingCompare, Shared, with_logs
from harness.compare.result import BOTH, CompareMeta, CompareResult
from harness.context import Context
from harness.errors import UsageError
from harness.model import catalog
from harness.model.catalog import Catalog
from harness.model.envelope import Halt
from harness.model.repo import Repo
from harness.paid.command import PaidRun, PaidSettings
from harness.routing.runner import RoutingSettings

Mode = TypeVar("Mode", RoutingCompare, BehavioralCompare)


DEFAULTS = {
    "routing": {"case_timeout": 240.0, "max_budget_usd": 0.75},
    "behavioral": {"case_timeout": 900.0, "max_budget_usd": 5.0},
}


def limit(settings: PaidSettings, mode: str, key: str) -> float:
    """The flag's value, else `mode`'s own default (with --mode both each mode keeps its own)."""
    value = getattr(settings, key)
    return DEFAULTS[mode][key] if value is None else value


@dataclass(frozen=True)
class Live:
    """A live compare's own flags: the two versions, the agents of the baseline side and of the
    judge, the runs of each case on each side, and whether a regression fails the run."""

    baseline: str  # --baseline as given
    candidate: str  # --candidate, or the working tree
    baseline_agent: str  # --baseline-agent, else --agent's
    baseline_model: str | None  # --baseline-model, else --model's
    judge_agent: str
    repeat: int
    allow_regressions: bool
    min_pairs: int


@dataclass(frozen=True)
class ModeFlags:
    """The flags that choose a live compare's modes and set each mode's runs."""

    mode: str | None  # --mode; None: both when a selected case carries an expectation, else routing
    only: list[str]
    extended: bool
    dry_run: bool
    repeat: int
    baseline_model: str | None  # --baseline-model as given
    max_tool_calls: int
    max_inspection_calls: int
    canary: bool
    strict_isolation: bool


@dataclass(frozen=True)
class Versions:
    """The repo as found, the repo with the candidate's folders, and each side's folder per skill."""

    repo: Repo
    candidate_repo: Repo
    baseline: dict[str, Path | None]  # None: --baseline none
    candidate: dict[str, Path]


@dataclass(frozen=True)
class Planned:
    """One comparison to run: the paid run on its model, the compare's flags, and its modes."""

    paid: PaidRun
    live: Live
    modes: list[RoutingCompare | BehavioralCompare]


def mode_logs(folder: Path | None, mode: str, which: str) -> Path | None:
    """Where `which` mode keeps its transcripts: under the folder, in a folder of its own with --mode both."""
    if folder is None:
        return None
    return folder / which if mode == BOTH else folder


def routing_mode(
    extended: bool,
    found: Versions,
    loaded: Catalog,
    names: list[str],
    room: list[str],
    only: list[str],
) -> RoutingCompare:
    """The routing cases (with --extended's too when `extended`) and each side's room; settings come
    later (with_settings)."""
    pooled = loaded.cases(room, extended=extended) + loaded.negative_cases()
    cases = versions.at_home(catalog.select_cases(pooled, only, names), found.repo, found.candidate)
    return RoutingCompare(cases, side_rooms(room, found.candidate_repo, found.baseline), {})


def behavioral_mode(
    extended: bool, dry_run: bool, found: Versions, loaded: Catalog, names: list[str], only: list[str]
) -> BehavioralCompare:
    """The behavioral cases and each skill's two versions; settings come later (with_settings)."""
    base, cand, repo = found.baseline, found.candidate, found.repo
    hooks = behavioral_hooks.read_all(names, cand, repo, dry_run)
    chosen = catalog.select_cases(loaded.cases(names, extended=extended), only, names)
    skills = {}
    for n in names:
        against = base[n]  # None: --baseline none, so the baseline side installs nothing
        skills[n] = (
            SkillUnderTest(n, cand[n], hooks[n], installed={n: against} if against else {}),
            SkillUnderTest(n, cand[n], hooks[n]),
        )
    return BehavioralCompare(versions.at_home(behavioral_cases(chosen, hooks), repo, cand), skills, {})


def with_settings(
    mode: Mode, settings: agent.AgentSettings, logs: Path | None, baseline_model: str | None = None
) -> Mode:
    """`mode` with `settings` on both sides, each keeping its transcripts apart under `logs`; the
    baseline side on `baseline_model` when given (--baseline-model)."""
    sides = {side: with_logs(settings, logs, side) for side in SIDES}
    if baseline_model is not None:
        sides["baseline"] = replace(sides["baseline"], model=baseline_model)
    return replace(mode, settings=sides)


def shared_of(plan: Planned) -> Shared:
    """What both sides of every mode of `plan` share, its agents readied (AgentNotReady if not)."""
    paid, live = plan.paid, plan.live
    agents = side_agents(paid, live, judged=any(m.mode == "behavioral" for m in plan.modes))
    judge = agents.pop("judge", None)
    return Shared(
        agents,
        paid.controls(),
        live.repeat,
        paid.settings.jobs,
        judge,
    )


def mode_of(modes: list[RoutingCompare | BehavioralCompare]) -> str:
    return modes[0].mode if len(modes) == 1 else BOTH


def compared(plan: Planned, shared: Shared, names: list[str], room: list[str]) -> CompareResult:
    """Each mode of `plan` run in turn, both sides interleaved: the cases finished on both sides."""
    paid, live, modes = plan.paid, plan.live, plan.modes
    on = " and ".join(dict.fromkeys(f"{a.runtime} {a.version}" for a in shared.agents.values()))
    paid.say(
        f"{' and '.join(f'{len(m.cases)} {m.mode}' for m in modes)} case(s) x {live.repeat} on each side, "
        f"interleaved; baseline {live.baseline}, candidate {live.candidate}; {on}"
        + (f" on {paid.settings.model}" if paid.settings.model else "")
    )
    found, notes, canaries = [], [], []
    for each in modes:
        cases, said, checked = each.compare(shared, on_case_done=paid.ctx.err)
        found += cases
        notes += [n for n in said if n not in notes]
        canaries += checked
        notes += [line for c in checked if c.verdict.blocks and (line := c.line()) not in notes]
    notes += paid.cache_notes()
    described = agent_meta(shared, paid.settings, room if modes[0].mode == "routing" else names, live)
    selected = sum(len(m.cases) for m in modes)
    done = live_meta(paid, live, names, mode_of(modes), described, notes, paid.halt(selected, len(found)))
    done.canary = canaries
    return CompareResult(meta=done, cases=found)


def live_meta(
    paid: PaidRun, live: Live, names: list[str], mode: str, agent: dict, notes: list[str], halt: Halt
) -> CompareMeta:
    if paid.deadline.expired:
        notes = [*notes, "The command's --timeout ran out: runs not finished are errors."]
    cache = paid.settings.cache
    return CompareMeta(
        run=paid.run_meta(),
        mode=mode,
        baseline=live.baseline,
        candidate=live.candidate,
        source="live",
        repeat=live.repeat,
        allow_regressions=live.allow_regressions,
        min_pairs=live.min_pairs,
        skills=names,
        agent=agent,
        notes=notes,
        halt=halt,
        strict=paid.settings.strict,
        max_run_usd=paid.settings.max_run_usd,
        cache=str(cache) if cache else None,
    )


def side_dirs(
    stack: ExitStack, spec: str | None, flag: str, repo: Repo, names: list[str], ctx: Context
) -> dict[str, Path | None]:
    """Each compared skill's folder in the version `spec` names, kept until `stack` closes."""
    return {
        name: stack.enter_context(
            versions.materialised(spec, repo.skill_dirs[name], ctx.cwd, flag, ctx.environ)
        )
        for name in names
    }


def candidate_dirs(
    stack: ExitStack, spec: str | None, repo: Repo, names: list[str], ctx: Context
) -> dict[str, Path]:
    """Each compared skill's folder in the candidate: always one, as --candidate none is refused
    before (compared_skills)."""
    folders = {}
    for name, folder in side_dirs(stack, spec, "--candidate", repo, names, ctx).items():
        assert folder is not None
        folders[name] = folder
    return folders


def side_rooms(room: list[str], candidate_repo: Repo, baseline: dict[str, Path | None]) -> dict[str, dict]:
    """The same room on both sides but for the compared skills' versions (absent: --baseline none)."""
    candidate = {name: candidate_repo.skill_dirs[name] for name in room}
    swapped = {name: baseline.get(name, path) for name, path in candidate.items()}
    return {"candidate": candidate, "baseline": {n: p for n, p in swapped.items() if p is not None}}


def side_agents(paid: PaidRun, live: Live, judged: bool) -> dict[str, agent.Agent]:
    """Each side's agent (--agent; --baseline-agent for the baseline side), and with a behavioral mode
    the judge's (--judge-agent): each CLI located and checked once, however many roles it plays."""
    wanted = {
        "candidate": paid.settings.agents[0],
        "baseline": live.baseline_agent,
        **({"judge": live.judge_agent} if judged else {}),
    }
    ready = {role: paid.ready(name) for role, name in wanted.items()}
    paid.on_model(live.baseline_model).ready(live.baseline_agent)  # the baseline's model answers too
    return ready


def agent_meta(shared: Shared, settings: PaidSettings, room: list[str], live: Live) -> dict:
    """The candidate's agent, and the baseline's (its agent or model) and the judge's when they are
    others."""
    cand, base = shared.agents["candidate"], shared.agents["baseline"]
    other = base is not cand or live.baseline_model != settings.model
    baseline = {"runtime": base.runtime, "version": base.version, "model": live.baseline_model}
    return {
        "runtime": cand.runtime,
        "version": cand.version,
        "model": settings.model,
        "effort": settings.effort,
        "room": room,
        "isolation": cand.describe(),
        **({"baseline": baseline} if other else {}),
        **(
            {"judge": {"runtime": shared.judge.runtime, "version": shared.judge.version}}
            if shared.judge
            else {}
        ),
    }


def chosen_modes(
    flags: ModeFlags,
    paid: PaidRun,
    found: Versions,
    loaded: Catalog,
    names: list[str],
    room: list[str],
    logs: Path | None,
    judge_model: str | None,
) -> list[RoutingCompare | BehavioralCompare]:
    """--mode's modes (by default: both when a selected case carries an expectation, else routing),
    each with its selected cases and its settings, their transcripts under `logs`, behavioral's judged
    on `judge_model`; a mode with none is a usage error before any token."""
    only = flags.only
    behavioral = (
        None
        if flags.mode == "routing"
        else behavioral_mode(flags.extended, flags.dry_run, found, loaded, names, only)
    )
    mode = flags.mode or (BOTH if behavioral and behavioral.cases else "routing")
    chosen: list[RoutingCompare | BehavioralCompare] = []
    if mode in ("routing", BOTH):
        routing_settings = paid.agent_settings(
            RoutingSettings,
            case_timeout=limit(paid.settings, "routing", "case_timeout"),
            max_budget_usd=limit(paid.settings, "routing", "max_budget_usd"),
            max_tool_calls=flags.max_tool_calls,
            max_inspection_calls=flags.max_inspection_calls,
            repeat=flags.repeat,
            canary=flags.canary,
        )
        routing = routing_mode(flags.extended, found, loaded, names, room, only)
        if not routing.cases:
            raise UsageError("no routing case selected; check --skill and --only.")
        routing_logs = mode_logs(logs, mode, "routing")
        chosen.append(with_settings(routing, routing_settings, routing_logs, flags.baseline_model))
    if mode in ("behavioral", BOTH):
        assert behavioral is not None  # made whenever --mode is not routing
        if not behavioral.cases:
            raise UsageError(
                "no behavioral case selected: no `true` case of the --skill skills carries an expectation; "
                "check --skill and --only."
            )
        behavioral_settings = paid.agent_settings(
            BehavioralSettings,
            case_timeout=limit(paid.settings, "behavioral", "case_timeout"),
            max_budget_usd=limit(paid.settings, "behavioral", "max_budget_usd"),
            judge_model=judge_model,
            strict_isolation=flags.strict_isolation,
        )
        behavioral_logs = mode_logs(logs, mode, "behavioral")
        chosen.append(with_settings(behavioral, behavioral_settings, behavioral_logs, flags.baseline_model))
    return chosen
