"""Running `skillscope behavioral` in-process on a copied scenario repo (tests/acceptance/behavioral/)
with the real claude CLI against the scripted API.

Not a conftest: the tests import what they use, so each helper is visible at its call site.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R

SCENARIOS = Path(__file__).resolve().parent.parent / "acceptance" / "behavioral"


def verdicts(*pairs: tuple[str, bool]) -> R.Reply:
    entries = [{"id": i, "pass": p, "reason": f"scripted {i}"} for i, p in pairs]
    return R.text(json.dumps({"verdicts": entries}))


def writer_passes() -> dict:
    """The script under which the writer scenario's report-writer-pass case meets both expectations: the
    agent writes report.md and echoes status-ok, and the judge passes E1 and E2."""
    return {
        JUDGE_HEADER: [verdicts(("E1", True), ("E2", True))],
        "status report": [
            R.tool_use("Write", {"file_path": "{{cwd}}/report.md", "content": "# Week\n"}),
            R.tool_use("Bash", {"command": "echo status-ok"}),
            "Wrote report.md.",
        ],
    }


class Behave:
    """Runs `skillscope behavioral` on a copied scenario; keeps the report and streams."""

    def __init__(self, repo: Path, claude_bin: str, env: dict[str, str]):
        self.repo, self.claude_bin, self.env = repo, claude_bin, env
        self.report_path = repo.parent / "report.json"

    def __call__(self, *args: str):
        environ = {**self.env, "SKILLSCOPE_CLAUDE": self.claude_bin}
        ctx = Context(
            environ=environ, cwd=self.repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
        )
        self.report_path.unlink(missing_ok=True)
        argv = [
            "behavioral",
            "--repo",
            str(self.repo),
            "--skills-dir",
            "*",
            "--skip-preflight",
            "--model",
            "claude-fake-1",
            "--output",
            str(self.report_path),
            "--format",
            "markdown",  # the tests read the markdown report from stdout (a later --format wins)
            *args,
        ]
        try:
            self.code = main(argv, ctx)
        except SystemExit as exc:  # a parser that exits instead of returning the usage error's code
            self.code = exc.code
        self.stdout, self.stderr = ctx.stdout.getvalue(), ctx.stderr.getvalue()
        self.report = json.loads(self.report_path.read_text()) if self.report_path.exists() else None
        return self

    def case(self, case_id: str) -> dict:
        return next(c for c in self.report["cases"] if c["id"] == case_id)

    def checks(self, case_id: str) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for check in self.case(case_id)["checks"]:
            out.setdefault(check["kind"], []).append(check)
        return out


def judge_requests(api) -> list:
    return [r for r in api.agent_turns() if r.prompt.startswith(JUDGE_HEADER)]


def assert_valid(report: dict) -> None:
    problems = [e.message for e in schemas.validator("behavioral-report").iter_errors(report)]
    assert not problems, problems
