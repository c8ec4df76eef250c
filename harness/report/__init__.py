"""Publishing a result: JSON file, markdown on stdout and in the step summary, annotations, JUnit."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Protocol

from harness import schemas
from harness.context import Context
from harness.errors import HarnessError
from harness.report import github, junit, markdown

# Importing the renderer modules registers them.
from harness.report import structural_md  # noqa: F401  isort: skip
from harness.report import refs_md  # noqa: F401  isort: skip
from harness.report import routing_md  # noqa: F401  isort: skip
from harness.report import behavioral_md  # noqa: F401  isort: skip


class Result(Protocol):
    command: str

    def to_json(self) -> dict:
        """The JSON report; its top-level `repo` says where default reports go."""


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


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


def publish(
    result: Result, ctx: Context, output: str | None, summary: str | None, junit_path: str | None = None
) -> Path:
    """Write every report of `result`; returns the JSON report's path."""
    document = result.to_json()
    path = Path(output) if output else default_output(Path(document["repo"]), result.command)
    if not path.is_absolute():
        path = ctx.cwd / path
    problems = [e.message for e in schemas.errors(f"{result.command}-report", document)]
    if problems:
        ctx.err(f"warning: the {result.command} report does not match its schema: {problems[0]}")
    _write(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n", "the JSON report", "--output")
    text = markdown.render(result)
    ctx.out(text)
    ctx.out(f"JSON report: {path}")
    summary_path = summary or ctx.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        # Relative to where the command ran, like --output; appended, as GitHub's summary expects.
        where = "--summary" if summary else "GITHUB_STEP_SUMMARY"
        _write(ctx.cwd / summary_path, text + "\n", "the markdown summary", where, append=True)
    if ctx.in_github_actions:
        for line in github.annotations_for(result):
            ctx.out(line)
    if junit_path and hasattr(result, "junit_cases"):
        junit.write(Path(junit_path), f"skillscope {result.command}", result.junit_cases())
    return path
