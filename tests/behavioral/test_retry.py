"""A behavioral case whose agent CLI failed on its own (its runtime's RetryRule) runs once more in a fresh
workspace, and the reports say so: Gemini's runtime scripted (tests/support/scripted.py), the case's
first run ending as Gemini CLI gives up on a cut stream, the second writing the file the case expects.
Which failure is retried, in a fresh workspace, and what the reports say is the harness's; the real
Gemini CLI's cut stream recognised and retried end to end is
tests/routing/test_retry.py::test_an_early_end_of_the_stream_is_retried_once_fresh_and_every_report_says_so."""

from __future__ import annotations

import io
import json

import pytest

from harness.cli import main
from harness.context import Context
from tests.fakeapi.runtimes import GEMINI_MODEL
from tests.support import scripted as S
from tests.support.behavioral import assert_valid
from tests.support.helpers import evals_for, make_skill

EARLY_END = "gemini's model stream ended early"
CUT = S.cli_fails("Model stream ended without a finish reason.")
WRITES = S.calls(
    ("Write", {"file_path": "{{cwd}}/out.txt", "content": "done\n"}, "ok"), then=S.says("Wrote out.txt.")
)


@pytest.mark.usefixtures("private_temp")
def test_a_case_the_cli_failed_on_its_own_runs_again_fresh_and_passes_saying_so(scripted, tmp_path):
    dataset = evals_for("alpha")
    first, second = dataset["evaluations"][:2]
    second["expected_behavior"] = first.pop("expected_behavior")  # Tier 0 wants one; this case needs none
    first["files_exist"] = ["out.txt"]
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=dataset)
    scripted.script({"alpha-pos-1": [CUT, WRITES]})
    output = tmp_path / "report.json"
    ctx = Context(
        environ=scripted.env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = ["behavioral", "--repo", str(repo), "--agent", "gemini", "--judge-agent", "gemini"]
    argv += ["--model", GEMINI_MODEL, "--skip-preflight", "--only", "alpha-pos-1", "--output", str(output)]
    code = main([*argv, "--format", "markdown"], ctx)
    assert code == 0, ctx.stderr.getvalue()[-3000:]
    report = json.loads(output.read_text(encoding="utf-8"))
    assert_valid(report)
    (case,) = report["cases"]
    assert case["status"] == "pass" and case["retried"].startswith(EARLY_END)
    assert [a["attempt"] for a in case["attempts"]] == [1, 2]
    assert "Model stream ended without a finish reason" in case["attempts"][0]["error"]
    runs = scripted.case_runs()
    assert len({ran.spec.workspace for ran in runs}) == len(runs) == 2
    assert {ran.runtime for ran in runs} == {"gemini"}
    shown = ctx.stdout.getvalue()
    assert "### Retried cases" in shown and EARLY_END in shown
