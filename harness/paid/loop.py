"""The one leg loop of every paid command: each leg (an agent on a model) readied before any case spends a
token, a runner per leg, the dry run or the person's yes, each leg run in turn, one report (a matrix for
several legs) and a line on stderr for each leg that did not pass.

A command supplies the steps that are its own as a LegHooks object; the order is kept here, so a new
dimension of the legs, or a new step every paid command takes, is written once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from harness.agent import AgentUnavailable
from harness.context import Context
from harness.model.envelope import Halt
from harness.paid import AgentNotReady
from harness.paid.command import PaidRun
from harness.paid.legs import Leg, labels
from harness.paid.result import Result

RunnerT = TypeVar("RunnerT")
ResultT = TypeVar("ResultT", bound=Result)


@dataclass(frozen=True)
class LegRun(Generic[RunnerT]):
    """One leg of the run: the paid run on its model, its runner, and its name in a matrix."""

    leg: Leg
    name: str
    run: PaidRun
    runner: RunnerT
    several: bool  # one leg of several: its name heads its dry run, labels its lines, files its logs

    @property
    def label(self) -> str | None:
        """The leg's name where it is one of several, else None (a run of one leg names none)."""
        return self.name if self.several else None


class NotReady(AgentNotReady):
    """A leg's agent could not start: the error, and the leg's run and leg its report is made of."""

    def __init__(self, error: AgentNotReady, run: PaidRun, leg: Leg):
        super().__init__(str(error))
        self.run, self.leg = run, leg


class Readying(Protocol):
    """What opening the legs takes from a command: readying each leg, and its runner. tune takes only this
    part of the loop: its legs are graded together, by one tuner, into one report."""

    def ready(self, run: PaidRun, leg: Leg) -> None:
        """Ready what the leg runs on (AgentNotReady when it cannot start)."""

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> object:
        """The leg's runner; `label`: its name when it is one of several."""


class LegHooks(Readying, Protocol[RunnerT, ResultT]):
    """What a paid command supplies to the loop; a command's hooks class derives from it for the defaults
    of `ready` (each leg's agent on its model) and `shared` (none)."""

    @property
    def selected(self) -> int:
        """The cases the run selected: what the report of a run that never started left unfinished."""

    def ready(self, run: PaidRun, leg: Leg) -> None:
        run.ready(leg.agent)

    def shared(self) -> Sequence[str]:
        """Runtimes every leg shares (a judge), readied once after every leg's own."""
        return ()

    def plugin_room(self) -> Mapping[str, Path] | None:
        """The skills each leg's agent installs through its own plugin mechanism before any case, as
        users install them (--install plugin); None: each case's workspace gets a copy (the default)."""
        return None

    def runner(self, run: PaidRun, leg: Leg, label: str | None) -> RunnerT: ...

    def halted(self, run: PaidRun, leg: Leg, halt: Halt) -> Result:
        """The report of a run whose agent could not start, made on the leg that could not (or the last)."""

    def dry_run(self, ctx: Context, legs: Sequence[LegRun[RunnerT]]) -> int:
        """Print what the run would do and cost on `ctx` (stderr, when the plan comes before a question)."""

    def run(self, leg: LegRun[RunnerT]) -> ResultT:
        """Run the leg's cases: its result."""

    def matrix(self, results: list[ResultT], names: list[str]) -> Result:
        """The one report of several legs' results."""

    def failure(self, result: ResultT, label: str | None) -> str | None:
        """The line on stderr of a leg's result that did not pass (None: nothing to say)."""


def open_legs(paid: PaidRun, hooks: Readying, shared: Sequence[str] = ()) -> list[LegRun]:
    """Every leg readied before any case spends a token (then the `shared` runtimes), each with its runner;
    NotReady, naming the leg, when one cannot start."""
    legs = paid.legs()
    names = labels(legs)
    several = len(legs) > 1
    runs = [paid.on_model(leg.model) for leg in legs]  # each leg's run: its model in settings and meta
    run, leg = paid, legs[0]
    try:
        for run, leg in zip(runs, legs, strict=True):
            hooks.ready(run, leg)
        for runtime in shared:  # after every leg's own, so a failure is reported on the last leg
            paid.ready(runtime)
    except AgentNotReady as exc:
        raise NotReady(exc, run, leg) from None
    return [
        LegRun(leg, name, run, hooks.runner(run, leg, name if several else None), several)
        for leg, name, run in zip(legs, names, runs, strict=True)
    ]


def run_legs(paid: PaidRun, hooks: LegHooks[RunnerT, ResultT]) -> int:
    """The paid command's whole run over its legs, and its exit code: a report saying so when an agent
    cannot start; the dry run; nothing sent without a yes from a person at a terminal; else every leg in
    turn, one report of them all, and a line on stderr for each leg that did not pass."""
    try:
        legs = open_legs(paid, hooks, hooks.shared())
    except NotReady as exc:
        return paid.not_ready(exc, hooks.selected, partial(hooks.halted, exc.run, exc.leg))
    if paid.settings.dry_run:
        return hooks.dry_run(paid.ctx, legs)
    with contextlib.ExitStack() as installed:
        try:
            install_plugins(installed, paid, legs, hooks.plugin_room())
        except NotReady as exc:
            return paid.not_ready(exc, hooks.selected, partial(hooks.halted, exc.run, exc.leg))
        if not paid.confirmed(lambda ctx: hooks.dry_run(ctx, legs)):
            return 1
        results = [hooks.run(leg) for leg in legs]
    several = len(legs) > 1
    code = paid.finish(hooks.matrix(results, [leg.name for leg in legs]) if several else results[0])
    for leg, result in zip(legs, results, strict=True):
        if (line := hooks.failure(result, leg.label)) is not None:
            paid.say(line)
    return code


def install_plugins(
    stack: contextlib.ExitStack, paid: PaidRun, legs: Sequence[LegRun], room: Mapping[str, Path] | None
) -> None:
    """`room` installed through each leg's agent's plugin mechanism (each skill checked listed) for as
    long as `stack` is open, before any case runs; NotReady, naming the leg, when it cannot be."""
    if room is None:
        return
    done: set[str] = set()
    for leg in legs:
        runtime = leg.leg.agent
        if runtime in done:  # one agent on several models: its one install serves every leg
            continue
        done.add(runtime)
        ready = paid.readied[runtime]
        installing = ready.installed_as_plugins(
            paid.repo.root, room, deadline=paid.deadline, cancel=paid.cancel
        )
        try:
            stack.enter_context(installing)
        except AgentUnavailable as exc:
            raise NotReady(AgentNotReady(str(exc)), leg.run, leg.leg) from None
