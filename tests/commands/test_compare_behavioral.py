"""`skillscope compare --mode behavioral` end to end: the real claude CLI against the scripted API,
whose agent only finishes the job when the skill is installed."""

from __future__ import annotations

import io
import json
import tempfile

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import live_processes_under

DATASET = {
    "evaluations": evals_for("alpha")["evaluations"]
    + [
        {
            "id": "lift",
            "skill_should_trigger": True,
            "prompt": "Do the alpha job.",
            "logs_contain": ["ALPHA-DONE"],
        },
        {"id": "plain", "skill_should_trigger": True, "prompt": "Say hello.", "logs_contain": ["hello"]},
    ]
}


@pytest.fixture(autouse=True)
def clean_runs(tmp_path, monkeypatch):
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    yield temp
    assert live_processes_under(temp) == []
    assert sorted(p.name for p in temp.iterdir() if p.name.startswith("skillscope-")) == []


def agent(request):
    """Knows the alpha job only from the installed skill's description; says hello either way."""
    if "Say hello" in request.prompt:
        return "hello there"
    return "ALPHA-DONE" if "Does the alpha job" in json.dumps(request.body) else "I do not know that job."


def test_baseline_none_shows_the_lift_and_the_cases_that_need_no_skill(
    tmp_path, fake_api, fake_env, claude_bin
):
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=DATASET)
    fake_api.script(agent)
    output = tmp_path / "compare.json"
    ctx = Context(
        environ={**fake_env, "SKILLSCOPE_CLAUDE": claude_bin},
        cwd=repo,
        stdin=io.StringIO(),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    argv = ["compare", "--repo", str(repo), "--mode", "behavioral", "--skill", "alpha", "--baseline", "none"]
    code = main(
        [*argv, "--repeat", "1", "--only", "lift,plain", "--skip-preflight", "--output", str(output)]
        + ["--format", "markdown"],  # the markdown report on stdout, which this test reads
        ctx,
    )
    assert code == 0, ctx.stderr.getvalue()
    report = json.loads(output.read_text("utf-8"))
    assert {c["id"]: c["label"] for c in report["cases"]} == {"lift": "improvement", "plain": "same-pass"}
    assert report["lift"] == {"no_lift": ["plain"], "needs_skill": ["lift"], "taken_by": {}}
    assert schemas.errors("compare", report) == []
    # Turns as the real CLI counts them, per side and as a delta.
    assert all(c[side]["turns"] >= 1 for c in report["cases"] for side in ("baseline", "candidate"))
    assert report["totals"]["delta"]["turns"] is not None
    out = ctx.stdout.getvalue()
    assert "no lift" in out and "`plain`" in out and "1 improvements" in out
    assert (repo / "alpha" / "SKILL.md").exists()  # the candidate is untouched
