"""`skillscope show`: the agent logs a run kept (`--keep-logs`), read as transcripts; given the run's
JSON report instead, its logs with each case's prompt and outcome above them."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import jsonsafe, nesting
from harness.agent import RUNTIMES
from harness.agent import transcript as kept_log
from harness.agent.kept_cases import (
    canary_replayed,
    case_of,
    cases_of,
    chosen_files,
    labelled,
    leg_of,
    logs_of,
)
from harness.agent.logs import LogFile, UnreadableLog, read_log
from harness.cli import collector
from harness.context import Context
from harness.errors import UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text
from harness.jsonfields import array_at
from harness.model.repo import find_root
from harness.paid.kept_logs import recorded, written_by_run
from harness.report import FORMATS, html, saved, transcript
from harness.report.cases import from_cache
from harness.report.html.logs import Entry
from harness.report.saved import RENDERED, entry_of
from harness.writer import write_text, writing

HELP = (
    "read the agent logs a run kept with --keep-logs (or its report): a table, a case's transcripts, a page"
)
REPORT_LIMIT = MAX_REPORT_BYTES
KEEPING_COMMANDS = (
    "routing",
    "routing-matrix",
    "behavioral",
    "behavioral-matrix",
    "compare",
    "compare-matrix",
    "cost",
)
REPLAYED_NAMES = "under the names of cases this run replayed from the result cache (no transcript kept)"
PAGE_COMMANDS = tuple(html.SECTIONS)  # --html draws every graded command's report, logs kept or not


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "logs",
        metavar="LOGS",
        help="the folder given to --keep-logs, one log file in it, or the run's JSON report "
        "(which names the folder)",
    )
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
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="print LOGS, a saved JSON report of any command, in this format instead (text, markdown, "
        "junit, sarif, or html for its page), as the run that wrote it would have",
    )
    parser.add_argument(
        "--html",
        metavar="PATH",
        help="write one self-contained HTML page instead: the report's status, gate, figures and "
        "cases (routing: its confusion matrix), each CASE's or every kept transcript collapsed; any "
        "graded command's report, or a --keep-logs folder",
    )


bounded = collector.always  # its work ends with the files it reads


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.format:
        return show_report(args, ctx)
    where, cases, report = ctx.cwd / args.logs, {}, None
    if where.is_file() and where.suffix == ".json":
        report = read_report(where, args.logs, PAGE_COMMANDS if args.html else KEEPING_COMMANDS)
        if args.html:  # the page reads the report as its schema has it, as --format does
            report = saved.checked(report, args.logs)
        cases = cases_of(report)
        if args.html and not args.cases:  # the run's page, whatever it kept (a cached run keeps none)
            where = logs_of(report, args.logs, ctx.cwd, required=False)
            found = (
                this_runs(ctx, labelled(where), cases, where, report, args.logs) if where is not None else []
            )
            return write_page(ctx, found, args, cases, report)
        where = logs_of(report, args.logs, ctx.cwd)
    chosen = chosen_files(where, args.logs, args.cases)
    if report is not None:
        chosen = this_runs(ctx, chosen, cases, where, report, args.logs)
        if not chosen and not args.html:
            raise UsageError(none_of_this_run(args, where, report))
    if args.cases:  # the page and the heads are of the cases asked for only
        cases = shown_cases(cases, chosen)
    if args.html:
        return write_page(ctx, chosen, args, cases, report)
    if args.cases or where.is_file():
        return show(ctx, chosen, args, cases)
    return table(ctx, chosen, args, cases)


def this_runs(
    ctx: Context,
    chosen: list[tuple[str, LogFile]],
    cases: dict[str, dict],
    where: Path,
    report: dict,
    given: str,
) -> list[tuple[str, LogFile]]:
    """The kept logs a report's own run wrote: in a folder runs share, a log under a case's name may be
    another run's, and would be shown graded as this one. A report records what its run wrote (one another
    run wrote over is refused); an older one records nothing, and a case it replayed from the result cache
    wrote no log."""
    kept, other, wrote = [], 0, recorded(report)
    for label, found in chosen:
        if wrote is not None:
            own = written_by_run(label, found.path, wrote, given)
        else:
            case = case_of(found, cases)
            own = not (case is not None and (from_cache(case) or canary_replayed(case)))
        other += not own
        if own:
            kept.append((label, found))
    if other:
        why = "not ones this run wrote" if wrote is not None else REPLAYED_NAMES
        ctx.err(f"[show] {other} log(s) in {where} are {why}: another run's, left out.")
    return kept


def none_of_this_run(args: argparse.Namespace, where: Path, report: dict) -> str:
    which = ", ".join(args.cases) if args.cases else f"the cases the logs in {where} are named for"
    itself = f"`skillscope show {args.logs} --format text` prints the report itself"
    if recorded(report) is not None:
        return (
            f"{args.logs}: this run kept no log of {which} there (it replayed them from the result cache, "
            "or the logs are another run's); run it again with --no-cache --keep-logs DIR to keep one, "
            f"or {itself}"
        )
    return (
        f"{args.logs}: this run replayed {which} from the result cache, which keeps no transcript; "
        f"run it again with --no-cache --keep-logs DIR to keep one, or {itself}"
    )


def shown_cases(cases: dict[str, dict], chosen: list[tuple[str, LogFile]]) -> dict[str, dict]:
    return {stem: case for stem, case in cases.items() if any(case_of(f, {stem: case}) for _, f in chosen)}


def show_report(args: argparse.Namespace, ctx: Context) -> int:
    """--format: a saved report rendered again, from its JSON alone."""
    if args.cases or args.html:
        raise UsageError("--format renders a whole report: drop the CASE ids and --html")
    path = ctx.cwd / args.logs
    report = saved.checked(read_report(path, args.logs, RENDERED), args.logs)
    ctx.stdout.write(saved.again(report, args.format, path, ctx, args.logs))
    ctx.stdout.flush()
    return 0


def read_report(path: Path, given: str, commands: tuple[str, ...] = KEEPING_COMMANDS) -> dict:
    try:
        report = jsonsafe.loads(read_text(path, REPORT_LIMIT), given, depth=nesting.REPORT_DEPTH)
    except UnreadableFile as exc:
        raise UsageError(f"{given}: not a JSON report skillscope can read ({exc.reason})") from None
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{exc}; pass a JSON report skillscope wrote") from None
    command = report.get("command") if isinstance(report, dict) else None
    if command not in commands and commands is RENDERED:
        raise UsageError(
            f"{given}: not a report skillscope writes (no known `command`); pass the JSON report of a "
            "skillscope run, such as .skillscope/runs/latest-routing.json"
        )
    if command not in commands and commands is PAGE_COMMANDS:
        raise UsageError(
            f"{given}: not the report of a graded command; pass the JSON report of structural, refs, "
            "routing, behavioral, compare, cost or tune"
        )
    if command not in commands:
        raise UsageError(
            f"{given}: not the report of a run that keeps agent logs; pass a routing, behavioral, "
            "compare or cost report, or the --keep-logs folder itself; "
            f"`skillscope show {given} --format text` prints any report"
        )
    return report


def table(
    ctx: Context, labelled: list[tuple[str, LogFile]], args: argparse.Namespace, cases: dict[str, dict]
) -> int:
    rows: list[tuple[str, str, list[str] | str, dict | None]] = []
    for label, found in labelled:
        if not found.is_stream:
            continue  # a judge exchange is text, shown with its case
        try:
            cells: list[str] | str = kept_log.summary_cells(read_log(found.path, args.agent))
        except UnreadableLog as exc:
            cells = str(exc).removeprefix(f"{found.path}: ")
        rows.append((label, found.role, cells, case_of(found, cases)))
    ctx.out(transcript.listing(rows, graded=bool(cases)))
    ctx.out(f"\nskillscope show {args.logs} CASE prints a case's transcript.")
    return 1 if any(isinstance(log, str) for _, _, log, _ in rows) else 0


def show(
    ctx: Context, labelled: list[tuple[str, LogFile]], args: argparse.Namespace, cases: dict[str, dict]
) -> int:
    unreadable, headed = 0, set()
    for index, (label, found) in enumerate(labelled):
        if index:
            ctx.out()
        case = case_of(found, cases)
        if case is not None and id(case) not in headed:
            headed.add(id(case))
            ctx.out("\n".join([*transcript.case_head(case), ""]))
        title, lines, read = section(label, found, args.agent, args.full)
        unreadable += not read
        ctx.out("\n".join([f"== {title}", *lines]))
    return 1 if unreadable else 0


def section(label: str, found: LogFile, agent: str | None, full: bool) -> tuple[str, list[str], bool]:
    """One kept file as (title, lines, read): a stream's transcript, a judge exchange's text, or why it
    could not be read."""
    title = f"{label}: {found.role}"
    try:
        if not found.is_stream:
            return title, read_text(found.path).rstrip("\n").splitlines(), True
        heading, *lines = kept_log.render(read_log(found.path, agent), title, full=full)
        return heading.removeprefix("== "), lines, True
    except (UnreadableLog, UnreadableFile) as exc:
        return title, [f"error: {exc}"], False


def write_page(
    ctx: Context,
    labelled: list[tuple[str, LogFile]],
    args: argparse.Namespace,
    cases: dict[str, dict],
    report: dict | None = None,
) -> int:
    """--html: the report's page with each case's kept transcripts collapsed under it, or, given logs
    alone, a page of their transcripts."""
    transcripts: dict[str, list[tuple[str, list[str]]]] = {}
    entries: dict[str, Entry] = {}
    for case in cases.values():  # the report's order, cases it kept no log of included
        entries.setdefault(case["id"], entry_of(case))
    unreadable = 0
    for label, found in labelled:
        its_case = case_of(found, cases)
        key = its_case["id"] if its_case else found.stem
        title, lines, read = section(label, found, args.agent, full=True)
        unreadable += not read
        entries.setdefault(key, entry_of(its_case, found.stem)).logs.append((title, lines))
        agent = leg_of(label, found, report)
        transcripts.setdefault(f"{agent}/{key}" if agent else key, []).append((title, lines))
    if report is not None:
        if args.cases:  # the page of the cases asked for only
            wanted = {case["id"] for case in cases.values()}
            report = {**report, "cases": [c for c in array_at(report, "cases") if c.get("id") in wanted]}
        kept_none = not labelled and report.get("command") in KEEPING_COMMANDS
        page, counted = saved.report_page(report, transcripts, kept_none=kept_none)
    else:
        page, counted = saved.logs_page(args.logs, list(entries.values()))
    target, repo = ctx.cwd / args.html, find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    with writing("the HTML page", target, "fix --html"):
        write_text(target, page, repo)
    ctx.out(f"HTML page: {args.html} ({counted}, {len(labelled)} log(s))")
    return 1 if unreadable else 0
