"""One paid run of a command: what routing, behavioral, compare and cost each do around their own work.

The command reads its flags once, at its edge, into the PaidSettings of a PaidRun; past that point the
run sees typed settings, never the parsed arguments. The PaidRun readies the agents (and, when one
cannot start, still publishes a report saying so), holds the result cache and the run's spend cap,
probes the shell sandbox, shows progress, builds the meta every agent report shares, and publishes the
result with the exit code the run earned.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any, Protocol, TypeVar, overload

from harness import agent
from harness.cancel import Cancellation, Cancelled
from harness.context import Context, in_ci
from harness.deadline import Deadline
from harness.model import quarantine
from harness.model.dataset import Case
from harness.model.envelope import Halt, RunMeta
from harness.model.provenance import Provenance
from harness.model.repo import Repo
from harness.paid import AgentNotReady, exit_code, halt_of, progress
from harness.paid.cache import Origin, ResultCache, agent_identity, chosen_by_environment
from harness.paid.controls import RunControls
from harness.paid.kept_logs import KeptFolder, WithKeptLogs
from harness.paid.legs import Leg
from harness.paid.meta import AgentRunMeta
from harness.paid.result import Publish, Result
from harness.paid.sandbox import SandboxUse, probe
from harness.paid.spend import RunBudget

# What `probe_sandbox` answers when --sandbox was not given: nothing was asked of the CLI.
NOT_PROBED: tuple[bool | None, str | None] = (None, None)
MetaKind = TypeVar("MetaKind", bound=AgentRunMeta)
SettingsKind = TypeVar("SettingsKind", bound=agent.AgentSettings)


@dataclass(frozen=True)
class PaidSettings:
    """The flags every paid command shares, as its edge read them; a command without one of them (cost
    has no cache, no dry run) keeps its default here."""

    command: str  # names the report, and prefixes the lines the run prints
    agents: tuple[str, ...] = ("claude",)  # --agent: known names, each once
    executables: Mapping[str, str | None] = field(default_factory=dict)  # --claude PATH and the like
    pass_env: tuple[str, ...] = ()  # --pass-env: variables the agents get besides their allowlists
    model: str | None = None  # the model of the leg this run is on (see PaidRun.on_model)
    # --agent x --model: every (agent, model) pair the run covers; empty: each agent on `model`.
    legs: tuple[Leg, ...] = ()
    effort: str | None = None
    jobs: int = 1
    case_timeout: float | None = None  # None: compare gives each mode its own
    max_budget_usd: float | None = None
    keep_logs: str | None = None  # --keep-logs as given, which the report repeats
    logs: Path | None = None  # the same folder, resolved from where the command ran
    skip_preflight: bool = False
    dry_run: bool = False
    cache: Path | None = None  # the result cache's folder; None: --no-cache
    max_run_usd: float = 0.0
    sandbox: bool = False
    extended: bool = True
    strict: bool = False
    yes: bool = False  # --yes: never ask before the first paid request


class WithHalt(Protocol):
    """A result's meta that records how its run was halted."""

    @property
    def halt(self) -> Halt: ...


class HaltedResult(Result, Protocol):
    """A result whose meta says how its run was halted, if it was (compare, cost)."""

    @property
    def meta(self) -> WithHalt: ...


class ShownRun(Protocol):
    """A runner whose cases can be shown as they start and finish (RoutingRun, BehavioralRun)."""

    on_case_start: Callable[[Case], None]
    on_case_done: Callable

    def run(self, cases: list[Case]) -> list: ...


class PaidRun:
    """One command's paid run over `repo`, bounded by `deadline` and stopped by `cancel`; `publish`
    writes a result's reports (the edge hands it in, so nothing here knows a renderer)."""

    def __init__(
        self,
        settings: PaidSettings,
        ctx: Context,
        repo: Repo,
        deadline: Deadline,
        cancel: Cancellation,
        *,
        publish: Publish,
    ):
        self.settings, self.ctx, self.repo = settings, ctx, repo
        self._publish = publish  # the command's reports of a result, written where its flags say
        # What the logs folder holds before any case runs: the report records only what this run writes.
        self._kept = KeptFolder.before_run(settings.logs) if settings.logs and not settings.dry_run else None
        self.deadline, self.cancel = deadline, cancel
        self.readied: dict[str, agent.Agent] = {}  # runtime -> its agent, once ready
        self.preflown: set[tuple[str, str | None]] = set()  # (runtime, model) pairs proven reachable
        self.looked_up: dict[str, agent.CliLookup] = {}  # a dry run's runtimes -> where their CLI is
        made_by = Origin(deadline.started_at)
        self._results = ResultCache(settings.cache, made_by, ctx.environ) if settings.cache else None
        self._budget = RunBudget(settings.max_run_usd)  # the whole command's cap, every agent together
        # Read before any token is spent: a quarantine file that is not one stops the run here.
        self._quarantine = quarantine.load(repo.root)

    def publish(self, result: Result) -> None:
        """Write `result`'s reports; with --keep-logs, its JSON records each log this run kept."""
        if self._kept is None:
            self._publish(result)
            return
        written = self._kept.written()
        self._publish(WithKeptLogs(result, written))
        lost = self._kept.overwritten(written)
        if lost:  # said, not prevented: the folder is the user's, and a rerun into it may be meant
            self.say(
                f"--keep-logs {self.settings.keep_logs}: this run wrote over {lost} log(s) an earlier run "
                "kept there, which that run's report now refuses to show; give each run a folder of its "
                "own to keep both."
            )

    def say(self, line: str) -> None:
        """A line on stderr under the command's name."""
        self.ctx.err(f"[{self.settings.command}] {line}")

    def ready(self, runtime: str | None = None) -> agent.Agent:
        """The agent located, isolated and (unless --skip-preflight) proven able to reach its API, its
        probes bounded by the --timeout and ended by a cancelling signal; on a dry run, a stand-in
        whose CLI is only looked for (see `cli_lines`). `runtime` defaults to the first --agent
        names; each is readied once, whatever roles it plays. AgentNotReady when it cannot run."""
        name = runtime or self.settings.agents[0]
        settings, deadline, cancel = self.settings, self.deadline, self.cancel
        if name in self.readied:
            known = self.readied[name]
            if settings.dry_run or settings.skip_preflight or (name, settings.model) in self.preflown:
                return known
            try:  # the same CLI on another model: that model must answer too
                known.preflight(settings.model, deadline=deadline, cancel=cancel)
            except agent.AgentUnavailable as exc:
                raise AgentNotReady(str(exc)) from None
            self.preflown.add((name, settings.model))
            return known
        if settings.dry_run:  # sends nothing and starts nothing: the CLI need not even be installed
            stand_in, found = agent.stand_in_runtime(
                name, settings.executables.get(name), self.ctx.environ, pass_env=settings.pass_env
            )
            self.readied[name], self.looked_up[name] = stand_in, found
            return stand_in
        try:
            ready = agent.connect_runtime(
                name,
                settings.executables.get(name),
                self.ctx.environ,
                deadline=deadline,
                cancel=cancel,
                pass_env=settings.pass_env,
            )
            if not (settings.dry_run or settings.skip_preflight):
                ready.preflight(settings.model, deadline=deadline, cancel=cancel)
                self.preflown.add((name, settings.model))
        except agent.AgentUnavailable as exc:
            raise AgentNotReady(str(exc)) from None
        exposure = ready.key_exposure()
        if exposure:  # before any case, and the report's meta.isolation says the same
            self.say(f"the model key is not out of the agent's reach: {exposure}.")
        self.readied[name] = ready
        return ready

    def legs(self) -> list[Leg]:
        """Every (agent, model) pair this run covers, agent-major."""
        s = self.settings
        return list(s.legs) or [Leg(name, s.model) for name in s.agents]

    def on_model(self, model: str | None) -> PaidRun:
        """This run on `model`: the same agents, cache, spend cap and quarantine (shared, not copied),
        its settings, meta and provenance naming `model`."""
        view = copy.copy(self)
        view.settings = replace(self.settings, model=model)
        return view

    def cli_lines(self, *runtimes: str) -> list[str]:
        """A dry run's sentence on each CLI it would use (default: every runtime readied); before a real
        run's question, the CLI it started."""
        return [line for name in runtimes or self.readied for line in self.cli_said(name)]

    def cli_said(self, name: str) -> tuple[str, str]:
        ready = self.readied[name]
        found = self.looked_up.get(name)
        said = found.sentence() if found else f"Agent CLI: {name} {ready.version} at {ready.path}."
        return said, ready.endpoint_line()

    def not_ready(self, error: AgentNotReady, selected: int, result: Callable[[Halt], Result]) -> int:
        """The end of a run whose agent could not start: still a report (`result` of the halt), for a CI
        step that uploads reports whatever happened; the error on stderr; exit 1, or 130/143."""
        self.publish(result(self.halt(selected, 0, str(error))))
        self.ctx.err(f"error: {error}")
        return exit_code(False, self.cancel)

    def cache(self) -> ResultCache | None:
        """The result cache every runner of this run shares; None with --no-cache."""
        return self._results

    def controls(self) -> RunControls:
        """What every runner of this run shares: its clock, its cancelling signal, its cache and its spend."""
        return RunControls(self.deadline, self.cancel, self._results, self._budget)

    def cache_notes(self) -> list[str]:
        """The report's notes of the cache: entries that failed verification, a folder not written."""
        return self._results.notes() if self._results else []

    def budget(self) -> RunBudget:
        """The --max-run-usd spend of this run, shared by every runner."""
        return self._budget

    @overload
    def agent_settings(self, **own: Any) -> agent.AgentSettings: ...
    @overload
    def agent_settings(self, kind: type[SettingsKind], **own: Any) -> SettingsKind: ...
    def agent_settings(
        self, kind: type[agent.AgentSettings] = agent.AgentSettings, **own: Any
    ) -> agent.AgentSettings:
        """`kind` of settings holding the shared flags (model, effort, limits, log folder) and `own`,
        which win over them."""
        s = self.settings
        shared = {
            "model": s.model,
            "effort": s.effort,
            "jobs": s.jobs,
            "case_timeout": s.case_timeout,
            "max_budget_usd": s.max_budget_usd,
            "keep_logs": s.logs,
        }
        return kind(**{**shared, **own})

    def probe_sandbox(self, ready: agent.Agent) -> tuple[bool | None, str | None]:
        """With --sandbox: whether `ready` offers its shell sandbox here, and why not, said on stderr
        before any case runs; NOT_PROBED without it."""
        if not self.settings.sandbox:
            return NOT_PROBED
        available, reason, kept = probe(ready, self.deadline, self.cancel)
        # Offered is not yet applied: the report says so only once each run's CLI has said it.
        offered = "--sandbox: the CLI's shell sandbox starts here"
        offered += " (as an earlier run's probe found)" if kept else ""
        self.say(offered if available is True else str(SandboxUse.of(True, available, reason).sentence()))
        return available, reason

    def sandbox_use(
        self,
        probed: tuple[bool | None, str | None],
        observed: Iterable[bool | None] = (),
        refused: str | None = None,
    ) -> SandboxUse:
        """What the report says of --sandbox, from the probe and what each run's CLI reported."""
        return SandboxUse.of(self.settings.sandbox, *probed, observed, refused)

    def run_with_progress(self, runner: ShownRun, cases: list[Case], line: Callable) -> list:
        """`runner`'s results for `cases`, each case shown on stderr as it starts, and as `line` of its
        result when it finishes."""
        with progress.on_stderr(self.ctx, len(cases)) as shown:
            runner.on_case_start = lambda case: shown.started(case.id)
            runner.on_case_done = lambda done: shown.finished(done.case.id, line(done))
            return runner.run(cases)

    def halt(self, selected: int, reported: int, agent_error: str | None = None) -> Halt:
        """How the run ended early, if it did (see halt_of)."""
        return halt_of(self.cancel, selected, reported, agent_error)

    def meta(
        self,
        kind: type[MetaKind],
        *,
        runtime: str | None = None,
        halt: Halt,
        notes: list[str],
        sandbox: SandboxUse,
        seen_model: str | None,
        **own,
    ) -> MetaKind:
        """`kind` of meta for the run on `runtime` (default: the first agent), as of now: the shared
        fields from the flags and the agent (absent when it never started), and `own`. `seen_model`:
        the model the CLI reported, recorded when none was asked for."""
        s = self.settings
        name = runtime or s.agents[0]
        ready = self.readied.get(name)
        return kind(
            run=self.run_meta(),
            agent=name,
            agent_version=ready.version if ready else None,
            model=s.model or seen_model,
            effort=s.effort,
            extended=s.extended,
            jobs=s.jobs,
            case_timeout=s.case_timeout,
            max_budget_usd=s.max_budget_usd,
            isolation=ready.describe() if ready else {},
            timed_out=self.deadline.expired,
            strict=s.strict,
            halt=halt,
            notes=notes,
            max_run_usd=s.max_run_usd,
            cache=str(s.cache) if s.cache else None,
            sandbox=sandbox,
            keep_logs=s.keep_logs,
            **own,
        )

    def provenance(
        self,
        folders: Mapping[str, Path],
        cases: Sequence[Case],
        settings: Mapping[str, Any],
        *,
        model: str | None,
        runtime: str | None = None,
        judge: str | None = None,
        skip_top: Sequence[str] = (),
        shared_room: bool = True,
    ) -> Provenance | None:
        """What produced the verdicts of the run on `runtime` (default: the first agent) over the skill
        `folders` and `cases`, for the report's ledger; None when its agent never started. `judge`: the
        runtime that judged, when it is part of the verdicts. The model is left out of `settings`: it is
        an input of its own."""
        identities = {}
        for role, name in (("agent", runtime or self.settings.agents[0]), ("judge", judge)):
            ready = self.readied.get(name) if name else None
            if ready is not None:
                identities[role] = agent_identity(
                    ready, chosen_by_environment(ready.runtime, self.ctx.environ)
                )
        if "agent" not in identities:
            return None
        try:  # digesting every file of the skills: a cancelling signal ends it, and the run has none
            with self.cancel.interruptible():
                return Provenance.of(
                    self.repo.root,
                    folders,
                    cases,
                    skip_top=skip_top,
                    agent=identities,
                    model=model,
                    settings={k: v for k, v in settings.items() if k != "model"},
                    shared_room=shared_room,
                )
        except Cancelled:
            return None

    def quarantined(self, case_ids: Iterable[str]) -> list[dict]:
        """The quarantine's entries for `case_ids` in force on the day this run started (UTC)."""
        held = self._quarantine.in_force(date.fromisoformat(self.deadline.started_at[:10]))
        return [held[i].to_json() for i in dict.fromkeys(case_ids) if i in held]

    def run_meta(self) -> RunMeta:
        """The report's head: this command over the repo, from when the deadline started until now."""
        return RunMeta.of(self.settings.command, self.repo, self.deadline)

    def asks(self) -> bool:
        """Whether the run asks before its first paid request: a person at a terminal (stdin and stderr
        both terminals, never in CI) who did not pass --yes, and not a dry run, which sends nothing."""
        if self.settings.yes or self.settings.dry_run or in_ci(self.ctx.environ):
            return False
        return all(stream.isatty() for stream in (self.ctx.stdin, self.ctx.stderr))

    def confirmed(self, show: Callable[[Context], object]) -> bool:
        """True unless the run `asks()` and its person does not answer yes. Before the question, `show`
        prints the plan with the context it is given, whose stdout is stderr, then the spend cap."""
        if not self.asks():
            return True
        ctx = self.ctx
        show(replace(ctx, stdout=ctx.stderr))
        cap = self.settings.max_run_usd
        ctx.err(f"Spend cap: {f'${cap:g} (--max-run-usd)' if cap else 'none (set --max-run-usd)'}.")
        ctx.stderr.write("Start the paid run? [y/N] ")
        ctx.stderr.flush()
        if ctx.stdin.readline().strip().lower() in ("y", "yes"):
            return True
        self.say("nothing was sent: the plan was not confirmed.")
        return False

    def finish(self, result: Result) -> int:
        """Publish `result`'s reports; 130 or 143 after a cancelling signal, else 0 when it passed, 1 if
        not."""
        self.publish(result)
        return exit_code(result.passed, self.cancel)

    def finish_saying_why(self, result: HaltedResult, failure: Callable[[], str]) -> int:
        """`finish`, and a run that did not pass says why on stderr: how it was halted, or else
        `failure()`."""
        code = self.finish(result)
        halted = result.meta.halt.sentence()
        if halted:
            self.say(halted)
        elif code:
            self.say(f"failed: {failure()}.")
        return code
