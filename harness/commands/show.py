"""`skillscope show`: the agent logs a run kept (`--keep-logs`), read as transcripts; given the run's
JSON report instead, its logs with each case's prompt and outcome above them."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from harness import jsonsafe, nesting
from harness.agent import RUNTIMES, log_path
from harness.agent.logs import KeptLog, LogFile, UnreadableLog, kept_files, log_file, read_log
from harness.context import Context
from harness.errors import HarnessError, UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text
from harness.jsonfields import array_at, object_at
from harness.model.repo import find_root
from harness.report import FORMATS, html, saved, transcript
from harness.report.html.logs import Entry
from harness.report.saved import RENDERED, entry_of
from harness.writer import cannot, write_text

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


def bounded(args: argparse.Namespace) -> bool:
    """Its work ends with the files it reads (see harness.cli.collector)."""
    return True


def run(args: argparse.Namespace, ctx: Context) -> int:
    if args.format:
        return show_report(args, ctx)
    where, cases, report = ctx.cwd / args.logs, {}, None
    if where.is_file() and where.suffix == ".json":
        report = read_report(where, args.logs, PAGE_COMMANDS if args.html else KEEPING_COMMANDS)
        cases = cases_of(report)
        if args.html and not args.cases:  # the run's page, whatever it kept (a cached run keeps none)
            where = logs_of(report, args.logs, ctx, required=False)
            return write_page(ctx, labelled(where) if where is not None else [], args, cases, report)
        where = logs_of(report, args.logs, ctx)
    chosen = chosen_files(where, args)
    if args.cases:  # the page and the heads are of the cases asked for only
        cases = {
            stem: case for stem, case in cases.items() if any(case_of(f, {stem: case}) for _, f in chosen)
        }
    if args.html:
        return write_page(ctx, chosen, args, cases, report)
    if args.cases or where.is_file():
        return show(ctx, chosen, args, cases)
    return table(ctx, chosen, args, cases)


def show_report(args: argparse.Namespace, ctx: Context) -> int:
    """--format: a saved report rendered again, from its JSON alone."""
    if args.cases or args.html:
        raise UsageError("--format renders a whole report: drop the CASE ids and --html")
    path = ctx.cwd / args.logs
    report = saved.checked(read_report(path, args.logs, RENDERED), args.logs)
    ctx.stdout.write(saved.again(report, args.format, path, ctx, args.logs))
    ctx.stdout.flush()
    return 0


def chosen_files(where: Path, args: argparse.Namespace) -> list[tuple[str, LogFile]]:
    """(label, file) of the one log, or of every log under the folder, or of each CASE's logs."""
    if where.is_file():
        return [(where.name, log_file(where) or LogFile(where, where.stem, "run"))]
    if not where.is_dir():
        raise UsageError(
            f"{args.logs}: no such folder or file; pass the folder a run was given as --keep-logs, "
            "or the run's JSON report"
        )
    found = labelled(where)
    if not found:
        raise UsageError(
            f"{args.logs} holds no agent logs: routing, behavioral, compare and cost keep them there "
            f"when run with --keep-logs {args.logs}"
        )
    if not args.cases:
        return found
    chosen = []
    for case in args.cases:
        matched = [(label, f) for label, f in found if belongs(f, case)]
        if not matched:
            stems = sorted({f.stem for _, f in found})
            raise UsageError(
                f"no log of case `{case}` in {args.logs}; its cases: {', '.join(stems[:20])}"
                + (f" and {len(stems) - 20} more" if len(stems) > 20 else "")
            )
        chosen += matched
    return chosen


def labelled(folder: Path) -> list[tuple[str, LogFile]]:
    """Every kept log under `folder`, labelled by its path there."""
    return [(f.path.relative_to(folder).as_posix(), f) for f in kept_files(folder)]


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
            "compare or cost report, or the --keep-logs folder itself"
        )
    return report


def logs_of(report: dict, given: str, ctx: Context, *, required: bool = True) -> Path | None:
    """The folder the run kept its logs in: as given to it, from here or from the repo's root. None when
    there is none and it is not `required`."""
    values = object_at(object_at(report, "settings"), "values")
    kept = values.get("keep-logs")
    if not isinstance(kept, str) or not kept:
        if not required:
            return None
        raise UsageError(
            f"{given}: this {report['command']} run kept no agent logs; run it again with --keep-logs DIR"
        )
    repo = report.get("repo") if isinstance(report.get("repo"), str) else None
    candidates = [ctx.cwd / kept, *([Path(repo) / kept] if repo else [])]
    found = next((path for path in candidates if path.is_dir()), None)
    if found is None and not required:
        return None
    if found is None:
        raise UsageError(
            f"{given}: the logs this run kept in {kept} are gone (looked in "
            f"{' and '.join(str(c) for c in candidates)}); pass the folder itself if it moved"
        )
    return found


def cases_of(report: dict) -> dict[str, dict]:
    """The report's cases by the file stem their logs carry; a matrix's by `<agent>/<stem>`, from each
    agent's own run (the folder its logs were kept in)."""
    found = {}
    runs = array_at(report, "runs")
    for run in [report, *(r for r in runs if isinstance(r, dict))]:
        meta = object_at(run, "meta")
        prefix = f"{meta['agent']}/" if run is not report and isinstance(meta.get("agent"), str) else ""
        for case in [*array_at(run, "cases"), canary_case(meta)]:
            if isinstance(case, dict) and isinstance(case.get("id"), str):
                found[prefix + log_path(Path(), case["id"], "").name] = case
    return found


def canary_case(meta: dict) -> dict | None:
    """A routing run's canary as a case of its report, so its kept log is headed like any case's."""
    canary = meta.get("canary")
    if not isinstance(canary, dict) or not isinstance(canary.get("skill"), str):
        return None
    status = canary.get("status")
    return {
        "id": canary["skill"],
        "status": f"canary {status}",
        "prompt": canary.get("prompt"),
        "observed": canary.get("observed"),
        "error": canary.get("sentence"),
    }


def belongs(found: LogFile, case: str) -> bool:
    """The file is of `case`: its stem is the case id as the run named files, or that plus a sample number."""
    return case == found.stem or log_path(Path(), case, "").name in case_stems(found)


def case_of(found: LogFile, cases: dict[str, dict]) -> dict | None:
    """The report's case a kept file belongs to (the agent's own, in a matrix), or None."""
    stems = case_stems(found)
    keys = [f"{found.path.parent.name}/{stem}" for stem in stems] + stems
    return next((cases[key] for key in keys if key in cases), None)


def leg_of(label: str, found: LogFile, report: dict | None) -> str:
    """The leg a kept file belongs to in a matrix report (empty otherwise): routing's and behavioral's
    legs keep their logs in a folder named for the leg; compare's hold each side's folder under it."""
    command = report.get("command") if report else None
    if command in ("routing-matrix", "behavioral-matrix"):
        return found.path.parent.name
    return label.split("/", 1)[0] if command == "compare-matrix" else ""


def case_stems(found: LogFile) -> list[str]:
    """The stems a file's case may have: its own, and without a routing sample's `-<n>`."""
    sample = re.fullmatch(r"(.+)-\d+", found.stem)
    return [found.stem, *([sample.group(1)] if sample else [])]


def table(
    ctx: Context, labelled: list[tuple[str, LogFile]], args: argparse.Namespace, cases: dict[str, dict]
) -> int:
    rows: list[tuple[str, str, KeptLog | str, dict | None]] = []
    for label, found in labelled:
        if not found.is_stream:
            continue  # a judge exchange is text, shown with its case
        try:
            log: KeptLog | str = read_log(found.path, args.agent)
        except UnreadableLog as exc:
            log = str(exc).removeprefix(f"{found.path}: ")
        rows.append((label, found.role, log, case_of(found, cases)))
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
        heading, *lines = transcript.render(read_log(found.path, agent), title, full=full)
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
    try:
        write_text(target, page, repo)
    except OSError as exc:
        raise HarnessError(cannot("the HTML page", target, exc, "fix --html")) from None
    ctx.out(f"HTML page: {args.html} ({counted}, {len(labelled)} log(s))")
    return 1 if unreadable else 0
