"""Publishing a result: the JSON report on disk, the chosen format on stdout, the step summary, annotations
and JUnit. Each command's renderers are one module, named in REPORTS and imported only when used."""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from harness import schemas
from harness.context import Context
from harness.model import run_reports
from harness.model.findings import Finding, as_warnings
from harness.printable import escaped
from harness.report import text
from harness.report.jsontext import Laid, readable
from harness.secrets import Redactor
from harness.writer import append_text, write_text, writing

if TYPE_CHECKING:  # JUnit, SARIF and annotations are imported where asked for: a hook run shows text
    from harness.report.junit import JUnitCase

REPORTS: dict[str, str] = {
    "structural": "harness.report.structural",
    "refs": "harness.report.refs",
    "routing": "harness.report.routing",
    "routing-lexical": "harness.report.routing_lexical",
    "routing-matrix": "harness.report.matrix",
    "behavioral": "harness.report.behavioral",
    "behavioral-matrix": "harness.report.matrix",
    "compare": "harness.report.compare",
    "compare-matrix": "harness.report.matrix",
    "cost": "harness.report.cost",
    "select": "harness.report.select",
    "tune": "harness.report.tune",
    "sweep": "harness.report.sweep",
}
# The schema each command's report is written against, where its name is not `<command>-report`.
SCHEMAS = {"compare": "compare", "select": "plan"}
FORMATS = ("text", "markdown", "junit", "sarif", "html")  # what `show --format` renders a saved report as
SELF_CHECKED_ITEMS = 200  # of each list in a report, by the schema self-check


@dataclasses.dataclass(frozen=True)
class ReportOptions:
    """Where a command's reports go and what its stdout shows, from the flags a command declared."""

    output: str | None = None
    summary: str | None = None
    junit: str | None = None
    format: str = "text"
    quiet: bool = False
    verbose: bool = False
    annotations: str = "errors"  # "warnings": a grader that reports without gating paints nothing red


class Result(Protocol):
    command: str

    @property
    def passed(self) -> bool: ...

    def to_json(self) -> dict:
        """The JSON report; its top-level `repo` says where default reports go."""


class Renderers(Protocol):
    """What each module named in REPORTS offers, reading the JSON report as written and nothing else."""

    def markdown(self, report: dict) -> str: ...

    def headline(self, report: dict) -> str:
        """The run in a few words, for the text format's summary line."""

    def statuses(self, report: dict) -> dict[str, str]:
        """Each graded unit's status word, which --verbose lists."""

    def findings(self, report: dict) -> list[Finding]:
        """What did not pass, located at a file and line: annotations, text lines and SARIF results."""

    def junit(self, report: dict) -> list[JUnitCase]: ...

    # Optional: `next_step(report) -> str`, the lines the text format prints under its summary.


def kind_of(report: dict) -> str:
    """The REPORTS entry that renders `report`: its command (a lexical routing run has its own)."""
    command = report.get("command")
    if command == "routing" and report.get("engine") == "lexical":
        return "routing-lexical"
    return str(command)


def renderers(kind: str) -> Renderers:
    return importlib.import_module(REPORTS[kind])


def finish(result: Result, ctx: Context, where: ReportOptions) -> int:
    """The end every graded command shares: publish the reports, exit 0 when the run passed, else 1."""
    publish(result, ctx, where)
    return 0 if result.passed else 1


def publish(result: Result, ctx: Context, where: ReportOptions) -> Path | None:
    """Write every report of `result` from its JSON as written, secrets blanked; the JSON's path or None."""
    redact = Redactor.of(ctx.environ)
    document = result.to_json()
    if ctx.settings is not None:  # the effective settings from the repo's settings file
        document["settings"] = ctx.settings
    document = redact.data(document)
    schema = getattr(result, "schema", f"{result.command}-report")  # a result may name its own
    problems = [e.message for e in schemas.errors(schema, self_check_sample(document))]
    if problems:
        ctx.err(f"warning: the {result.command} report does not match its schema: {problems[0]}")
    as_json = readable(document)
    repo = Path(document["repo"])  # the folder whose symlinks may not lead a write out (harness.writer)
    output = ctx.cwd / where.output if where.output else None
    path = None if where.output == "-" else run_reports.save(as_json, repo, result.command, output)
    summary_path = where.summary or ctx.environ.get("GITHUB_STEP_SUMMARY")
    if path is None and not (summary_path or where.junit):  # JSON alone: nothing to render
        ctx.stdout.write(as_json)
        ctx.stdout.flush()
        return None
    # Laid-out items (a large run's cases) are read back here: renderers see exactly what was written.
    written = json.loads(as_json)
    report = renderers(kind_of(written))
    # Rendered only where it is read: the table costs more start-up than a small catalog's checks.
    needs_markdown = bool(summary_path) or (path is not None and where.format == "markdown")
    markdown = redact(report.markdown(written)) if needs_markdown else ""
    if summary_path:  # relative to where the command ran, like --output; appended, as GitHub expects
        summary = ctx.cwd / summary_path
        flag = "--summary" if where.summary else "GITHUB_STEP_SUMMARY"
        guarded(lambda: append_text(summary, markdown + "\n", repo), "the markdown summary", summary, flag)
    if where.junit:
        body, junit_file = junit_text(written, report, redact), ctx.cwd / where.junit
        guarded(lambda: write_text(junit_file, body, repo), "the JUnit report", junit_file, "--junit")
    if path is None:
        ctx.stdout.write(as_json)  # stdout is the JSON report's: nothing else may go there
    else:
        shown = redact(stdout_text(written, report, markdown, path, ctx, where))
        # Markdown on stdout is read on a terminal: escaped (text escapes each piece around its colours).
        ctx.stdout.write(escaped(shown) if where.format == "markdown" else shown)
        if ctx.in_github_actions and where.format in ("text", "markdown"):
            from harness.report import github

            found = report.findings(written)
            annotations = github.finding_annotations(
                as_warnings(found) if where.annotations == "warnings" else found
            )
            ctx.stdout.write("".join(redact(line) + "\n" for line in annotations))
    ctx.stdout.flush()
    return path


def schema_of(report: dict) -> str:
    command = str(report.get("command"))
    return SCHEMAS.get(command, f"{command}-report")


def rendered(written: dict, fmt: str, path: Path, ctx: Context) -> str:
    """A saved report in `fmt`, as the run that wrote it would have shown it."""
    if fmt == "html":
        from harness.report import html  # the page's modules, only when a page is asked for

        return html.render(written)
    where = ReportOptions(format=fmt)
    report = renderers(kind_of(written))
    shown = stdout_text(written, report, "", path, ctx, where)
    return escaped(shown) if fmt == "markdown" else shown


def self_check_sample(document: dict) -> dict:
    """The document with each long list cut to its first items: the self-check guards our own code, which
    shapes every case alike, while reading all ten thousand cases of a large run costs about 0.1 s of CPU."""
    return {
        key: [sampled(item) for item in value[:SELF_CHECKED_ITEMS]] if isinstance(value, list) else value
        for key, value in document.items()
    }


def sampled(item: object) -> object:
    """An item as the schema reads it: one laid out ahead is read back from its text."""
    return item.value() if isinstance(item, Laid) else item


def stdout_text(written: dict, report: Renderers, markdown: str, path: Path, ctx: Context, where) -> str:
    """What --format puts on stdout; only text and markdown name the JSON report's path."""
    if where.format == "json":
        return readable(written)
    if where.format == "junit":
        return junit_text(written, report, Redactor.of(ctx.environ))
    if where.format == "sarif":
        from harness.report import sarif

        return json.dumps(sarif.log(written["command"], report.findings(written)), indent=2) + "\n"
    if where.format == "markdown":
        return f"{markdown or report.markdown(written)}\nJSON report: {path}\n"
    return terminal(written, report, path, ctx, where)


def junit_text(written: dict, report: Renderers, redact: Redactor) -> str:
    from harness.report import junit

    cases = [redact_case(case, redact) for case in report.junit(written)]
    return junit.render(f"skillscope {written['command']}", cases)


def redact_case(case: JUnitCase, redact: Redactor) -> JUnitCase:
    # Only the text fields change; mypy checks **changes against every field, hence the Any.
    changes: dict[str, Any] = {
        name: redact(value) for name, value in vars(case).items() if isinstance(value, str)
    }
    return dataclasses.replace(case, **changes)


def terminal(written: dict, report: Renderers, path: Path, ctx: Context, where) -> str:
    """The text format: a line per finding (failing ones only under -q), each unit under -v, a summary."""
    colour = text.wants_colour(ctx.stdout, ctx.environ)
    found = report.findings(written)
    if where.quiet:
        found = [f for f in found if f.fails]
    lines = text.finding_lines(found, colour)
    if where.verbose:
        lines += [text.unit_line(name, word, colour) for name, word in report.statuses(written).items()]
    lines.append(text.summary_line(written, report.headline(written), colour))
    next_step = getattr(report, "next_step", None)
    hint = next_step(written) if next_step and not where.quiet else ""
    if hint:
        lines.append(hint)
    if not where.quiet:
        lines.append(f"JSON report: {path}")
    return "".join(line + "\n" for line in lines)


def guarded(write: Callable[[], object], what: str, path: Path, flag: str):
    """`write()`'s value; an OSError becomes one sentence naming the file and the flag that chose it."""
    with writing(what, path, f"fix {flag} or the folder's permissions"):
        return write()
