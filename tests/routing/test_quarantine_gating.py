"""A quarantined case is run and reported but does not gate: end to end with the real claude CLI
against the scripted API, every report format listing it (the second run replays the first's samples
from the result cache, and the text report is the same report shown again); an expired entry on the
scripted stand-in (tests/support/scripted.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.routing import CaseRouter, route, shown, valid

pytestmark = pytest.mark.usefixtures("private_temp")
CASES = "alpha-pos-1,alpha-pos-2"


def quarantine(repo, expires: str) -> None:
    (repo / ".skillscope").mkdir(exist_ok=True)
    (repo / ".skillscope" / "quarantine.json").write_text(
        '{"cases": [{"id": "alpha-pos-1", "reason": "misses on haiku (#7)", "expires": "' + expires + '"}]}\n'
    )


def test_a_quarantined_miss_is_reported_everywhere_and_does_not_fail_the_run(fake_api, repo, env, tmp_path):
    fake_api.script(CaseRouter({"alpha-pos-2": R.skill("alpha")}))  # alpha-pos-1 misses
    args = ["--routing-room", "alpha,beta", "--skip-preflight", "--no-canary", "--only", CASES]
    unquarantined = route(repo, env, *args)
    assert unquarantined.code == 1, unquarantined.stderr
    assert unquarantined.verdicts() == {"alpha-pos-1": "missed_trigger", "alpha-pos-2": "correct_trigger"}

    quarantine(repo, "2999-12-31")
    junit = tmp_path / "junit.xml"
    run = route(repo, env, *args, "--junit", str(junit))
    assert run.code == 0, run.stderr
    report = run.report
    assert valid(report) == []
    assert report["meta"]["quarantine"] == [
        {"id": "alpha-pos-1", "reason": "misses on haiku (#7)", "expires": "2999-12-31"}
    ]
    assert (run.case("alpha-pos-1")["quarantined"], run.case("alpha-pos-1")["status"]) == (True, "fail")
    assert run.case("alpha-pos-2")["quarantined"] is False
    reason = "1/1 correct (1 quarantined case(s) not counted); meets the bar of 1"  # never read as 1/2
    assert report["gate"] == {"passed": True, "reason": reason}
    assert (report["totals"]["graded"], report["totals"]["gated"]["quarantined_left_out"]) == (2, 1)
    assert (
        "Quarantined case(s), run and reported but not gating: `alpha-pos-1` (fail, until 2999-12-31: "
        "misses on haiku (#7))." in run.stdout
    )
    case = ET.parse(junit).getroot().find(".//testcase[@name='alpha-pos-1']")
    assert case is not None and case.find("failure") is None
    out = case.find("system-out")
    assert out is not None and out.text
    assert out.text.startswith("quarantined until 2999-12-31 (misses on haiku (#7)), not gating")

    text = shown(run.output, "text", env)
    assert "1 quarantined (not gating)" in text
    assert "misses on haiku (#7)), not gating]" in text  # its line, as a warning


def test_an_expired_entry_no_longer_holds_the_case_back_from_the_gate(scripted, repo):
    scripted.script({"alpha-pos-2": S.fires("alpha")})
    quarantine(repo, "2000-01-01")
    args = ("--routing-room", "alpha,beta", "--skip-preflight", "--no-cache", "--only", CASES)
    run = route(repo, scripted.env, *args)
    assert run.code == 1, run.stderr
    assert run.report["meta"]["quarantine"] == [] and run.case("alpha-pos-1")["quarantined"] is False
