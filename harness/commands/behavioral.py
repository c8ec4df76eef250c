"""`skillscope behavioral`: run each case to completion with its skill installed, grade what the agent did."""

from __future__ import annotations

import argparse

from harness.behavioral import hooks as behavioral_hooks
from harness.behavioral.legs import BehavioralLegs
from harness.behavioral.runner import (
    BehavioralSettings,
    SkillUnderTest,
)
from harness.behavioral.selection import behavioral_cases, dataset_candidates
from harness.cancel import Cancellation, on_signals
from harness.checks.gate import require_well_formed
from harness.cli import flags
from harness.cli.flags import Limit
from harness.cli.options import BehavioralOptions, behavioral_options
from harness.cli.paid import paid_run
from harness.context import Context
from harness.deadline import Deadline
from harness.paid.loop import run_legs
from harness.paid.sandbox import unreadable
from harness.report import publish

HELP = "run each case that asserts something to completion in an agent and grade what it actually did"


class RoutingOnly(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        raise argparse.ArgumentError(
            self,
            "belongs to `skillscope routing`; behavioral installs one skill "
            "per case and runs it to completion, so drop this flag.",
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    flags.add_skills_dir(parser)
    flags.add_case_selection(parser)
    flags.add_agent(parser, choose=True, models=True)
    flags.add_judge(
        parser,
        agent="the agent CLI that runs the judge, read-only in the case's workspace",
        model="model of the judge of expected and unexpected behaviour",
    )
    flags.add_run_limits(
        parser,
        jobs=Limit(BehavioralSettings.jobs, "cases run at once, each in its own workspace"),
        case_timeout=Limit(
            BehavioralSettings.case_timeout,
            "limit for one case's agent run, and again for its judge, retry included",
        ),
        max_budget_usd=Limit(
            BehavioralSettings.max_budget_usd,
            "spend cap per case for the agent and the judge, where the CLI has one; 0: off",
        ),
    )
    flags.add_strict_isolation(parser)
    flags.add_require_evidence(parser)
    flags.add_tripwire(parser)
    flags.add_sandbox(parser, default=True, commands="all of them, to the case's end")
    flags.add_install(parser)
    flags.add_adoption(parser)
    flags.add_strict(parser)
    flags.add_paid_run(parser)
    flags.add_reports(parser)
    flags.add_timeout(parser, default=3600)
    for flag in flags.refused_by("behavioral"):  # routing's own knobs: accepted only to say where they belong
        parser.add_argument(flag, nargs="?", action=RoutingOnly, help=argparse.SUPPRESS)


def run(args: argparse.Namespace, ctx: Context) -> int:
    options = behavioral_options(args)  # every flag checked: a bad one is a usage error before any token
    # A cancelling signal stops new cases and kills running ones; the finished ones are reported.
    with on_signals(Cancellation()) as cancel:
        return behave(options, ctx, cancel)


def behave(options: BehavioralOptions, ctx: Context, cancel: Cancellation) -> int:
    deadline = Deadline(options.timeout)
    given = options.paid
    repo = options.sources.repo_in(ctx)
    skills_asked = list(options.skills)
    if options.scan:
        from harness.behavioral.scan import scan_candidates  # --scan's synthetic cases, only for it

        names, candidates, loaded = scan_candidates(repo, skills_asked)
    else:
        names, candidates, loaded = dataset_candidates(
            repo, skills_asked, list(options.only), options.paid.extended
        )
    used = list(dict.fromkeys(c.skill for c in candidates if c.skill))
    if used:
        adoption = options.sources.adoption(repo.root, ctx.cwd)
        require_well_formed(loaded.narrowed(used), ctx, "the skills this run grades", adoption)
    hooks = behavioral_hooks.read_all(used, repo.skill_dirs, repo, given.dry_run)
    cases = candidates if options.scan else behavioral_cases(candidates, hooks)
    if not cases:
        ctx.out(
            f"[behavioral] nothing to run: no selected `true` case of {', '.join(names)} carries "
            "expected_behavior, unexpected_behavior, logs_contain or files_exist, and no hooks check() "
            "applies; routing grades the others."
        )
        return 0
    skills = {}
    for name in dict.fromkeys(c.skill for c in cases):
        assert name is not None  # a behavioral case belongs to a skill (shared negatives route only)
        skills[name] = SkillUnderTest(name, repo.skill_dirs[name], hooks[name])
    paid = paid_run(given, ctx, repo, deadline, cancel, publish)
    settings = paid.agent_settings(
        BehavioralSettings,
        judge_model=options.judge_model or paid.settings.model,
        strict_isolation=options.strict_isolation,
        require_evidence=options.require_evidence,
        tripwire=options.tripwire or options.scan,
        scan=options.scan,
        sandbox=given.sandbox,
        unreadable=unreadable(repo, paid.settings.cache, paid.settings.logs),
        install=options.install,
    )
    # The agent on each model and the judge readied, then every case run on each model: one report (a
    # matrix for several models), or a dry run.
    return run_legs(paid, BehavioralLegs(paid, settings, options.judge_agent, skills, cases))
