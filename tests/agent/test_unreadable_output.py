"""A line of an agent's output that skillscope's own reader cannot take (a bug of ours) ends that one
run as an error naming the bug: the CLI's processes are ended, the other cases run, the report is
written, and nothing is graded from a half-read trace. Driven with the real claude and codex CLIs
(two readers, one drive loop)."""

from __future__ import annotations

import pytest

from harness.agent import ClaudeEvents, RunSpec
from harness.agent.codex import CodexEvents
from tests.fakeapi import replies as R
from tests.fakeapi import write_skill
from tests.fakeapi.runtimes import MODEL
from tests.support.agents import connect_fake
from tests.support.procs import group_members
from tests.support.routing import CaseRouter, route

MARK = "BREAK-THE-READER"


def break_on_mark(monkeypatch, cls, method: str) -> None:
    original = getattr(cls, method)

    def broken(self, value, *rest):
        if MARK in (value if isinstance(value, str) else repr(value)):
            raise RuntimeError("the reader tripped")
        return original(self, value, *rest)

    monkeypatch.setattr(cls, method, broken)


@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_a_run_whose_output_the_reader_cannot_take_is_an_error_and_ends(
    runtime, monkeypatch, fake_api, claude_bin, tmp_path
):
    break_on_mark(monkeypatch, ClaudeEvents if runtime == "claude" else CodexEvents, "on_event")
    agent = connect_fake(runtime, fake_api.base_url, claude_bin, tmp_path)
    fake_api.script({"convert": [f"{MARK} is what I say", "more"]})
    room = {"pdf-tools": write_skill(tmp_path / "repo", "pdf-tools", "Work with PDF files.")}
    with agent.workspace(room) as workspace:
        trace = agent.run(RunSpec("please convert my pdf", workspace, model=MODEL, timeout_s=300))
    assert trace.stop_reason == "unreadable"
    assert trace.failure == (
        f"skillscope could not read {runtime}'s output (RuntimeError: the reader tripped); "
        "this is a bug in skillscope, please report it"
    )
    assert group_members(trace.pid) == []


def test_routing_errors_only_the_case_whose_output_could_not_be_read(repo, env, fake_api, monkeypatch):
    break_on_mark(monkeypatch, ClaudeEvents, "feed")
    fake_api.script(CaseRouter({"alpha-pos-1": f"{MARK} here", "alpha-pos-2": R.skill("alpha")}))
    run = route(
        repo, env, "--routing-room", "alpha,beta", "--only", "alpha-pos-1,alpha-pos-2", "--skip-preflight"
    )
    assert run.code == 0, run.stderr  # the gate grades what was graded: an error is neither pass nor fail
    assert "[ERROR] alpha-pos-1: expected alpha -> no decision (error, unreadable" in run.stderr
    broken, fine = run.case("alpha-pos-1"), run.case("alpha-pos-2")
    assert (broken["status"], broken["verdict"]) == ("error", "error")
    assert broken["error"].startswith("skillscope could not read claude's output (RuntimeError: the reader")
    assert (fine["status"], fine["verdict"]) == ("pass", "correct_trigger")
