"""`skillscope cost` end to end: one prompt run to completion in the real claude CLI against the
scripted API, with the skill and without it. One run on two models, shared by the tests that read it
(the suite runs --dist loadgroup, so one worker builds it). The retry of a run its CLI failed on its
own, and a bad skill name, on the scripted runtimes (tests/support/scripted.py)."""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL
from tests.fakeapi.server import FakeAPI
from tests.support import scripted as S
from tests.support.routing import live_processes_under, routing_env, skills_repo

PROMPT = "Please do the alpha job, variant 1."
CUT_SHORT = "Model stream ended without a finish reason."  # what gemini's CLI says when it gives up on one


pytestmark = [pytest.mark.usefixtures("clean_runs"), pytest.mark.xdist_group("cost-command")]


def agent(request):
    """Uses alpha when it is installed, then finishes; answers alone otherwise."""
    if request.tool_results:
        return "Done with alpha."
    return R.skill("alpha") if "Does the alpha job" in json.dumps(request.body) else "I answer myself."


def cost(tmp_path: Path, env: dict[str, str], *args: str):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    output = tmp_path / "cost.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main(
        [
            "cost",
            PROMPT,
            "--repo",
            str(repo),
            "--skip-preflight",
            "--output",
            str(output),
            "--format",
            "markdown",
            *args,
        ],
        ctx,
    )
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


@dataclass
class Measured:
    code: int
    stdout: str
    stderr: str
    report: dict


def per_model(request):
    """Model a uses alpha when it is installed; model b never fires the skill, so its figures differ."""
    return agent(request) if request.model == "claude-fake-a" else "I answer myself."


@pytest.fixture(scope="module")
def measured(claude_bin, tmp_path_factory) -> Iterator[Measured]:
    """The prompt with alpha and without it, beta in the room, on two models: once for the module."""
    base = tmp_path_factory.mktemp("cost")
    temp = base / "temp"
    temp.mkdir()
    with FakeAPI() as api, pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(temp))  # as clean_runs does for one test
        api.script(per_model)
        args = ("--skill", "alpha", "--room", "beta", "--model", "claude-fake-a,claude-fake-b")
        code, out, err, report = cost(base, routing_env(api.base_url, claude_bin, base / "home"), *args)
    assert live_processes_under(temp) == []
    assert sorted(p.name for p in temp.iterdir() if p.name.startswith("skillscope-")) == []
    yield Measured(code, out, err, report)


def test_with_and_without_the_skill_side_by_side(measured):
    report, out = measured.report, measured.stdout
    assert measured.code == 0, measured.stderr
    assert schemas.errors("cost-report", report) == []
    with_skill, without = report["sides"]["with"], report["sides"]["without"]
    assert with_skill["fired"] == ["alpha"] and without["fired"] == []
    assert with_skill["turns"] > without["turns"] >= 1
    assert with_skill["input_tokens"] > 0 and with_skill["finished"] == without["finished"] == 1
    assert report["meta"]["room"] == ["beta", "alpha"]
    assert "| skill fired" in out and "with the skill" in out and "without the skill" in out


def test_an_unknown_skill_is_named_before_any_run(tmp_path, scripted):
    code, _out, err, _report = cost(tmp_path, scripted.env, "--skill", "ghost")
    assert code == 2 and "no skill named ghost" in err
    assert scripted.runs == []


def test_a_run_its_cli_failed_on_its_own_runs_once_more_and_the_report_says_so(tmp_path, scripted):
    """The harness's one fresh retry of a runtime's own failure, on gemini scripted: its first run ends
    as gemini's CLI gives up on a cut stream. The real CLI's failure being recognised and retried is
    tests/routing/test_retry.py."""
    first: list[Path] = []

    def cut_in_the_first_workspace(ran: S.Ran) -> S.Answer:
        first[:1] = first[:1] or [ran.spec.workspace]
        return S.cli_fails(CUT_SHORT) if ran.spec.workspace == first[0] else S.NO_SKILL

    scripted.script(cut_in_the_first_workspace)
    code, out, err, report = cost(tmp_path, scripted.env, "--agent", "gemini", "--model", GEMINI_MODEL)
    assert code == 0, err[-3000:]
    assert schemas.errors("cost-report", report) == []
    (run,) = report["runs"]
    assert run["status"] == "pass" and run["retried"].startswith("gemini's model stream ended early")
    assert len({ran.spec.workspace for ran in scripted.runs}) == len(scripted.runs) == 2
    assert "### Retried runs" in out and "gemini's model stream ended early" in out


def test_each_model_is_measured_side_by_side(measured):
    """--model a,b: both sides on each model; model b never fires the skill, so its figures differ."""
    from harness.report import html

    report, out = measured.report, measured.stdout
    assert measured.code == 0, measured.stderr
    assert [m["model"] for m in report["models"]] == ["claude-fake-a", "claude-fake-b"]
    a, b = (m["sides"] for m in report["models"])
    assert a["with"]["fired"] == ["alpha"] and b["with"]["fired"] == [] and b["without"]["fired"] == []
    assert report["sides"] == a  # `sides` stays the first model's
    assert sorted((r["model"], r["side"]) for r in report["runs"]) == [
        ("claude-fake-a", "with"),
        ("claude-fake-a", "without"),
        ("claude-fake-b", "with"),
        ("claude-fake-b", "without"),
    ]
    assert "with the skill on claude-fake-b" in out and "without the skill on claude-fake-a" in out
    page = html.render(report)  # the page's table has a column for each side on each model, as stdout's
    assert "with the skill on claude-fake-b" in page and "without the skill on claude-fake-a" in page
