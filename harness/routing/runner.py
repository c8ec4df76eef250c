"""Running routing cases: the room installed side by side, one fresh workspace per sample.

A sample whose inputs are unchanged comes from the result cache; no sample starts once the run's
spend reaches --max-run-usd; with adaptive repeats a case is sampled until its verdict is settled.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from harness import agent
from harness.agent.workspace import ANSWER_KEY_DIR
from harness.cancel import Cancelled
from harness.model import digests
from harness.model.dataset import Case
from harness.paid import cache
from harness.paid.controls import RunControls
from harness.paid.spend import NOT_RUN
from harness.routing import limits
from harness.routing.metrics import CaseOutcome
from harness.routing.room import not_in_room
from harness.routing.verdicts import PASSING, Sample, decided

# Without a decision these stops still mean "the agent chose no skill"; any other stop is an error.
GRADED_WITHOUT_ACTIVATION = ("result", "tool_budget", "budget")


@dataclass(frozen=True)
class RoutingSettings(agent.AgentSettings):
    jobs: int = limits.JOBS
    max_budget_usd: float | None = limits.MAX_BUDGET_USD
    max_tool_calls: int = limits.MAX_TOOL_CALLS
    max_inspection_calls: int = limits.MAX_INSPECTION_CALLS
    repeat: int = 1  # samples per case; with `adaptive`, the most a case may take
    adaptive: bool = False  # stop sampling a case once its verdict is settled (--repeat auto)
    sandbox: bool = False  # inspection commands run in the CLI's own shell sandbox, where it has one
    unreadable: tuple[Path, ...] = ()  # with the sandbox: what the agent may not read (paid.sandbox)
    canary: bool = False  # plant the canary first (routing/canary.py): `routing` does, compare and tune not
    install: str = "copy"  # "plugin": the room installed through the host's plugin mechanism (--install)

    def cache_parts(self) -> dict:
        """The settings that can change what a sample observes."""
        return {
            "model": self.model,
            "effort": self.effort,
            "max_tool_calls": self.max_tool_calls,
            "max_inspection_calls": self.max_inspection_calls,
            "max_budget_usd": self.max_budget_usd or None,
            "sandbox": self.sandbox,
            # a plugin's skills are listed to the model under `<plugin>:<skill>`: another observation
            **({"install": self.install} if self.install != "copy" else {}),
            # the host's listing order follows the usage it is given
            **({"skill_usage": [list(entry) for entry in self.skill_usage]} if self.skill_usage else {}),
        }


def sample_from(trace: agent.Trace) -> Sample:
    """What one run says about routing: a decision, a graded "no skill", or an error."""
    init = trace.init
    sample = Sample(
        stop_reason=trace.stop_reason or "",
        elapsed_s=trace.elapsed_s,
        tool_calls=trace.budget_tool_calls,
        inspection_calls=trace.inspection_calls,
        turns=trace.turns,
        input_tokens=trace.usage.input_tokens,
        output_tokens=trace.usage.output_tokens,
        cost_usd=trace.cost_usd,
        visible_skills=init.skills_without_builtins if init else [],
        model=init.model if init else None,
    )
    sample.retried = trace.retried
    sample.sandbox = trace.sandbox_applied
    sample.sandbox_off = trace.sandbox_reason if trace.sandbox_applied is False else None
    if trace.decision is not None:
        # Asking for a skill's SKILL.md is the decision even when the agent's tools failed to read it.
        sample.observed, sample.read_failed = trace.decision.name, trace.decision.read_failed
    elif trace.environment_failure and not trace.error:
        sample.error = environment_error(trace.environment_failure)
    elif trace.error or trace.stop_reason not in GRADED_WITHOUT_ACTIVATION:
        stopped = f"the run ended without a routing decision (stopped: {trace.stop_reason})"
        sample.error = trace.failure or stopped
    return sample


def environment_error(cause: str) -> str:
    """The error of a run that decided nothing while the agent's own environment failed its tools:
    the skills are not to blame, so it is never a miss."""
    return (
        f"no routing decision could be seen: the agent's tools failed in its own environment ({cause}); "
        f"{agent.ENVIRONMENT_FIX}"
    )


class RoutingRun:
    """Runs every sample of every case on a thread pool; reports each case as it completes."""

    def __init__(
        self,
        runner: agent.Agent,
        room: Mapping[str, Path],
        settings: RoutingSettings,
        controls: RunControls,
        *,
        widen: Callable[[Sequence[str]], str] | None = None,
    ):
        """`widen`: the one flag that puts skills a case expects but the room lacks into it (see
        outsiders.fixer); without it, the advice is to add them to --routing-room."""
        self.agent = runner
        self.widen = widen
        self.room, self.settings = room, settings
        self.deadline, self.cancel = controls.deadline, controls.cancel
        self.results, self.budget = controls.results, controls.budget
        # Each case as it starts and finishes: a command showing progress sets them (PaidRun).
        self.on_case_start: Callable[[Case], None] = lambda case: None
        self.on_case_done: Callable[[CaseOutcome], None] = lambda outcome: None
        self.notes: list[str] = []  # options the CLI could not honour, once each
        self._lock = threading.Lock()
        self._key_parts = self.interruptible_key_parts() if self.results is not None else {}

    def interruptible_key_parts(self) -> dict:
        """key_parts, abandoned by a cancelling signal: a cancelled run starts no sample, so keys none."""
        try:
            with self.cancel.interruptible():
                return self.key_parts()
        except Cancelled:
            return {}

    def key_parts(self) -> dict:
        """What every sample of this run depends on besides its case: the agent, its isolation and the
        model and endpoint its environment chooses, every installed file of the room (without the
        answer keys) and the settings."""
        assert self.results is not None  # only a run that keeps a cache has keys
        return {
            "agent": self.results.agent_part(self.agent),
            "room": {name: digests.tree_digest(path, (ANSWER_KEY_DIR,)) for name, path in self.room.items()},
            **self.settings.cache_parts(),
        }

    def sample_key(self, case: Case, index: int) -> str:
        parts = {**self._key_parts, "prompt": case.prompt, "expect": case.expected_skill, "sample": index}
        return cache.key_of("routing", parts)

    def ungradable(self, case: Case) -> str:
        """Why `case` cannot be graded in this room, or "": the skill it expects to fire (its own, or the
        `owner` of a false case) is not installed, so the agent could never choose it."""
        expected = case.expected_skill
        if expected is None or expected in self.room:
            return ""
        return not_in_room([expected], self.widen, "graded (an agent cannot choose a skill it was not given)")

    def run(self, cases: list[Case]) -> list[CaseOutcome]:
        """Every case's outcome; once cancelled, only those of the cases whose every sample finished.
        A case the room cannot grade is never run: it is reported, ungraded, once the others are done."""
        outcomes = [CaseOutcome(case, ungradable=self.ungradable(case)) for case in cases]
        started = [0] * len(outcomes)
        with ThreadPoolExecutor(max_workers=max(1, self.settings.jobs)) as pool:
            running: dict[Future[Sample | None], int] = {}

            def start(i: int) -> None:
                running[pool.submit(self.finished_sample, outcomes[i], started[i])] = i
                started[i] += 1

            wanted = [
                0 if o.ungradable else 1 if self.settings.adaptive else self.samples_of(o.case)
                for o in outcomes
            ]
            for round_ in range(max(wanted, default=0)):  # every case's first sample, then the second...
                for i in range(len(outcomes)):
                    if round_ < wanted[i]:
                        start(i)
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    i, sample = running.pop(future), future.result()
                    if sample is None:
                        continue
                    outcomes[i].samples.append(sample)
                    if self._wants_another(outcomes[i], started[i]):
                        start(i)
                    elif len(outcomes[i].samples) == started[i]:
                        self.on_case_done(outcomes[i])
        for outcome in outcomes:
            if outcome.ungradable:
                self.on_case_done(outcome)
        return [
            o
            for o, n in zip(outcomes, started, strict=True)
            if o.ungradable or (o.samples and len(o.samples) == n)
        ]

    def samples_of(self, case: Case) -> int:
        """Samples of one case: --repeat, or a plugin eval suite case's own `runs` when --repeat is 1."""
        return case.runs if self.settings.repeat == 1 and case.runs else self.settings.repeat

    def finished_sample(self, outcome: CaseOutcome, index: int) -> Sample | None:
        """A sample, or None when the run was cancelled before it finished (never graded). Compare
        interleaves two runs' samples through it."""
        if self.cancel.is_set():
            return None
        sample = self.run_sample(outcome, index)
        return None if sample.stop_reason == "cancelled" else sample

    def _wants_another(self, outcome: CaseOutcome, started: int) -> bool:
        """Adaptive repeats: one more sample while the pass share's interval still straddles the
        decision threshold, up to the most allowed."""
        if not self.settings.adaptive or started >= self.settings.repeat or outcome.samples[-1].not_run:
            return False
        graded = [s for s in outcome.samples if not s.error]
        passes = sum(1 for s in graded if outcome.verdict_of(s) in PASSING)
        return not decided(passes, len(graded))

    def run_sample(self, outcome: CaseOutcome, index: int) -> Sample:
        """Run sample `index` of one case; never raises."""
        # One broken case must not take the report of every other case with it.
        if index == 0:
            self.on_case_start(outcome.case)
        try:
            return self._run_one(outcome, index)
        except Exception as exc:  # noqa: BLE001 - recorded as this case's error, never graded
            return Sample(
                error=f"skillscope failed to run this case ({type(exc).__name__}: {exc})", stop_reason="error"
            )

    def _run_one(self, outcome: CaseOutcome, index: int) -> Sample:
        hit = self.cached(outcome.case, index)
        if hit is not None:
            self.budget.reuse(hit.cost_usd)
            return hit
        if self.budget.reached:
            return Sample(error=self.budget.not_run_reason(), stop_reason=NOT_RUN, not_run=True)
        sample = self._run_agent(outcome, index)
        self.budget.charge(sample.cost_usd)
        if self.results is not None and sample.error is None:
            self.results.put(self.sample_key(outcome.case, index), sample.cache_entry())
        return sample

    def _run_agent(self, outcome: CaseOutcome, index: int) -> Sample:
        if self.deadline.expired:
            return Sample(
                error=f"not run: the command's --timeout of {self.deadline.seconds:g} s ran out",
                stop_reason="timeout",
            )
        timeout = self.deadline.cap(self.settings.case_timeout)
        try:
            trace = self._agent_run(outcome.case, index, timeout)
            first = trace
            if trace.retryable and not (self.deadline.expired or self.cancel.is_set()):
                # The runtime's own failure, not a decision: once more in a fresh workspace and session.
                timeout = self.deadline.cap(self.settings.case_timeout)
                trace = self._agent_run(outcome.case, index, timeout, retry=True)
                trace.retried = first.retryable
            with self._lock:
                self.notes.extend(n for n in trace.notes if n not in self.notes)
        except agent.WorkspaceError as exc:
            return Sample(error=f"could not stage the workspace: {exc}", stop_reason="error")
        sample = sample_from(trace)
        if first is not trace:  # the failed run was paid for too
            sample.input_tokens += first.usage.input_tokens
            sample.output_tokens += first.usage.output_tokens
            if first.cost_usd is not None:
                sample.cost_usd = (sample.cost_usd or 0.0) + first.cost_usd
        if trace.stop_reason == "timeout" and timeout < self.settings.case_timeout:
            sample.error = f"stopped when the command's --timeout of {self.deadline.seconds:g} s ran out"
        return sample

    def _agent_run(self, case: Case, index: int, timeout: float, retry: bool = False) -> agent.Trace:
        with self.agent.workspace(self.room) as workspace:
            return self.agent.run(self.spec(case, workspace, index, timeout, retry))

    def spec(
        self, case: Case, workspace: Path, index: int = 0, timeout: float | None = None, retry: bool = False
    ) -> agent.RunSpec:
        """The run of one sample: stopped at the decision, or when a tool budget is spent. A retry
        keeps its own log."""
        return agent.spec_for(
            self.settings,
            case.prompt,
            workspace,
            timeout_s=self.settings.case_timeout if timeout is None else timeout,
            keep_log=self._log_path(case, index, ".retry" if retry else ""),
            cancel=self.cancel,
            stop=agent.stop_at_decision(self.settings.max_tool_calls, self.settings.max_inspection_calls),
            stop_after_skill=True,
            sandbox=self.settings.sandbox,
            unreadable=self.settings.unreadable if self.settings.sandbox else (),
        )

    def cached(self, case: Case, index: int) -> Sample | None:
        """The sample the result cache holds for this case and index, if any."""
        replay = self.results.get(self.sample_key(case, index)) if self.results is not None else None
        return Sample.from_cache(replay) if replay is not None else None

    def _log_path(self, case: Case, index: int, kind: str = "") -> Path | None:
        sample = index + 1 if self.samples_of(case) > 1 else None
        return self.settings.log_path(case.id, kind.lstrip(".") + ".jsonl" if kind else "jsonl", sample)
