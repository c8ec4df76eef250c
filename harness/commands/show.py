"""`skillscope show`: the agent logs a run kept (`--keep-logs`), read as transcripts."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from harness.agent import RUNTIMES, log_path
from harness.agent.logs import LogFile, UnreadableLog, kept_files, log_file, read_log
from harness.context import Context
from harness.errors import UsageError
from harness.files import UnreadableFile, read_text
from harness.report import transcript

HELP = "read the agent logs a run kept with --keep-logs: a table of them, or one case's transcript"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", metavar="LOGS", help="the folder given to --keep-logs, or one log file in it")
    parser.add_argument(
        "cases",
        metavar="CASE",
        nargs="*",
        help="case ids whose transcripts to print (default: a table of every log in LOGS)",
    )
    parser.add_argument(
        "--agent",
        choices=RUNTIMES,
        help="the agent CLI that wrote the logs (default: told by each log's first event)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="print tool calls, answers and messages whole, not their first lines",
    )


def bounded(args: argparse.Namespace) -> bool:
    """Its work ends with the files it reads (see harness.collector)."""
    return True


def run(args: argparse.Namespace, ctx: Context) -> int:
    where = ctx.cwd / args.logs
    if where.is_file():
        found = log_file(where) or LogFile(where, where.stem, "run")
        return show(ctx, [(where.name, found)], args)
    if not where.is_dir():
        raise UsageError(
            f"{args.logs}: no such folder or file; pass the folder a run was given as --keep-logs"
        )
    files = list(kept_files(where))
    if not files:
        raise UsageError(
            f"{args.logs} holds no agent logs: routing, behavioral, compare and cost keep them there "
            f"when run with --keep-logs {args.logs}"
        )
    labelled = [(f.path.relative_to(where).as_posix(), f) for f in files]
    if not args.cases:
        return table(ctx, labelled, args)
    chosen = []
    for case in args.cases:
        matched = [(label, f) for label, f in labelled if belongs(f, case)]
        if not matched:
            stems = sorted({f.stem for f in files})
            raise UsageError(
                f"no log of case `{case}` in {args.logs}; its cases: {', '.join(stems[:20])}"
                + (f" and {len(stems) - 20} more" if len(stems) > 20 else "")
            )
        chosen += matched
    return show(ctx, chosen, args)


def belongs(found: LogFile, case: str) -> bool:
    """The file is of `case`: its stem is the case id as the run named files, or that plus a sample number."""
    stem = log_path(Path(), case, "").name
    return found.stem in (stem, case) or re.fullmatch(rf"{re.escape(stem)}-\d+", found.stem) is not None


def table(ctx: Context, labelled: list[tuple[str, LogFile]], args: argparse.Namespace) -> int:
    rows: list[tuple[str, str, object]] = []
    for label, found in labelled:
        if not found.is_stream:
            continue  # a judge exchange is text, shown with its case
        try:
            rows.append((label, found.role, read_log(found.path, args.agent)))
        except UnreadableLog as exc:
            rows.append((label, found.role, str(exc).removeprefix(f"{found.path}: ")))
    ctx.out(transcript.listing(rows))
    ctx.out(f"\nskillscope show {args.logs} CASE prints a case's transcript.")
    return 1 if any(isinstance(log, str) for _, _, log in rows) else 0


def show(ctx: Context, labelled: list[tuple[str, LogFile]], args: argparse.Namespace) -> int:
    unreadable = 0
    for index, (label, found) in enumerate(labelled):
        if index:
            ctx.out()
        try:
            if found.is_stream:
                lines = transcript.render(
                    read_log(found.path, args.agent), f"{label}: {found.role}", full=args.full
                )
            else:
                lines = [f"== {label}: {found.role}", read_text(found.path).rstrip("\n")]
        except (UnreadableLog, UnreadableFile) as exc:
            unreadable += 1
            lines = [f"== {label}: {found.role}", f"error: {exc}"]
        ctx.out("\n".join(lines))
    return 1 if unreadable else 0
