"""A quarantined behavioral case is run and reported but does not gate, every report format listing it;
an expired entry gates again and is a finding. What the quarantine does to a graded case is the
harness's, so the runs are the scripted stand-in's (tests/support/scripted.py), a judge among them.
End to end on the real claude CLI: a quarantined case in
tests/routing/test_quarantine_gating.py::test_a_quarantined_miss_is_reported_everywhere_and_does_not_fail_the_run,
and a judged behavioral case in tests/commands/test_behavioral.py."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.support import scripted as S
from tests.support.helpers import run_cli, structural

pytestmark = pytest.mark.usefixtures("private_temp")
BOTH = "alpha-pos-1,beta-pos-1"  # the default datasets' only cases with an expected behaviour
HELD = "alpha-pos-1"


def judged(ran: S.Ran) -> S.Answer:
    """The judge fails alpha's expectation and passes beta's."""
    failing = "alpha" in ran.prompt
    verdict = {"id": "E1", "pass": not failing, "reason": "it did not" if failing else "it did"}
    return S.says(json.dumps({"verdicts": [verdict]}))


@pytest.fixture
def env(scripted) -> dict:
    """The agent answers in one turn; the judge as `judged`."""
    scripted.script({JUDGE_HEADER: judged}, default=S.says("Done: the job is finished."))
    return scripted.env


def quarantine(repo: Path, expires: str) -> None:
    (repo / ".skillscope").mkdir(exist_ok=True)
    (repo / ".skillscope" / "quarantine.json").write_text(
        '{"cases": [{"id": "'
        + HELD
        + '", "reason": "judge flips on haiku (#9)", "expires": "'
        + expires
        + '"}]}\n'
    )


def behave(repo: Path, env: dict, *args: str) -> tuple[int, str, str, dict]:
    output = repo.parent / "behavioral.json"
    output.unlink(missing_ok=True)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = ["behavioral", "--repo", str(repo), "--skip-preflight", "--no-cache", "--model", "claude-fake-1"]
    code = main([*argv, "--output", str(output), "--only", BOTH, *args], ctx)
    report = json.loads(output.read_text())
    assert [e.message for e in schemas.validator("behavioral-report").iter_errors(report)] == []
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


def case(report: dict, case_id: str) -> dict:
    return next(c for c in report["cases"] if c["id"] == case_id)


def test_a_quarantined_failure_is_run_and_reported_everywhere_and_does_not_fail_the_run(repo, env, tmp_path):
    # Without the entry the same failure gates: the expired entry's test below.
    quarantine(repo, "2999-12-31")
    junit = tmp_path / "junit.xml"
    code, stdout, stderr, report = behave(repo, env, "--format", "markdown", "--junit", str(junit))
    assert code == 0, stderr
    assert report["passed"] is True
    assert report["meta"]["quarantine"] == [
        {"id": HELD, "reason": "judge flips on haiku (#9)", "expires": "2999-12-31"}
    ]
    held, other = case(report, HELD), case(report, "beta-pos-1")
    assert (held["quarantined"], held["status"]) == (True, "fail")  # it ran, and failed
    assert held["checks"] and not all(check["passed"] for check in held["checks"])
    assert (other["quarantined"], other["status"]) == (False, "pass")
    assert "run and reported but not gating" in stdout and f"`{HELD}` (fail, until 2999-12-31" in stdout
    testcase = ET.parse(junit).getroot().find(f".//testcase[@name='{HELD}']")
    assert testcase is not None and testcase.find("failure") is None
    out = testcase.find("system-out")
    assert out is not None and out.text
    assert out.text.startswith("quarantined until 2999-12-31 (judge flips on haiku (#9)), not gating")

    # The text form, rendered from the saved report as the run would have printed it.
    shown = run_cli(["show", str(repo.parent / "behavioral.json"), "--format", "text"], cwd=repo)
    assert shown.code == 0, shown.stderr
    assert "1 quarantined (not gating)" in shown.stdout


def test_an_expired_entry_gates_again_and_is_a_finding(repo, env):
    quarantine(repo, "2000-01-01")
    code, stdout, stderr, report = behave(repo, env, "--format", "text", "--only", HELD)
    assert code == 1, stderr
    assert report["meta"]["quarantine"] == [] and case(report, HELD)["quarantined"] is False
    assert report["passed"] is False
    # The same repo's structural run (the checks every paid run passes first) names the stale entry.
    checked, document = structural(repo, "--skills-dir", "*", tmp=repo.parent)
    assert checked.code == 0, checked.stderr  # a warning: the entry's case already gates again
    stale = [f for f in document["findings"] if f["rule"] == "quarantine-expired"]
    assert [(f["path"], f["line"], f["severity"]) for f in stale] == [
        (".skillscope/quarantine.json", 1, "warning")
    ]
    assert stale[0]["message"].startswith(
        "the quarantine of case `alpha-pos-1` expired on 2000-01-01 (judge flips on haiku (#9))"
    )
