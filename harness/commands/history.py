"""`skillscope history`: the JSON reports of graded runs read back as a ledger, each case's timeline and
state (stable, flaky, regressed, improved), each skill's accuracy over the runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from pathlib import Path

from harness.cli import collector
from harness.cli.flags import parse_list
from harness.context import Context
from harness.errors import UsageError
from harness.history import ledger as ledger_mod
from harness.history.result import History
from harness.memo import user_cache
from harness.model import repo as repo_mod
from harness.model.run_reports import RUNS
from harness.report import history as history_report
from harness.report import history_html
from harness.report.jsontext import readable
from harness.writer import append_text, write_text, writing

HELP = "read the run ledger (the JSON reports of past runs): each case's timeline, flaky or regressed, trends"
DEFAULT_BASE_NAME = "the base"
RENDERERS: dict[str, Callable[[dict], str]] = {  # what --format writes to stdout, from the JSON report
    "text": lambda report: history_report.text(report, warnings=False),  # on stderr, as they are read
    "json": readable,
    "markdown": lambda report: history_report.markdown(report) + "\n",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "reports",
        metavar="REPORTS",
        nargs="*",
        help="JSON reports of routing and behavioral runs, or folders of them "
        f"(default: <repo>/{RUNS.as_posix()}/, where every run writes its report)",
    )
    parser.add_argument(
        "--skill", metavar="NAMES", help="only these skills' cases (a JSON array or a comma list)"
    )
    parser.add_argument("--case", metavar="IDS", help="only these cases (a JSON array or a comma list)")
    parser.add_argument(
        "--since", metavar="DATE", type=since_date, help="only runs started on DATE (YYYY-MM-DD) or later"
    )
    parser.add_argument(
        "--format",
        choices=tuple(RENDERERS),
        default="text",
        help="what goes to stdout: text (the cases that are not stable, and each skill's accuracy), "
        "markdown (the same as tables, for a step summary) or json (every timeline) (default: text)",
    )
    parser.add_argument(
        "--html",
        metavar="PAGE",
        help="also write one self-contained HTML page: each skill's accuracy drawn over the runs, "
        "and every case's timeline",
    )
    parser.add_argument(
        "--summary",
        metavar="PATH",
        help="append the markdown report here (default: $GITHUB_STEP_SUMMARY when set)",
    )
    parser.add_argument(
        "--against",
        metavar="LEDGER",
        help="a folder (or report) of the base branch's history: its runs come first, and the "
        "headline counts only the cases these REPORTS ran (`against main: 1 regressed, 2 flaky`)",
    )
    parser.add_argument(
        "--against-name",
        metavar="NAME",
        default=DEFAULT_BASE_NAME,
        help=f"what the headline calls the --against ledger, e.g. main (default: {DEFAULT_BASE_NAME})",
    )


def since_date(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}': give a date as YYYY-MM-DD, e.g. 2026-11-30") from None


bounded = collector.always  # its work ends with the files it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    root = repo_mod.find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)  # links held to it
    if args.reports:
        paths = [existing(ctx.cwd / name, name, "REPORTS") for name in args.reports]
        given, shown = list(args.reports), dict(zip(paths, args.reports, strict=True))
    else:
        folder = root / RUNS
        label = RUNS.as_posix() if root == ctx.cwd else str(folder)
        given, paths, shown = [label], [folder] if folder.is_dir() else [], {folder: label}
    base = existing(ctx.cwd / args.against, args.against, "--against") if args.against else None
    ledger = ledger_mod.read_against(paths, shown, base, args.against, cache=user_cache(ctx.environ))
    ledger = ledger_mod.filtered(
        ledger, parse_list("--skill", args.skill), parse_list("--case", args.case), args.since
    )
    history = History.of(ledger, given, args.against_name if args.against else None)
    for problem in ledger.problems:
        ctx.err(f"[history] {problem}")
    if not ledger.runs:
        ctx.err(f"[history] {empty_ledger(given, args)}")
    report = history.to_json()  # every format is rendered from the JSON report
    ctx.stdout.write(RENDERERS[args.format](report))
    summary = args.summary or ctx.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        flag = "--summary" if args.summary else "GITHUB_STEP_SUMMARY"
        with writing("the history", ctx.cwd / summary, f"fix {flag}"):
            append_text(ctx.cwd / summary, history_report.markdown(report) + "\n", root)
    if args.html:
        with writing("the history page", ctx.cwd / args.html, "fix --html"):
            write_text(ctx.cwd / args.html, history_html.page(report), root)
        ctx.err(f"[history] HTML page: {args.html} ({len(history.lines)} case(s), {len(ledger.runs)} run(s))")
    return 0


def existing(path: Path, given: str, flag: str) -> Path:
    if not path.exists():
        raise UsageError(f"{flag} {given}: no such file or folder; pass a JSON report or a folder of them.")
    return path


def empty_ledger(given: list[str], args: argparse.Namespace) -> str:
    narrowed = args.skill or args.case or args.since
    if narrowed:
        return "no graded run matches --skill, --case and --since in " + ", ".join(given) + "."
    return (
        "no graded run in " + ", ".join(given) + ": routing (agent engine) and behavioral write their "
        "JSON reports there; run one, or pass the folder a CI job kept."
    )
