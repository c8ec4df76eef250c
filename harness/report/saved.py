"""A report skillscope saved, rendered again from its JSON alone: in a `show --format`, or as its page
with the transcripts its run kept (`show REPORT --html`)."""

from __future__ import annotations

from pathlib import Path

from jsonschema.exceptions import best_match

from harness import schemas
from harness.context import Context
from harness.errors import UsageError
from harness.report import REPORTS, history, history_html, html, rendered, schema_of
from harness.report.html.logs import Entry
from harness.report.transcript import outcome_of

RENDERED = (*REPORTS, "history")  # --format renders any report skillscope writes
SAID_LIMIT = 120  # of a schema error's own words in the sentence; a longer one quotes the whole value
# What the page's line counts, when it is not the report's cases: (its field, the word for one). The
# field is an array, a count (a sweep's `cases` is how many it grades at each size) or the envelope's
# counts (a plan's total is the skills it plans).
COUNTED = {
    "select": ("counts", "skill(s) planned"),
    "structural": ("findings", "finding(s)"),
    "refs": ("findings", "finding(s)"),
    "tune": ("candidates", "candidate(s)"),
    "cost": ("runs", "run(s)"),
}
NO_LOG_KEPT = "no agent log was kept: the run had no --keep-logs, or took every case from the cache"


def checked(report: dict, given: str) -> dict:
    """`report`, checked against the schema of the version that reads it: an older report (or one edited
    by hand) is a usage error naming what is missing and the fix."""
    problems = schemas.errors(schema_of(report), report)
    if problems:
        # The deepest error names the field (`'line' is a required property`), not the object holding it.
        first = best_match(problems)
        said = first.message if len(first.message) <= SAID_LIMIT else "unexpected value"
        raise UsageError(
            f"{given}: not a {report['command']} report this skillscope version can render ({said} at "
            f"{first.json_path}); run `skillscope {report['command']}` again with this version to write a "
            "new one"
        )
    return report


def again(report: dict, fmt: str, path: Path, ctx: Context, given: str) -> str:
    """A checked report in `fmt`, as the run that wrote it would have shown it."""
    command = report["command"]
    if command == "history":
        return history_text(report, fmt, given)
    if fmt == "html" and command not in html.SECTIONS:
        formats = "text, markdown, junit or sarif"
        raise UsageError(f"{given}: a {command} report has no page; pass --format {formats}")
    return rendered(report, fmt, path, ctx)


def history_text(report: dict, fmt: str, given: str) -> str:
    """A history report again: its text, markdown or page (it gates nothing, so has no JUnit or SARIF)."""
    if fmt == "text":
        return history.text(report)
    if fmt == "markdown":
        return history.markdown(report) + "\n"
    if fmt == "html":
        return history_html.page(report)
    raise UsageError(f"{given}: a history report has no {fmt} form; pass --format text, markdown or html")


def report_page(
    report: dict, transcripts: dict[str, list[tuple[str, list[str]]]], *, kept_none: bool
) -> tuple[str, str]:
    """The report's page with each case's kept transcripts collapsed under it, and what it counts
    (`3 case(s)`); `kept_none` notes that its run kept no log."""
    page = html.render(report, transcripts, [NO_LOG_KEPT] if kept_none else [])
    return page, counted(report)


def counted(report: dict) -> str:
    """What the page's line counts for this kind of report (`3 case(s)`, `2 finding(s)`)."""
    key, what = COUNTED.get(report["command"], ("cases", "case(s)"))
    value = report[key]
    if isinstance(value, dict):  # the envelope's counts
        value = value["total"]
    return f"{value if isinstance(value, int) else len(value)} {what}"


def logs_page(given: str, entries: list[Entry]) -> tuple[str, str]:
    """A page of the transcripts kept in the folder `given`, without a report, and what it counts."""
    return html.logs_page(f"agent logs kept in {given}", entries), f"{len(entries)} case(s)"


def entry_of(case: dict | None, stem: str = "") -> Entry:
    """A case's place on the logs page: its id and outcome, or the stem of a log no case claims."""
    if case is None:
        return Entry(stem)
    outcome = outcome_of(case)
    return Entry(case["id"], str(outcome) if outcome else None)
