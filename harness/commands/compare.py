"""`skillscope compare`: two versions of a skill, or with and without it, graded on the same cases."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import options
from harness.compare import reports
from harness.compare.result import CompareMeta, CompareResult
from harness.context import Context
from harness.deadline import Deadline
from harness.envelope import RunMeta
from harness.errors import UsageError
from harness.options import ReportOptions
from harness.report import finish

HELP = "compare two versions of a skill (or with and without it) case by case: regressions, improvements"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--reports",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare two existing routing or behavioral JSON reports, offline (no agent, no tokens)",
    )
    parser.add_argument(
        "--allow-regressions",
        action="store_true",
        help="report regressions without failing (exit 0 unless nothing could be compared)",
    )
    options.add_reports(parser, junit=True)


def run(args: argparse.Namespace, ctx: Context) -> int:
    if not args.reports:
        raise UsageError("compare needs --reports OLD.json NEW.json.")
    return run_reports(args, ctx)


def run_reports(args: argparse.Namespace, ctx: Context) -> int:
    """The comparison of two reports already written: the candidate's cases decide what is compared."""
    deadline = Deadline(0)
    repo = options.resolve_repo(args, ctx)
    paths = [ctx.cwd / Path(name) for name in args.reports]
    old, new = (reports.load(path) for path in paths)
    cases = reports.compare(old, new, tuple(args.reports))
    gone = reports.dropped(old, new)
    notes = [f"{len(gone)} baseline case(s) not in the candidate report: {', '.join(gone)}"] if gone else []
    meta = CompareMeta(
        run=RunMeta.of("compare", repo, deadline),
        mode=new["command"],
        baseline=args.reports[0],
        candidate=args.reports[1],
        source="reports",
        repeat=max((len(c.candidate.runs) for c in cases), default=1),
        allow_regressions=args.allow_regressions,
        skills=sorted({c.skill for c in cases if c.skill}),
        notes=notes,
    )
    return conclude(CompareResult(meta=meta, cases=cases), ctx, args)


def conclude(result: CompareResult, ctx: Context, args: argparse.Namespace) -> int:
    code = finish(result, ctx, ReportOptions.from_args(args))
    if code:
        found = len(result.regressions)
        reason = (
            f"{found} regression(s); pass --allow-regressions to only report them"
            if found
            else "no case was graded on both sides, so nothing was compared"
        )
        ctx.err(f"[compare] failed: {reason}.")
    return code
