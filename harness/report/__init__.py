"""Publishing a result: JSON file, markdown on stdout and in the step summary, annotations, JUnit.

Each command's renderers live in one module of this package, named in REPORTS and imported when used
(a `structural` run should not load the agent stack to render its table).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from datetime import datetime
from pathlib import Path
from typing import Protocol

from harness import schemas
from harness.context import Context
from harness.errors import HarnessError
from harness.model.findings import Finding
from harness.options import ReportOptions
from harness.report import github, junit
from harness.report.junit import JUnitCase
from harness.secrets import Redactor

REPORTS: dict[str, str] = {
    "structural": "harness.report.structural",
    "refs": "harness.report.refs",
    "routing": "harness.report.routing",
    "behavioral": "harness.report.behavioral",
    "compare": "harness.report.compare",
    "cost": "harness.report.cost",
    "select": "harness.report.select",
}


class Result(Protocol):
    command: str
    passed: bool

    def to_json(self) -> dict:
        """The JSON report; its top-level `repo` says where default reports go."""


class Renderers(Protocol):
    """What every module named in REPORTS offers for its command's result."""

    def markdown(self, result) -> str: ...

    def findings(self, result) -> list[Finding]:
        """What did not pass, located at a file and line: annotations, text lines and SARIF results."""

    def junit(self, result) -> list[JUnitCase]: ...


def renderers(command: str) -> Renderers:
    return importlib.import_module(REPORTS[command])


def default_output(repo_root: Path, command: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    runs = repo_root / ".skillscope" / "runs"
    path = runs / f"{command}-{stamp}.json"
    suffix = 2
    while path.exists():
        path, suffix = runs / f"{command}-{stamp}-{suffix}.json", suffix + 1
    return path


def _write(path: Path, text: str, what: str, flag: str, append: bool = False) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a" if append else "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise HarnessError(
            f"cannot write {what} to {path} ({exc.strerror or exc}); fix {flag} or the "
            "directory's permissions."
        ) from None


def finish(result: Result, ctx: Context, where: ReportOptions) -> int:
    """The end every graded command shares: publish the reports, exit 0 when the run passed, else 1."""
    publish(result, ctx, where.output, where.summary, where.junit)
    return 0 if result.passed else 1


def publish(
    result: Result, ctx: Context, output: str | None, summary: str | None, junit_path: str | None = None
) -> Path:
    """Write every report of `result`, known secret values blanked; returns the JSON report's path."""
    redact = Redactor.of(ctx.environ)
    document = result.to_json()
    if ctx.settings is not None:
        document["settings"] = ctx.settings
    document = redact.data(document)
    path = Path(output) if output else default_output(Path(document["repo"]), result.command)
    if not path.is_absolute():
        path = ctx.cwd / path
    # A result may name its schema; the default is `<command>-report`.
    schema = getattr(result, "schema", f"{result.command}-report")
    problems = [e.message for e in schemas.errors(schema, document)]
    if problems:
        ctx.err(f"warning: the {result.command} report does not match its schema: {problems[0]}")
    _write(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n", "the JSON report", "--output")
    report = renderers(result.command)
    text = redact(report.markdown(result))
    ctx.out(text)
    ctx.out(f"JSON report: {path}")
    summary_path = summary or ctx.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        # Relative to where the command ran, like --output; appended, as GitHub's summary expects.
        where = "--summary" if summary else "GITHUB_STEP_SUMMARY"
        _write(ctx.cwd / summary_path, text + "\n", "the markdown summary", where, append=True)
    if ctx.in_github_actions:
        for line in github.finding_annotations(report.findings(result)):
            ctx.out(redact(line))
    if junit_path:
        cases = [redact_case(case, redact) for case in report.junit(result)]
        junit.write(Path(junit_path), f"skillscope {result.command}", cases)
    return path


def redact_case(case: JUnitCase, redact: Redactor) -> JUnitCase:
    return dataclasses.replace(
        case, **{name: redact(value) for name, value in vars(case).items() if isinstance(value, str)}
    )
