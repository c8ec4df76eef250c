"""What a live compare grades, one object per mode with one contract: its selected cases, both
sides run interleaved on one pool (`compare`), and what a dry run would do (`dry_run`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from harness import agent
from harness.agent.trace import one_line
from harness.behavioral.result import CaseResult
from harness.behavioral.runner import BehavioralRun, BehavioralSettings, SkillUnderTest
from harness.compare import interleave
from harness.compare.result import CaseComparison
from harness.compare.sides import SideRecord, behavioral_run, routing_runs
from harness.model.dataset import Case
from harness.paid import dryrun
from harness.paid.controls import RunControls
from harness.routing import canary, metrics
from harness.routing.metrics import CaseOutcome
from harness.routing.result import case_json
from harness.routing.runner import RoutingRun, RoutingSettings

SIDES = ("baseline", "candidate")


@dataclass(frozen=True)
class Shared:
    """What both sides of every mode share: the clock, the cache, the run's spend and the judge; and
    each side's agent (the same one unless --baseline-agent names another)."""

    agents: Mapping[str, agent.Agent]  # side -> the agent it runs on
    controls: RunControls
    repeat: int
    jobs: int
    judge: agent.Agent | None = None  # behavioral: one judge for both sides (None: each side's agent)

    def commands(self, runs: Mapping, case: Case) -> list[str]:
        """The command line of each side's agent for `case`, once when both sides run the same agent."""
        lines: dict[str, list[str]] = {}
        for side in SIDES:
            argv, env = self.agents[side].invocation(runs[side].spec(case, Path("<workspace>")))
            lines.setdefault(dryrun.command_text(argv, env), []).append(side)
        if len(lines) == 1:
            return [f"  {next(iter(lines))}"]
        return [f"  {' and '.join(sides)}: {line}" for line, sides in lines.items()]


@dataclass(frozen=True)
class RoutingCompare:
    """Both versions in the same room on the candidate's routing cases."""

    cases: list[Case]
    rooms: Mapping[str, Mapping[str, Path]]  # side -> the skills it installs
    settings: Mapping[str, RoutingSettings]  # side -> its settings (they differ only in the log folder)
    mode = "routing"

    def runs(self, shared: Shared) -> dict[str, RoutingRun]:
        return side_runs(RoutingRun, self.rooms, self.settings, shared)

    def compare(
        self, shared: Shared, on_case_done: Callable[[str], None] = lambda line: None
    ) -> tuple[list[CaseComparison], list[str], list[canary.Checked]]:
        """The cases finished on both sides, the notes of options the CLI could not honour, and the
        canary of each side's agent and model, run first: when one fails, no case runs and each is an
        error carrying its sentence on both sides, never a pair graded "no skill"."""
        runs = self.runs(shared)
        checked = canary.check_each([runs["candidate"], runs["baseline"]])
        for each in checked:
            on_case_done(each.line())
        blocked = canary.blocking(checked)
        if blocked is not None:
            unrun = canary.unrun(self.cases, blocked)
            pairs = [(o, o) for o in unrun]
        else:
            pairs = interleave.run_routing(
                runs["baseline"],
                runs["candidate"],
                self.cases,
                shared.jobs,
                shared.repeat,
                on_case_done=lambda b, c: on_case_done(progress_line(routing_comparison(b, c))),
            )
        notes = list(dict.fromkeys(runs["baseline"].notes + runs["candidate"].notes))
        return [routing_comparison(b, c) for b, c in pairs], notes, checked

    def dry_run(self, shared: Shared) -> list[str]:
        runs = self.runs(shared)
        settings = self.settings["candidate"]
        # Each side's agent spends its own requests on the deciding turn; both sides take as many samples.
        deciding = [runs[side].agent.requests_to_decision for side in SIDES]
        estimate = dryrun.Estimate(
            samples=len(self.cases) * shared.repeat * len(SIDES),
            requests_per_sample=(
                sum(deciding) / len(SIDES),
                settings.max_tool_calls + settings.max_inspection_calls + math.ceil(max(deciding)),
            ),
        )
        lines = [f"### routing: {len(self.cases)} case(s) x {shared.repeat} sample(s) x {len(SIDES)} sides"]
        lines += [f"Room on the {side} side: {room_text(self.rooms[side])}" for side in SIDES]
        for run in canary.distinct([runs["candidate"], runs["baseline"]]):
            said, replay = canary.dry_run_line(run)
            lines.append(said)
            if run.settings.canary:
                estimate.add_canary(replay)
        for case in self.cases:
            hits = {side: [runs[side].cached(case, n) for n in range(shared.repeat)] for side in SIDES}
            found = [h for side in SIDES for h in hits[side] if h is not None]
            estimate.cached += [dryrun.Figures(h.input_tokens, h.output_tokens, h.cost_usd) for h in found]
            expects = metrics.expects(case)
            lines.append(f"  {case.id}: expects {expects}; {cached_text(hits)}; {one_line(case.prompt, 80)}")
        lines.append("Command (one fresh workspace per run as its directory, the case's prompt on stdin):")
        lines += shared.commands(runs, self.cases[0])
        return lines + estimate.lines()


@dataclass(frozen=True)
class BehavioralCompare:
    """Both versions run each case to completion on the candidate's cases, fixtures and hooks; only
    what the workspace installs differs."""

    cases: list[Case]
    skills: Mapping[str, tuple[SkillUnderTest, SkillUnderTest]]  # name -> (baseline, candidate)
    settings: Mapping[str, BehavioralSettings]
    mode = "behavioral"

    def runs(self, shared: Shared) -> dict[str, BehavioralRun]:
        # Each case names what its side installs (SkillUnderTest.installed), so no run holds skills.
        return side_runs(
            BehavioralRun, dict.fromkeys(SIDES, {}), self.settings, shared, judge_agent=shared.judge
        )

    def compare(
        self, shared: Shared, on_case_done: Callable[[str], None] = lambda line: None
    ) -> tuple[list[CaseComparison], list[str], list[canary.Checked]]:
        """The cases finished on both sides; no notes and no canary (behavioral grades what the agent
        did, not which skill it activated)."""
        runs = self.runs(shared)
        found = interleave.run_behavioral(
            runs["baseline"],
            runs["candidate"],
            self.skills,
            self.cases,
            shared.jobs,
            shared.repeat,
            shared.agents["candidate"].temp_parent,
        )
        compared = [behavioral_comparison(case, b, c) for case, b, c in found]
        for one in compared:
            on_case_done(progress_line(one))
        return compared, [], []

    def dry_run(self, shared: Shared) -> list[str]:
        runs = self.runs(shared)
        samples = len(self.cases) * shared.repeat * len(SIDES)
        estimate = dryrun.Estimate(samples=samples, requests_per_sample=(2, None))
        lines = [
            f"### behavioral: {len(self.cases)} case(s) x {shared.repeat} sample(s) x {len(SIDES)} sides, "
            "each with its skill's version installed alone"
        ]
        for case in self.cases:
            assert case.skill is not None  # a behavioral case belongs to a skill
            pair = dict(zip(SIDES, self.skills[case.skill], strict=True))
            hits = {
                side: [runs[side].cached(pair[side], case, n) for n in range(shared.repeat)] for side in SIDES
            }
            for hit in (h for side in SIDES for h in hits[side] if h is not None):
                spent = hit.agent.usage.plus(hit.judge.usage)
                estimate.cached.append(dryrun.Figures(spent.input_tokens, spent.output_tokens, hit.cost_usd))
            bare = "; the baseline side installs nothing" if not pair["baseline"].room else ""
            lines.append(
                f"  {case.id} ({case.skill}): {cached_text(hits)}{bare}; {one_line(case.prompt, 80)}"
            )
        lines.append("Agent command (one fresh workspace per run as its directory, the prompt on stdin):")
        lines += shared.commands(runs, self.cases[0])
        lines.append("A judge run (read-only tools) follows a case with expected or unexpected behaviour.")
        return lines + estimate.lines()


def cached_text(hits: Mapping[str, list]) -> str:
    """How many of each side's runs the result cache holds (None: not cached)."""
    return ", ".join(
        f"{side} {sum(h is not None for h in found)}/{len(found)} cached" for side, found in hits.items()
    )


def side_runs(make: Callable, installed: Mapping, settings: Mapping, shared: Shared, **extra) -> dict:
    """One runner per side on its agent, sharing the clock, cache and spend; `make` is the runner class."""
    return {
        side: make(
            shared.agents[side],
            installed[side],
            settings[side],
            shared.controls,
            **extra,
        )
        for side in SIDES
    }


def room_text(room: Mapping[str, Path]) -> str:
    return ", ".join(room) or "no skill"


def routing_comparison(base: CaseOutcome, cand: CaseOutcome) -> CaseComparison:
    before, after = (SideRecord(routing_runs(case_json(o)), o.ungradable or None) for o in (base, cand))
    return CaseComparison.of(cand.case, "routing", before, after)


def behavioral_comparison(case: Case, base: list[CaseResult], cand: list[CaseResult]) -> CaseComparison:
    before, after = (SideRecord([behavioral_run(r.to_json()) for r in runs]) for runs in (base, cand))
    return CaseComparison.of(case, "behavioral", before, after)


def progress_line(compared: CaseComparison) -> str:
    before, after = compared.baseline, compared.candidate
    return (
        f"  [{compared.label}] {compared.id} ({compared.mode}): baseline {side_words(compared.mode, before)} "
        f"-> candidate {side_words(compared.mode, after)}"
    )


def side_words(mode: str, record: SideRecord) -> str:
    """A side in a progress line: routing's skill chosen; behavioral's status and runs passed (its outcome,
    the statements met, lists avoided must-nots too, which would read as things the agent did)."""
    if mode != "behavioral" or not record.graded:
        return record.outcome or record.status
    side = record.side
    return f"{record.status} ({side.passes}/{side.runs} run(s) passed)"


def with_logs(settings, folder: Path | None, side: str):
    """`settings` keeping each run's transcript under `folder/<side>/` (None: logs are not kept)."""
    return replace(settings, keep_logs=folder / side if folder else None)
