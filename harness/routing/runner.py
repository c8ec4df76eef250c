"""Running routing cases: the room installed side by side, one fresh workspace per sample."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from harness import agent
from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.model.dataset import Case
from harness.routing.metrics import CaseOutcome
from harness.routing.verdicts import Sample

# Without a decision these stops still mean "the agent chose no skill"; any other stop is an error.
GRADED_WITHOUT_ACTIVATION = ("result", "tool_budget", "budget")


@dataclass(frozen=True)
class RoutingSettings(agent.AgentSettings):
    jobs: int = 4
    max_budget_usd: float | None = 0.75
    max_tool_calls: int = 4
    max_inspection_calls: int = 8
    repeat: int = 1


def sample_from(trace: agent.Trace) -> Sample:
    """What one run says about routing: a decision, a graded "no skill", or an error."""
    init = trace.init
    sample = Sample(
        stop_reason=trace.stop_reason or "",
        elapsed_s=trace.elapsed_s,
        tool_calls=trace.budget_tool_calls,
        inspection_calls=trace.inspection_calls,
        input_tokens=trace.usage.input_tokens,
        output_tokens=trace.usage.output_tokens,
        cost_usd=trace.cost_usd,
        visible_skills=init.skills_without_builtins if init else [],
        model=init.model if init else None,
    )
    if trace.decision is not None:
        sample.observed = trace.decision.name
    elif trace.error or trace.stop_reason not in GRADED_WITHOUT_ACTIVATION:
        stopped = f"the run ended without a routing decision (stopped: {trace.stop_reason})"
        sample.error = trace.failure or stopped
    return sample


class RoutingRun:
    """Runs every sample of every case on a thread pool; reports each case as it completes."""

    def __init__(
        self,
        runner: agent.Agent,
        room: Mapping[str, Path],
        settings: RoutingSettings,
        deadline: Deadline,
        on_case_done: Callable[[CaseOutcome], None] = lambda outcome: None,
        cancel: Cancellation | None = None,
    ):
        self.agent = runner
        self.room, self.settings, self.deadline = room, settings, deadline
        self.on_case_done = on_case_done
        self.cancel = cancel or Cancellation()
        self.notes: list[str] = []  # options the CLI could not honour, once each
        self._lock = threading.Lock()

    def run(self, cases: list[Case]) -> list[CaseOutcome]:
        """Every case's outcome; once cancelled, only those of the cases whose every sample finished."""
        outcomes = [CaseOutcome(case) for case in cases]
        with ThreadPoolExecutor(max_workers=max(1, self.settings.jobs)) as pool:
            futures = {
                pool.submit(self.finished_sample, outcome, n): outcome
                for n in range(self.settings.repeat)
                for outcome in outcomes
            }
            for future in as_completed(futures):
                outcome, sample = futures[future], future.result()
                if sample is None:
                    continue
                outcome.samples.append(sample)
                if len(outcome.samples) == self.settings.repeat:
                    self.on_case_done(outcome)
        return [o for o in outcomes if len(o.samples) == self.settings.repeat]

    def finished_sample(self, outcome: CaseOutcome, index: int) -> Sample | None:
        """A sample, or None when the run was cancelled before it finished (never graded). Compare
        interleaves two runs' samples through it."""
        if self.cancel.is_set():
            return None
        sample = self.run_sample(outcome, index)
        return None if sample.stop_reason == "cancelled" else sample

    def run_sample(self, outcome: CaseOutcome, index: int) -> Sample:
        """Run sample `index` of one case; never raises."""
        # One broken case must not take the report of every other case with it.
        try:
            return self._run_one(outcome, index)
        except Exception as exc:  # noqa: BLE001 - recorded as this case's error, never graded
            return Sample(
                error=f"skillscope failed to run this case ({type(exc).__name__}: {exc})", stop_reason="error"
            )

    def _run_one(self, outcome: CaseOutcome, index: int) -> Sample:
        if self.deadline.expired:
            return Sample(
                error=f"not run: the command's --timeout of {self.deadline.seconds:g} s ran out",
                stop_reason="timeout",
            )
        timeout = self.deadline.cap(self.settings.case_timeout)
        try:
            with self.agent.workspace(self.room) as workspace:
                spec = agent.spec_for(
                    self.settings,
                    outcome.case.prompt,
                    workspace,
                    timeout_s=timeout,
                    keep_log=self._log_path(outcome.case, index),
                    cancel=self.cancel,
                    stop=agent.stop_at_decision(
                        self.settings.max_tool_calls, self.settings.max_inspection_calls
                    ),
                )
                trace = self.agent.run(spec)
            with self._lock:
                self.notes.extend(n for n in trace.notes if n not in self.notes)
        except agent.WorkspaceError as exc:
            return Sample(error=f"could not stage the workspace: {exc}", stop_reason="error")
        sample = sample_from(trace)
        if trace.stop_reason == "timeout" and timeout < self.settings.case_timeout:
            sample.error = f"stopped when the command's --timeout of {self.deadline.seconds:g} s ran out"
        return sample

    def _log_path(self, case: Case, index: int) -> Path | None:
        sample = f"-{index + 1}" if self.settings.repeat > 1 else ""
        return self.settings.log_path(case.id + sample, "jsonl")
