"""The canary: one planted skill, run before a routing run's cases, proving an activation can be seen.

A new CLI version may change how an activation shows in its events; the harness would then read every
case as "no skill fired" and report a score of 0 %. So each agent first gets a skill no catalog has
(`NAME`), installed beside the room so the listing is the real one, and the one prompt only it matches.
If it does not activate, the agent's run is an error saying so and no case is graded; if its run
failed (a crash, an API error, a timeout), the run is an error of the canary, which says nothing
about activations either way.

Only an activation is stored in the result cache, keyed on the agent's version and model: a canary
that once failed runs again next time.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.model.dataset import Case
from harness.model.digests import digest_of
from harness.paid import cache
from harness.paid.controls import RunControls
from harness.paid.dryrun import Figures
from harness.routing.metrics import CaseOutcome, Gate
from harness.routing.runner import RoutingRun, RoutingSettings
from harness.routing.verdicts import CANARY_STOP, Sample

NAME = "skillscope-canary-wren"  # no real catalog's: a room holding it cannot have a canary
DESCRIPTION = (
    "Answers the skillscope canary check and nothing else. Use it whenever a prompt asks for the "
    "skillscope canary check."
)
BODY = "# skillscope canary\n\nReply with the single word `chirp`, then stop.\n"
PROMPT = f"Run the skillscope canary check: use the {NAME} skill and reply with the word it gives you."
CASE = Case(id=NAME, prompt=PROMPT, should_trigger=True, skill=NAME, source="(canary)")
# The canary is each agent's first run, so it also pays the CLI's cold start (Copilot unpacks itself on
# its first start): a short --case-timeout must not end it before it could decide.
TIMEOUT_FLOOR_S = 120.0

ACTIVATED, NOT_ACTIVATED, ERROR, SKIPPED, CACHED = "activated", "not-activated", "error", "skipped", "cached"
STATUSES = (ACTIVATED, NOT_ACTIVATED, ERROR, SKIPPED, CACHED)
FIX = "no case was graded"
FINISHED = "result"  # the stop reason of a run its model finished: the only one that can show blindness


def skill_md() -> str:
    return f"---\nname: {NAME}\ndescription: {DESCRIPTION}\n---\n\n{BODY}"


@dataclass(frozen=True)
class Verdict:
    """What the canary said of one agent: its status word, and for a run that cannot be graded, the
    sentence saying why."""

    status: str
    sentence: str | None = None  # set exactly when the run is an error (see `blocks`)
    sample: Sample | None = None  # the canary's run, or its replay; None when none finished
    cancelled: bool = False  # a signal stopped the run before the canary finished

    @property
    def blocks(self) -> bool:
        """No case may be graded: activations could not be seen, or the canary's run failed."""
        return self.status in (NOT_ACTIVATED, ERROR)

    def line(self, agent: str = "") -> str:
        """The canary in one line, for the text and markdown reports; `agent` names it in a matrix."""
        head = f"Canary ({agent})" if agent else "Canary"
        if self.sentence:
            return f"{head}: {self.status}: {self.sentence}."
        if self.status == SKIPPED:
            return (
                f"{head}: skipped (--no-canary): nothing checked that this agent's activations can be seen."
            )
        sample = self.sample
        replay = " (replayed from the result cache)" if self.status == CACHED else ""
        took = f" in {sample.elapsed_s:.1f} s" if sample and not sample.cached else ""
        return f"{head}: {self.status}{replay}: the planted skill {NAME} fired on its own prompt{took}."

    def to_json(self) -> dict:
        sample = self.sample
        return {
            "status": self.status,
            "skill": NAME,
            "prompt": PROMPT,
            "sentence": self.sentence,
            "line": self.line(),
            "observed": sample.observed if sample else None,
            "stop_reason": sample.stop_reason if sample else None,
            "elapsed_s": round(sample.elapsed_s, 3) if sample else None,
            "tokens": {"input": sample.input_tokens, "output": sample.output_tokens} if sample else None,
            "cost_usd": sample.cost_usd if sample else None,
            "cached_from": sample.cached_from.to_json() if sample and sample.cached_from else None,
        }


def skipped() -> Verdict:
    return Verdict(SKIPPED)


def key(runner: RoutingRun) -> str | None:
    """The canary's cache key: the agent (runtime, CLI version, isolation, what its environment
    chooses), the model and effort asked for, and the canary itself; None without a cache. The room is
    left out: the canary checks the agent and the model, not the catalog."""
    results = runner.results
    if results is None:
        return None
    settings = runner.settings
    return cache.key_of(
        "canary",
        {
            "agent": results.agent_part(runner.agent),
            "model": settings.model,
            "effort": settings.effort,
            "sandbox": settings.sandbox,
            "canary": digest_of({"skill": skill_md(), "prompt": PROMPT}),
        },
    )


def cached(runner: RoutingRun) -> Sample | None:
    """The activation the result cache holds for this agent and model, if any."""
    found = key(runner)
    replay = runner.results.get(found) if runner.results is not None and found else None
    return Sample.from_cache(replay) if replay is not None else None


def timeout_of(runner: RoutingRun) -> float:
    """The canary's own limit: the cases' --case-timeout, or the floor when that is shorter."""
    return max(runner.settings.case_timeout, TIMEOUT_FLOOR_S)


def check(runner: RoutingRun) -> Verdict:
    """Run the canary once on `runner`'s agent, through the same machinery as a case, the room beside
    it; or replay its cached activation. Never raises."""
    agent = runner.agent
    if NAME in runner.room:
        return Verdict(
            ERROR,
            f"the room holds a skill named {NAME}, the canary's own name, so the canary cannot be told "
            f"apart from it; rename that skill or pass --no-canary",
        )
    hit = cached(runner)
    if hit is not None:
        runner.budget.reuse(hit.cost_usd)
        return Verdict(CACHED, sample=hit)
    settings = dataclasses.replace(
        runner.settings, repeat=1, adaptive=False, jobs=1, case_timeout=timeout_of(runner)
    )
    try:
        with tempfile.TemporaryDirectory(prefix="skillscope-canary-") as folder:
            planted = Path(folder) / NAME
            planted.mkdir()
            (planted / "SKILL.md").write_text(skill_md(), encoding="utf-8")
            canary = RoutingRun(
                agent,
                {**runner.room, NAME: planted},
                settings,
                # Its spend counts toward --max-run-usd like any case's; check() caches its sample itself.
                RunControls(runner.deadline, runner.cancel, budget=runner.budget),
            )
            done = canary.run([CASE])
    except OSError as exc:
        return Verdict(
            ERROR,
            f"could not write the canary skill to a temporary folder ({exc.strerror or exc}), so no "
            f"activation was checked; {FIX}: free the temporary folder ($TMPDIR) or pass --no-canary",
        )
    runner.notes.extend(n for n in canary.notes if n not in runner.notes)
    sample = done[0].samples[0] if done else None
    verdict = verdict_of(sample, agent.runtime, agent.version, settings.model, limits_of(settings))
    found = key(runner)
    if verdict.status == ACTIVATED and sample is not None and runner.results is not None and found:
        runner.results.put(found, sample.cache_entry())
    return verdict


def limits_of(settings: RoutingSettings) -> Limits:
    """The per-run limits the canary ran under, for the sentence of a run one of them stopped."""
    return Limits(settings.max_budget_usd, settings.max_tool_calls, settings.max_inspection_calls)


@dataclass(frozen=True)
class Limits:
    """What can stop one agent run before it finishes: --max-budget-usd and the tool budgets."""

    max_budget_usd: float | None = None
    max_tool_calls: int | None = None
    max_inspection_calls: int | None = None

    def stopped(self, sample: Sample, where: str) -> str:
        """Why a run that finished no answer (stopped at a limit, not by its model) says nothing about
        activations, and the flag to raise."""
        spent = f", after spending ${sample.cost_usd:.4f}" if sample.cost_usd is not None else ""
        if sample.stop_reason == "budget":
            cap = f" of ${self.max_budget_usd:g}" if self.max_budget_usd is not None else ""
            return (
                f"the canary's run on {where} stopped at the per-run budget --max-budget-usd{cap}{spent} "
                f"before its model decided, which says nothing about activations; {FIX}: raise "
                "--max-budget-usd (0 turns it off)"
            )
        if sample.stop_reason == "tool_budget":
            return (
                f"the canary's run on {where} stopped at its tool budget (--max-tool-calls "
                f"{self.max_tool_calls}, --max-inspection-calls {self.max_inspection_calls}){spent} "
                f"before its model decided, which says nothing about activations; {FIX}: raise them"
            )
        return (
            f"the canary's run on {where} stopped ({sample.stop_reason or 'no reason given'}) before its "
            f"model finished{spent}, which says nothing about activations; {FIX}: find what stopped it"
        )


@dataclass(frozen=True)
class Checked:
    """The canary of one agent and model, for the commands that run it before cases of theirs (compare's
    routing mode, tune): where it ran and what it said."""

    agent: str
    version: str | None
    model: str | None
    verdict: Verdict

    def to_json(self) -> dict:
        where = {"agent": self.agent, "agent_version": self.version, "model": self.model}
        return {**where, **self.verdict.to_json(), "line": self.line()}

    def line(self) -> str:
        return self.verdict.line(f"{self.agent} on {self.model or 'its default model'}")


def check_each(runners: Sequence[RoutingRun]) -> list[Checked]:
    """The canary once for each agent and model among `runners` (the first runner of each pair lends it
    its room): a blocking one means none of their cases may be graded. Never raises."""
    return [
        Checked(
            runner.agent.runtime,
            runner.agent.version,
            runner.settings.model,
            check(runner) if runner.settings.canary else skipped(),
        )
        for runner in distinct(runners)
    ]


def distinct(runners: Sequence[RoutingRun]) -> list[RoutingRun]:
    """The first of `runners` for each agent and model: the canary checks those, not the room."""
    first: dict[tuple[str, str | None], RoutingRun] = {}
    for runner in runners:
        first.setdefault((runner.agent.runtime, runner.settings.model), runner)
    return list(first.values())


def blocking(checked: Sequence[Checked]) -> Verdict | None:
    """The first canary that keeps every case from being graded, or None."""
    return next((c.verdict for c in checked if c.verdict.blocks), None)


def verdict_of(
    sample: Sample | None,
    runtime: str,
    version: str | None,
    model: str | None,
    limits: Limits | None = None,
) -> Verdict:
    """The canary's verdict from its one sample (None: a signal stopped it first). Only a run its model
    finished (stop reason `result`) without activating the canary says activations cannot be seen: a run
    that failed, timed out or was stopped at a limit is an error of the canary naming its cause."""
    seen = model or (sample.model if sample else None)
    where = f"{runtime} {version or '(version unknown)'} with model {seen or '(the CLI default)'}"
    if sample is None:
        return Verdict(
            ERROR, f"the run was stopped before its canary finished on {where}; {FIX}", cancelled=True
        )
    if sample.observed == NAME and not sample.error:
        return Verdict(ACTIVATED, sample=sample)
    if sample.stop_reason == "timeout":
        why = (sample.error or "stopped: timeout").rstrip(".")
        return Verdict(
            ERROR,
            f"the canary timed out on {where} before any decision ({why}), which says "
            f"nothing about activations; {FIX}: raise --case-timeout (the canary gets at least "
            f"{TIMEOUT_FLOOR_S:g} s) or --timeout, or find what kept the agent from answering",
            sample,
        )
    if sample.error:
        return Verdict(
            ERROR,
            f"the canary's run failed on {where} ({sample.error.rstrip('.')}), so the harness cannot vouch "
            f"for this agent's activations; {FIX}: fix the cause and run again",
            sample,
        )
    if sample.stop_reason != FINISHED and not sample.observed:
        return Verdict(ERROR, (limits or Limits()).stopped(sample, where), sample)
    fired = f"{sample.observed} activated instead" if sample.observed else "no skill activated"
    return Verdict(
        NOT_ACTIVATED,
        f"the harness cannot see skill activations on {where}: the planted canary skill {NAME} did not "
        f"activate on the one prompt only it matches ({fired}); {FIX}: check that this CLI version still "
        "reports activations as skillscope reads them, or pass --no-canary to grade regardless",
        sample,
    )


def unrun(cases: list[Case], verdict: Verdict) -> list[CaseOutcome]:
    """The cases of an agent whose canary failed: each an error carrying the canary's sentence, never a
    miss; none when a signal stopped the run (the report then holds no case, as after any signal)."""
    if verdict.cancelled:
        return []
    seen = verdict.sample.model if verdict.sample else None
    error = f"not run, since this agent's canary failed: {verdict.sentence}"
    return [CaseOutcome(case, [Sample(error=error, stop_reason=CANARY_STOP, model=seen)]) for case in cases]


def gate(verdict: Verdict | None) -> Gate | None:
    """The gate of a run the canary blocked, or None: the cases decide."""
    if verdict is None or not verdict.blocks or verdict.sentence is None:
        return None
    return Gate(False, verdict.sentence)


def dry_run_line(runner: RoutingRun) -> tuple[str, Figures | None]:
    """A dry run's line on the canary, and its cached figures when the cache holds its activation."""
    if not runner.settings.canary:
        return "Canary: skipped (--no-canary).", None
    hit = cached(runner)
    state = "cached" if hit else "not cached"
    line = f"Canary: {NAME}, 1 sample before the cases, installed beside the room; {state}; {PROMPT}"
    return line, (Figures(hit.input_tokens, hit.output_tokens, hit.cost_usd) if hit else None)
