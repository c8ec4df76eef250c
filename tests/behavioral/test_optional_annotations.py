"""An optional behavioral leg (`--annotations warnings`) annotates its errored and failed cases as
GitHub warnings, never ::error, and still exits 1. Which level an annotation takes is the harness's, so
the runs are the scripted stand-in's (tests/support/scripted.py); annotations written from a real
claude CLI's run are tests/routing/test_routing_cli.py::test_every_report_is_written."""

from __future__ import annotations

import io
import json

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.support import scripted as S

pytestmark = pytest.mark.usefixtures("private_temp")


def agent(ran: S.Ran) -> S.Answer:
    """alpha's case errors (the API is overloaded); beta's agent does the job and the judge fails it."""
    if ran.prompt.startswith(JUDGE_HEADER):
        return S.says(json.dumps({"verdicts": [{"id": "E1", "pass": False, "reason": "it did not"}]}))
    return (
        S.fails("API Error: 529 Overloaded")
        if "alpha job" in ran.prompt
        else S.says("Done: the job is finished.")
    )


def annotations(repo, env, *args: str) -> tuple[int, list[str]]:
    ctx = Context(
        environ={**env, "GITHUB_ACTIONS": "true"},
        cwd=repo,
        stdin=io.StringIO(),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    argv = ["behavioral", "--repo", str(repo), "--skip-preflight", "--model", "claude-fake-1", "--no-cache"]
    output = ["--output", str(repo.parent / "behavioral.json"), "--only", "alpha-pos-1,beta-pos-1"]
    code = main([*argv, *output, *args], ctx)
    return code, [line for line in ctx.stdout.getvalue().splitlines() if line.startswith("::")]


def test_an_optional_leg_annotates_its_errored_and_failed_cases_as_warnings(scripted, repo):
    scripted.script(agent)
    env = scripted.env
    code, required = annotations(repo, env, "--only", "alpha-pos-1")  # the default, on one case
    assert code == 1
    assert {line.split(" ", 1)[0] for line in required if "case `" in line} == {"::error"}
    code, optional = annotations(repo, env, "--annotations", "warnings")
    assert code == 1  # the leg's outcome is the run's: the workflow records it, the annotation stays amber
    cases = [line for line in optional if "case `" in line]
    assert len(cases) == 2 and all(line.startswith("::warning ") for line in cases)
    assert any("alpha-pos-1` errored (not graded)" in line for line in cases)
    assert not [line for line in optional if line.startswith("::error")]
