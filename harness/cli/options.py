"""Each command's flags read and checked once, at its edge, into a frozen options object.

A bad value is a usage error here, before any work or token; past its `run` a command sees these typed
values, never the parsed arguments, and no resolver is called again to fail early. Light on purpose: a
lexical run builds its options without importing the agent machinery.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from harness.cli import flags, resolve
from harness.cli.flags import parse_list
from harness.context import Context
from harness.errors import UsageError
from harness.model import baseline as baseline_mod
from harness.model.baseline import Adoption
from harness.model.catalog import Negatives
from harness.model.repo import Repo
from harness.paid.legs import Leg

if TYPE_CHECKING:
    from fractions import Fraction  # built by flags.min_accuracy, for routing's options only

    from harness.compare.plan import ModeFlags
    from harness.report import ReportOptions


@dataclass(frozen=True)
class Sources:
    """Where the skills are and what judges their structure: --repo, --skills-dir, the negatives and
    the adoption flags (--baseline, --warn, --error)."""

    repo: str | None
    skills_dir: str | list[str] | None
    negatives: Negatives
    baseline: str | None
    warn: tuple[str, ...]
    error: tuple[str, ...]

    def repo_in(self, ctx: Context) -> Repo:
        return resolve.repo_of(self.repo, self.skills_dir, ctx)

    def adoption(self, root: Path, cwd: Path) -> Adoption:
        """The baseline (--baseline, else the repo's own), the rules --warn demotes and --error raises."""
        return Adoption(baseline_mod.load(self.baseline, root, cwd), self.warn, self.error)


def sources_of(args: argparse.Namespace) -> Sources:
    given = vars(args)
    warn, error = parse_list("--warn", given.get("warn")), parse_list("--error", given.get("error"))
    baseline_mod.known_rules(warn)  # a misspelt rule is a usage error before any work
    baseline_mod.known_rules(error, "--error")
    return Sources(
        repo=given.get("repo"),
        skills_dir=given.get("skills_dir"),
        negatives=resolve.negatives_from(args),
        baseline=given.get("baseline"),
        warn=tuple(warn),
        error=tuple(error),
    )


@dataclass(frozen=True)
class PaidFlags:
    """The flags every paid command shares, checked; cli.paid turns them into the run's PaidSettings
    once the repo is known. A flag the command does not declare keeps its default."""

    command: str
    reports: ReportOptions
    agents: tuple[str, ...]
    legs: tuple[Leg, ...]
    executables: Mapping[str, str | None]
    pass_env: tuple[str, ...]
    effort: str | None
    jobs: int
    case_timeout: float | None
    max_budget_usd: float | None
    keep_logs: str | None
    skip_preflight: bool
    dry_run: bool
    cache: str | None  # --cache as given
    no_cache: bool | None  # None: the command keeps no result cache
    max_run_usd: float
    sandbox: bool
    extended: bool
    strict: bool
    yes: bool


def paid_flags(args: argparse.Namespace, reports: ReportOptions | None = None) -> PaidFlags:
    """The paid flags of `args`; `reports` when the command has read them already."""
    given = vars(args)
    agents = resolve.agents_of(args)
    return PaidFlags(
        command=args.command,
        reports=reports or flags.report_options(args),
        agents=tuple(agents),
        legs=tuple(resolve.legs_of(args, agents)),
        executables={name: given.get(name) for name in flags.AGENTS},
        pass_env=resolve.pass_env_of(args),
        effort=args.effort,
        jobs=args.jobs,
        case_timeout=args.case_timeout,
        max_budget_usd=args.max_budget_usd,
        keep_logs=given.get("keep_logs") or None,
        skip_preflight=args.skip_preflight,
        dry_run=given.get("dry_run", False),
        cache=given.get("cache"),
        no_cache=given.get("no_cache"),
        max_run_usd=given.get("max_run_usd", 0.0),
        sandbox=given.get("sandbox", False),
        extended=given.get("extended", True),
        strict=given.get("strict", False),
        yes=given.get("yes", False),
    )


@dataclass(frozen=True)
class RoutingStops:
    """How an agent routing run samples and stops a case (routing, tune)."""

    max_tool_calls: int
    max_inspection_calls: int
    repeat: int  # samples per case; adaptive: the most a case may take
    adaptive: bool
    canary: bool


def routing_stops(args: argparse.Namespace) -> RoutingStops:
    repeat, adaptive = args.repeat
    return RoutingStops(args.max_tool_calls, args.max_inspection_calls, repeat, adaptive, not args.no_canary)


@dataclass(frozen=True)
class RoutingOptions:
    """`skillscope routing`, both engines: `paid` and `stops` for the agent, `modelled_agent` and
    `min_rank1` for the lexical engine."""

    engine: str
    timeout: float
    reports: ReportOptions
    sources: Sources
    skills: tuple[str, ...]  # --skill
    only: tuple[str, ...]  # --only
    room: tuple[str, ...]  # --routing-room as given
    extended: bool
    min_accuracy: Fraction
    min_rank1: Fraction
    modelled_agent: str  # the agent whose listing the lexical engine models
    paid: PaidFlags | None  # None: the lexical engine, which spends nothing
    stops: RoutingStops
    sandbox: bool
    install: str


def routing_options(args: argparse.Namespace) -> RoutingOptions:
    reports = flags.report_options(args)  # a report flag that cannot work is a usage error before any token
    bar = flags.min_accuracy(args.min_accuracy)
    lexical = args.engine == flags.LEXICAL_ENGINE
    return RoutingOptions(
        engine=args.engine,
        timeout=args.timeout,
        reports=reports,
        # The agent engine's flags read the agent stack (--pass-env), which a lexical run never imports.
        paid=None if lexical else paid_flags(args, reports),
        sources=sources_of(args),
        skills=tuple(parse_list("--skill", args.skill)),
        only=tuple(parse_list("--only", args.only)),
        room=tuple(parse_list("--routing-room", args.routing_room)),
        extended=args.extended,
        min_accuracy=bar,
        min_rank1=flags.min_accuracy(args.min_rank1, "--min-rank1"),
        modelled_agent=modelled_agent(args) if lexical else "",
        stops=routing_stops(args),
        sandbox=args.sandbox,
        install=args.install,
    )


def modelled_agent(args: argparse.Namespace) -> str:
    """The agent whose listing a lexical run models: --agent's one agent (claude when not given)."""
    agents = resolve.agents_of(args)
    if len(agents) > 1:
        raise UsageError(
            f"--agent {','.join(agents)}: the lexical engine models one agent's listing; give one agent."
        )
    return agents[0]


def compare_modes(args: argparse.Namespace) -> ModeFlags:
    """A live compare's flags that choose the modes and set their runs (see compare.plan.chosen_modes)."""
    from harness.compare.plan import ModeFlags  # the agent machinery, which only a live compare loads

    return ModeFlags(
        mode=args.mode,
        only=parse_list("--only", args.only),
        extended=args.extended,
        dry_run=args.dry_run,
        repeat=args.repeat,
        baseline_model=args.baseline_model,
        max_tool_calls=args.max_tool_calls,
        max_inspection_calls=args.max_inspection_calls,
        canary=not args.no_canary,
        strict_isolation=args.strict_isolation,
    )


@dataclass(frozen=True)
class BehavioralOptions:
    timeout: float
    paid: PaidFlags
    sources: Sources
    skills: tuple[str, ...]  # --skill
    only: tuple[str, ...]  # --only
    judge_agent: str
    judge_model: str | None
    strict_isolation: bool
    require_evidence: bool
    install: str
    tripwire: bool  # --tripwire: honeytokens planted and egress logged per case
    scan: bool  # --scan: one synthetic case per skill, graded by the tripwire


def behavioral_options(args: argparse.Namespace) -> BehavioralOptions:
    reports = flags.report_options(args)  # a report flag that cannot work is a usage error before any token
    paid = paid_flags(args, reports)
    if len(paid.agents) > 1:
        raise UsageError("--agent: behavioral runs one agent at a time; name one (routing takes a list).")
    if args.scan and args.only:
        raise UsageError("--only: --scan runs one synthetic case per skill; choose skills with --skill.")
    return BehavioralOptions(
        timeout=args.timeout,
        paid=paid,
        sources=sources_of(args),
        skills=tuple(parse_list("--skill", args.skill)),
        only=tuple(parse_list("--only", args.only)),
        judge_agent=args.judge_agent,
        judge_model=args.judge_model,
        strict_isolation=args.strict_isolation,
        require_evidence=args.require_evidence,
        install=args.install,
        tripwire=args.tripwire,
        scan=args.scan,
    )


@dataclass(frozen=True)
class TuneOptions:
    """`skillscope tune`, both engines: `paid` and `stops` for the agent."""

    engine: str
    timeout: float
    reports: ReportOptions
    sources: Sources
    skill: str
    room: tuple[str, ...]  # --routing-room as given
    candidates: str | None  # the file of candidate descriptions
    propose: int
    rounds: int
    seed: int
    confidence: float
    max_run_usd: float
    dry_run: bool
    apply: bool
    paid: PaidFlags | None  # None: the lexical engine, which spends nothing
    stops: RoutingStops


def tune_options(args: argparse.Namespace) -> TuneOptions:
    reports = flags.report_options(args)  # a report flag that cannot work is a usage error before any token
    lexical = args.engine == flags.LEXICAL_ENGINE
    if lexical and args.propose:
        raise UsageError(
            "--propose asks the agent for descriptions; with --engine lexical give --candidates."
        )
    if not args.propose and not args.candidates:
        raise UsageError(
            "tune needs candidates: give --candidates FILE (a JSON list of descriptions) or --propose N."
        )
    paid = None if lexical else paid_flags(args, reports)
    if paid is not None and len({leg.model for leg in paid.legs}) > 1:
        raise UsageError(
            "--model: tune scores its candidates on one model (routing takes a list); name one model."
        )
    stops = routing_stops(args)
    return TuneOptions(
        engine=args.engine,
        timeout=args.timeout,
        reports=reports,
        sources=sources_of(args),
        skill=args.skill,
        room=tuple(parse_list("--routing-room", args.routing_room)),
        candidates=args.candidates,
        propose=args.propose,
        rounds=args.rounds,
        seed=args.seed,
        confidence=args.confidence,
        max_run_usd=args.max_run_usd,
        dry_run=args.dry_run,
        apply=args.apply,
        paid=paid,
        stops=stops,
    )
