"""Running behavioral cases: stage, hooks, the agent to completion, then deterministic checks and the judge.

Skills run one after another (each with its own hooks session); a skill's cases run on a pool of
--jobs workers, each in its own workspace. A case whose inputs are unchanged comes from the result
cache (a skill whose every case does needs no hooks session), and no case starts once the run's
spend reaches --max-run-usd.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from harness import agent
from harness.agent.plant import NOT_PLANTED
from harness.agent.workspace import ANSWER_KEY_DIR
from harness.behavioral import hooks as hooks_mod
from harness.behavioral import hostgraders, judge, scorers
from harness.behavioral.evidence import passages
from harness.behavioral.hooks import HookError, Hooks
from harness.behavioral.inputs import InputError, stage_inputs
from harness.behavioral.isolation import outside_workspace
from harness.behavioral.placeholders import fill_case
from harness.behavioral.result import OUTSIDE_WORKSPACE, SANDBOX_OFF_NOTE, Attempt, CaseResult, Spend
from harness.behavioral.run_view import AgentRun
from harness.behavioral.snapshot import Changes, Snapshot, compare
from harness.cancel import Cancelled
from harness.files import UnreadableFile, opened
from harness.model import digests
from harness.model.dataset import EXPECTATION_KEYS, Case
from harness.paid import cache
from harness.paid.controls import RunControls
from harness.secrets import write_private
from harness.writer import write_text

if TYPE_CHECKING:  # the tripwire's modules load only for a --tripwire or --scan run
    from contextlib import AbstractContextManager

    from harness.behavioral import tripwire
    from harness.behavioral.egress import EgressLog

# The agent may read, search, edit and run commands in its workspace; acceptEdits works as root,
# where bypassing permissions is refused.
AGENT_TOOLS = ("Read", "Glob", "Grep", "Edit", "Write", "Bash")
PERMISSION_MODE = "acceptEdits"
HOOK_CHECK = "check() in evals/hooks.py"
NO_EVIDENCE = "passed without citing any evidence"
TRIPWIRE_CHECK = "no planted credential read or sent, no undeclared host or program (--tripwire)"


@dataclass(frozen=True)
class BehavioralSettings(agent.AgentSettings):
    judge_model: str | None = None
    case_timeout: float = 900.0
    max_budget_usd: float | None = 5.0
    # A case whose agent leaves its workspace is blocked (and run once more) instead of graded.
    strict_isolation: bool = False
    # A MUST statement the judge passed without citing evidence makes the case an error, not a pass.
    require_evidence: bool = False
    sandbox: bool = False  # the agent's shell commands run in the CLI's own sandbox, where it has one
    unreadable: tuple[Path, ...] = ()  # with the sandbox: what the agent may not read (paid.sandbox)
    install: str = "copy"  # "plugin": the skills installed through the host's plugin mechanism (--install)
    tripwire: bool = False  # plant honeytokens and log egress per case (tripwire.py); a hit fails the case
    scan: bool = False  # the cases are --scan's synthetic ones (reported; the tripwire grades them)

    def cache_parts(self) -> dict:
        """The settings that can change how a case grades."""
        return {
            "model": self.model,
            "effort": self.effort,
            "judge_model": self.judge_model,
            "max_budget_usd": self.max_budget_usd or None,
            "strict_isolation": self.strict_isolation,
            "sandbox": self.sandbox,
            # Only when on: the keys of runs without it stay as they were.
            **({"require_evidence": True} if self.require_evidence else {}),
            **({"install": self.install} if self.install != "copy" else {}),
            **({"tripwire": True} if self.tripwire else {}),
        }


@dataclass(frozen=True)
class SkillUnderTest:
    name: str
    directory: Path  # the cases' fixtures are read from here
    hooks: Hooks | None = None
    # What a case's workspace installs; None means the skill itself. Compare installs another
    # version of it, or nothing ({}: the skill's absence), on the same cases.
    installed: Mapping[str, Path] | None = None

    @property
    def room(self) -> Mapping[str, Path]:
        return {self.name: self.directory} if self.installed is None else self.installed


class BehavioralRun:
    def __init__(
        self,
        runner: agent.Agent,
        skills: Mapping[str, SkillUnderTest],
        settings: BehavioralSettings,
        controls: RunControls,
        *,
        judge_agent: agent.Agent | None = None,
    ):
        self.agent = runner
        self.judge = judge_agent or runner
        self.skills, self.settings = skills, settings
        self.deadline, self.cancel = controls.deadline, controls.cancel
        self.results, self.budget = controls.results, controls.budget
        # Each case as it starts and finishes: a command showing progress sets them (PaidRun).
        self.on_case_start: Callable[[Case], None] = lambda case: None
        self.on_case_done: Callable[[CaseResult], None] = lambda result: None
        # Per skill, (room digests, skill folder digest): one entry set at once, since samples
        # on the pool's threads ask for it together.
        self._digests: dict[str, tuple[dict[str, str], str]] = {}

    def case_key(self, skill: SkillUnderTest, case: Case, index: int = 0) -> str:
        """Everything a case's grade depends on: the agent, its isolation and the model and endpoint its
        environment chooses, the settings, the installed skills' files, every file of the skill's own
        folder (its datasets, hooks and whatever they read under evals/), the case's fixture, prompt
        and expectations; and which repeat it is past the first (compare's --repeat), so the first
        shares `behavioral`'s key."""
        assert self.results is not None  # only a run that keeps a cache has keys
        if skill.name not in self._digests:
            room = {n: digests.tree_digest(d, (ANSWER_KEY_DIR,)) for n, d in skill.room.items()}
            self._digests[skill.name] = (room, digests.tree_digest(skill.directory))
        room_digests, skill_digest = self._digests[skill.name]
        fixture = skill.directory / case.workspace if case.workspace else None
        parts = {
            "agent": self.results.agent_part(self.agent),
            **self.settings.cache_parts(),
            **self.judge_parts(),
            "room": room_digests,
            "skill_folder": skill_digest,
            "hooks": digests.file_digest(skill.directory / hooks_mod.HOOKS_FILE),
            "fixture": digests.tree_digest(fixture) if fixture else None,
            "prompt": case.prompt,
            "expectations": {key: getattr(case, key) for key in EXPECTATION_KEYS},
            **({"sample": index} if index else {}),
            # Inputs from outside the skill (addyosmani's evals/fixtures/): only then, so other keys stay.
            **({"inputs": input_digests(case.files_root, case.files)} if case.files_root else {}),
        }
        return cache.key_of("behavioral", parts)

    def judge_parts(self) -> dict:
        """A judge on another runtime grades differently: its CLI is part of the key (none when the
        agent judges itself, so those keys stay as they were)."""
        if self.judge is self.agent or self.results is None:
            return {}
        return {"judge_agent": self.results.agent_part(self.judge, isolation=False)}

    def cached(self, skill: SkillUnderTest, case: Case, index: int = 0) -> CaseResult | None:
        """The graded result the cache holds for this case (and repeat), if any."""
        replay = self.results.get(self.case_key(skill, case, index)) if self.results is not None else None
        return CaseResult.from_cache(case, replay) if replay is not None else None

    def run(self, cases: list[Case]) -> list[CaseResult]:
        """Every case's result, in dataset order; once cancelled, only those of the finished cases."""
        done: dict[str, CaseResult] = {}
        for name in dict.fromkeys(c.skill for c in cases):
            assert name is not None  # a behavioral case belongs to a skill (shared negatives route only)
            group = [c for c in cases if c.skill == name]
            for result in self._run_skill(self.skills[name], group):
                if result is not None:
                    done[result.case.id] = result
                    self.on_case_done(result)
        return [done[c.id] for c in cases if c.id in done]

    def _run_skill(self, skill: SkillUnderTest, cases: list[Case]) -> list[CaseResult | None]:
        done: dict[str, CaseResult | None] = {}
        try:  # digesting the skill's files for the keys: a cancelling signal ends it wherever it is
            with self.cancel.interruptible():
                hits = [(case, self.cached(skill, case)) for case in cases]
        except Cancelled:
            return [None] * len(cases)
        for case, hit in hits:
            if hit is not None and runs_of(case) > 1:  # its further samples come from the cache too
                more = [self.cached(skill, case, n) for n in range(1, runs_of(case))]
                hit = None if None in more else hit
                if hit is not None:
                    hit.repeats = [m for m in more if m is not None]
            if hit is not None:
                for sample in [hit, *hit.repeats]:
                    self.budget.reuse(sample.cost_usd)
                done[case.id] = hit
        fresh = [c for c in cases if c.id not in done]
        if fresh:
            # Cancelled before they started, cases get no result: the shorter list ends the pairing.
            done.update(zip((c.id for c in fresh), self._run_fresh(skill, fresh), strict=False))
        return [done.get(c.id) for c in cases]

    def _run_fresh(self, skill: SkillUnderTest, cases: list[Case]) -> list[CaseResult | None]:
        if self.cancel.is_set():
            return []
        if self.deadline.expired:
            return [self._not_run(c) for c in cases]
        with hooks_mod.session(skill.hooks, self.agent.temp_parent) as session:
            if session.error:
                return [CaseResult(c, error=session.error) for c in cases]
            placeholders = session.placeholders
            with ThreadPoolExecutor(max_workers=max(1, min(self.settings.jobs, len(cases)))) as pool:
                first = list(pool.map(lambda c: self.sample(skill, c, session.placeholders, 0), cases))
                # A plugin eval suite case's own `runs`: its further samples, each in a fresh workspace.
                extra = [(r, n) for r in first if r is not None for n in range(1, runs_of(r.case))]
                again = list(pool.map(lambda rn: self.sample(skill, rn[0].case, placeholders, rn[1]), extra))
        for (result, _), repeat in zip(extra, again, strict=True):
            if repeat is not None:
                result.repeats.append(repeat)
        return first

    def _not_run(self, case: Case) -> CaseResult:
        seconds = self.deadline.seconds
        return CaseResult(case, error=f"not run: the command's --timeout of {seconds:g} s ran out")

    def sample(self, skill: SkillUnderTest, case: Case, placeholders: dict, index: int) -> CaseResult | None:
        """Repeat `index` of a case: from the result cache when it holds it, else run (compare)."""
        hit = self.cached(skill, case, index)
        if hit is not None:
            self.budget.reuse(hit.cost_usd)
            return hit
        return self.run_one(skill, case, placeholders, index)

    def run_one(
        self, skill: SkillUnderTest, case: Case, placeholders: dict, index: int = 0
    ) -> CaseResult | None:
        """One case within its skill's hooks session; never raises (compare interleaves two runs).
        None when the command was cancelled before the case finished."""
        # One broken case must not take the report of every other case with it.
        if self.cancel.is_set():
            return None
        if self.budget.reached:
            return CaseResult(case, error=self.budget.not_run_reason(), not_run=True)
        self.on_case_start(case)
        started = time.monotonic()
        try:
            result = self._run_case(skill, case, placeholders)
        except Interrupted:
            return None
        except Exception as exc:  # noqa: BLE001 - recorded as this case's error, never graded
            why = f"{type(exc).__name__}: {exc}"
            result = CaseResult(case, error=f"skillscope failed to run this case ({why})")
        result.elapsed_s = time.monotonic() - started
        self.budget.charge(result.agent.cost_usd)
        self.budget.charge(result.judge.cost_usd)
        if self.results is not None and result.error is None:
            # Keyed by the case as written: the result holds it with its placeholders filled.
            self.results.put(self.case_key(skill, case, index), result.to_json())
        return result

    def _run_case(self, skill: SkillUnderTest, case: Case, placeholders: dict) -> CaseResult:
        """A blocked attempt is no evidence, nor is one the agent CLI failed on its own (its runtime's
        RetryRule): the case runs once more in a fresh workspace, and the report keeps both attempts
        (a second blocked attempt leaves the case blocked)."""
        first = self._attempt(skill, case, placeholders, 1)
        again = first.blocked is not None or first.retryable is not None
        if not again or self.deadline.expired or self.cancel.is_set() or self.budget.reached:
            return first
        return retried(first, self._attempt(skill, case, placeholders, 2))

    def _attempt(self, skill: SkillUnderTest, case: Case, placeholders: dict, number: int) -> CaseResult:
        started = time.monotonic()
        result = self._staged(skill, case, placeholders, number)
        result.attempts = [Attempt.of(result, number, time.monotonic() - started)]
        return result

    def _staged(self, skill: SkillUnderTest, case: Case, placeholders: dict, attempt: int) -> CaseResult:
        if self.deadline.expired:
            return self._not_run(case)
        fixture = skill.directory / case.workspace if case.workspace else None
        try:
            with self.agent.workspace(skill.room, fixture) as workspace:
                stage_inputs(case.files_root or skill.directory, case.files, workspace)
                return self._in_workspace(skill, case, dict(placeholders), workspace, attempt)
        except (agent.WorkspaceError, InputError) as exc:
            return CaseResult(case, error=f"could not stage the workspace: {exc}")

    def _in_workspace(
        self, skill: SkillUnderTest, case: Case, ctx: dict, workspace: Path, attempt: int
    ) -> CaseResult:
        hooks = skill.hooks
        result = CaseResult(case)
        try:
            if hooks is not None:
                ctx.update(hooks.setup(workspace, case, ctx))
            result.case = graded = fill_case(case, ctx)
            self._run_and_grade(result, graded, skill, ctx, workspace, attempt)
        except HookError as exc:
            result.error = str(exc)
        finally:
            if hooks is not None:
                self._teardown(hooks, workspace, result, ctx)
        return result

    def _run_and_grade(
        self, result: CaseResult, case: Case, skill: SkillUnderTest, ctx: dict, workspace: Path, attempt: int
    ) -> None:
        hooks, skills_folder = skill.hooks, self.agent.skills_folder
        tokens = plant_workspace(workspace) if self.settings.tripwire else ()
        before = Snapshot.take(workspace, skills_folder)
        with egress_log(self.settings.tripwire) as egress:
            trace = self._run_agent(case, workspace, attempt, tokens, egress)
        result.changes = changes = compare(before, Snapshot.take(workspace, skills_folder))
        result.agent, result.stop_reason = Spend.of_trace(trace), trace.stop_reason
        result.tool_calls, result.activated = len(trace.tool_calls), trace.activated
        result.turns = trace.turns
        result.isolation = outside_workspace(trace, workspace)
        result.sandbox = trace.sandbox_applied
        if trace.sandbox_applied is False:
            why = trace.sandbox_reason or "claude gave no reason"
            result.notes.append(SANDBOX_OFF_NOTE + why)
        result.notes += trace.notes + _denials(trace)
        result.error = self._run_failure(trace) or environment_error(trace)
        result.retryable = trace.retryable
        if egress is not None:
            from harness.behavioral import tripwire

            result.tripwire = watched(
                trace, tokens, egress, workspace, changes, tripwire.declared_by(skill.directory)
            )
            if result.tripwire.hits:  # a fail whatever else the run did: never blocked, retried or judged
                if result.error is not None:
                    result.notes.append(f"the run also failed: {result.error}")
                result.error = result.retryable = None
                result.checks.append(
                    scorers.Check("tripwire", TRIPWIRE_CHECK, False, tripwire.sentence(result.tripwire.hits))
                )
                return
        if result.isolation and self.settings.strict_isolation:
            if result.error is not None:
                result.notes.append(f"the blocked run also failed: {result.error}")
            shown = "; ".join(o.describe() for o in result.isolation[:3])
            result.blocked = OUTSIDE_WORKSPACE
            result.error = (
                f"blocked: the agent worked outside its workspace ({shown}), so its run is no evidence "
                "and was not graded; --no-strict-isolation grades it anyway"
            )
        if result.error is not None:
            return
        if result.tripwire is not None:
            from harness.behavioral import tripwire

            result.checks.append(scorers.Check("tripwire", TRIPWIRE_CHECK, True, tripwire.QUIET))
        did = passages(trace, workspace, skills_folder)
        result.checks += scorers.logs_contain(case.logs_contain, did, trace.injected_skill_text)
        result.checks += scorers.files_exist(case.files_exist, changes)
        result.checks += hostgraders.score(case.graders, trace, did, changes, workspace)
        if hooks is not None and hooks.has_check:
            failed = hooks.check(AgentRun(workspace, case.prompt, trace, changes, skills_folder), case, ctx)
            result.checks.append(scorers.Check("hook", HOOK_CHECK, failed is None, failed or "passed"))
        graded = judge.statements(case.expected_behavior, case.unexpected_behavior)
        if graded:
            self._judge(result, case, graded, trace, workspace, changes)
        if not result.checks and result.error is None:
            result.error = "nothing to grade: the case has no expectation and its skill no check() hook"

    def _run_agent(
        self,
        case: Case,
        workspace: Path,
        attempt: int = 1,
        tokens: tuple[tripwire.Honeytoken, ...] = (),
        egress: EgressLog | None = None,
    ) -> agent.Trace:
        spec = self.spec(case, workspace, self.deadline.cap(self.settings.case_timeout), attempt)
        if egress is not None:
            from harness.behavioral import tripwire

            spec.home_files = tripwire.files_of(tokens, tripwire.HOME)
            spec.proxy = egress.url
        return interrupted_or(self.agent.run(spec))

    def spec(
        self, case: Case, workspace: Path, timeout: float | None = None, attempt: int = 1
    ) -> agent.RunSpec:
        """The agent's run of one case: to its end, editing its workspace. A retry keeps its own log."""
        log = "agent.jsonl" if attempt == 1 else f"attempt-{attempt}.agent.jsonl"
        return agent.spec_for(
            self.settings,
            case.prompt,
            workspace,
            permission_mode=PERMISSION_MODE,
            allowed_tools=AGENT_TOOLS,
            timeout_s=self.settings.case_timeout if timeout is None else timeout,
            keep_log=self.settings.log_path(case.id, log),
            sandbox=self.settings.sandbox,
            unreadable=self.settings.unreadable if self.settings.sandbox else (),
            cancel=self.cancel,
        )

    def _run_failure(self, trace: agent.Trace) -> str | None:
        """Why the agent run cannot be graded, or None. An unfinished run is never a fail or a pass."""
        if trace.stop_reason == "timeout":
            if self.deadline.expired:
                return f"stopped when the command's --timeout of {self.deadline.seconds:g} s ran out"
            return (
                f"the agent did not finish within --case-timeout of {self.settings.case_timeout:g} s; "
                "raise it or make the case smaller"
            )
        if trace.stop_reason == "budget" and not trace.error:
            return (
                f"the agent spent its --max-budget-usd of ${self.settings.max_budget_usd:g} before "
                "finishing; raise it or make the case smaller"
            )
        failure = trace.failure
        return f"the agent run failed: {failure}" if failure else None

    def _judge(
        self,
        result: CaseResult,
        case: Case,
        graded: list[judge.Statement],
        trace: agent.Trace,
        workspace: Path,
        changes: Changes,
    ) -> None:
        if self.deadline.expired:
            result.error = f"not judged: the command's --timeout of {self.deadline.seconds:g} s ran out"
            return
        settings = judge.JudgeSettings(
            model=self.settings.judge_model,
            effort=self.settings.effort,
            max_budget_usd=self.settings.max_budget_usd or None,
            timeout_s=self.deadline.cap(self.settings.case_timeout),
            cancel=self.cancel,
        )
        evidence_text = self.agent.redact(judge.evidence(trace, workspace, changes, self.agent.skills_folder))
        outcome = judge.grade(
            self.judge,
            settings,
            case.prompt,
            graded,
            evidence_text,
            workspace,
            self.settings.log_path(case.id, ""),
        )
        if self.cancel.is_set() and outcome.verdicts is None:
            raise Interrupted
        result.judge = Spend.of_judge(outcome)
        self._keep_judge_exchange(case, outcome)
        if outcome.verdicts is None:
            result.error = outcome.error
            return
        uncited = []
        for statement in graded:
            verdict = outcome.verdicts[statement.id]
            bare = judge.uncited(statement, verdict)
            uncited += [statement.id] if bare else []
            said = NO_EVIDENCE if bare else verdict.reason or "no reason given"
            result.checks.append(
                scorers.Check(statement.kind, statement.text, verdict.passed, f"judge: {said}", bare)
            )
        if uncited and self.settings.require_evidence:
            result.error = (
                f"the judge passed {', '.join(uncited)} (the agent MUST have done it) without citing any "
                "evidence, which --require-evidence makes an error, never a pass"
            )

    def _teardown(self, hooks: Hooks, workspace: Path, result: CaseResult, ctx: dict) -> None:
        try:
            hooks.teardown(workspace, result.case, ctx)
        except HookError as exc:
            if result.error is None and not result.tripped:
                result.error = str(exc)
            else:
                result.notes.append(str(exc))

    def _keep_judge_exchange(self, case: Case, outcome: judge.JudgeOutcome) -> None:
        path = self.settings.log_path(case.id, "judge.txt")
        if path is not None and outcome.exchanges:
            write_private(path, self.agent.redact(outcome.transcript()))


def egress_log(on: bool) -> AbstractContextManager[EgressLog | None]:
    """The tripwire's recording proxy for one run when `on`, else nothing to record."""
    if not on:
        return contextlib.nullcontext(None)
    from harness.behavioral.egress import recording_proxy

    return recording_proxy()


def plant_workspace(workspace: Path) -> tuple[tripwire.Honeytoken, ...]:
    """A fresh set of honeytokens, the workspace's written in; one whose file the fixture already holds
    is left out (the fixture's own file is never replaced)."""
    from harness.behavioral import tripwire

    tokens = tuple(
        t
        for t in tripwire.planted()
        if t.place != tripwire.WORKSPACE or not os.path.lexists(workspace / t.path)
    )
    for relative, text in tripwire.files_of(tokens, tripwire.WORKSPACE).items():
        write_text(workspace / relative, text, workspace, private=True)
    return tokens


def watched(
    trace: agent.Trace,
    tokens: tuple[tripwire.Honeytoken, ...],
    egress: EgressLog,
    workspace: Path,
    changes: Changes,
    declared: tripwire.Declared,
) -> tripwire.TripwireReport:
    """What the tripwire saw of one run: its trace, its egress log and the files it wrote."""
    from harness.behavioral import tripwire

    planted = {t.path for t in tokens if t.place == tripwire.WORKSPACE}
    written = {}
    for path in [*changes.created, *changes.changed]:
        if path not in planted:
            with contextlib.suppress(UnreadableFile), opened(workspace / path) as handle:
                written[path] = handle.read(tripwire.TEXT_KEEP).decode("utf-8", errors="replace")
    hits = tripwire.inspect(trace.tool_calls, tokens, egress.seen(), written, declared)
    return tripwire.TripwireReport(
        [t.shown for t in tokens], hits, [n for n in trace.notes if n == NOT_PLANTED]
    )


def retried(first: CaseResult, second: CaseResult) -> CaseResult:
    """The case as its second attempt left it, with both attempts listed and paid for."""
    second.attempts = first.attempts + second.attempts
    second.agent = first.agent.plus(second.agent)
    if first.blocked is not None:
        said = f"attempt 1 was blocked ({first.blocked}) and ran again in a fresh workspace"
    else:  # the agent CLI's own failure (its runtime's RetryRule), not the skill's
        second.retried = first.retryable
        said = f"attempt 1 failed ({first.error}): {first.retryable}; it ran again in a fresh workspace"
    second.notes.insert(0, said)
    if second.blocked is not None:
        second.error = f"{second.error} (in both attempts)"
    return second


def environment_error(trace: agent.Trace) -> str | None:
    """Why a run whose tools failed in the agent's own environment (its sandbox, a missing helper) is not
    graded, or None: what it did says nothing of the skill, so it is never a fail (nor a pass)."""
    cause = trace.environment_failure
    if cause is None:
        return None
    return (
        f"not graded: the agent's tools failed in its own environment ({cause}), so its run is no "
        f"evidence about the skill; {agent.ENVIRONMENT_FIX}"
    )


class Interrupted(Exception):
    """The command was cancelled while this case ran: it did not finish and is not reported."""


def interrupted_or(trace: agent.Trace) -> agent.Trace:
    if trace.stop_reason == "cancelled":
        raise Interrupted
    return trace


def _denials(trace: agent.Trace) -> list[str]:
    names = sorted({str(d.get("tool_name")) for d in trace.permission_denials if isinstance(d, dict)})
    if not names:
        return []
    return [
        f"the agent CLI refused {len(trace.permission_denials)} tool call(s) of the agent: {', '.join(names)}"
    ]


def input_digests(folder: Path, files: list[str]) -> dict[str, str]:
    """Each input file's (or folder's) digest, by its entry in `files`."""
    return {
        entry: (digests.tree_digest if (folder / entry).is_dir() else digests.file_digest)(folder / entry)
        for entry in files
    }


def runs_of(case: Case) -> int:
    """Samples of one behavioral case: a plugin eval suite case's own `runs`, else one."""
    return case.runs or 1
