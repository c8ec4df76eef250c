"""The fake API is good enough for the real `claude` CLI."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.fakeapi import replies as R
from tests.fakeapi import write_skill

ISOLATED = [
    "--setting-sources",
    "project",
    "--settings",
    '{"enabledPlugins":{"cc-plugin-plugin-authoring@builtin":false}}',
]
NO_BUNDLED = {"CLAUDE_CODE_DISABLE_BUNDLED_SKILLS": "1"}


def _workspace(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    skills = workspace / ".claude" / "skills"
    write_skill(skills, "pdf-tools", "Work with PDF files.", "# PDF\nSay PDF-SKILL-ACTIVE.\n")
    write_skill(skills, "csv-report", "Summarize CSV files.")
    return workspace


def test_text_reply_reaches_the_result(fake_api, run_claude):
    fake_api.script(["hello from the fake model"])
    run = run_claude("say hello")
    assert run.returncode == 0, run.stderr
    assert run.result["result"] == "hello from the fake model"
    assert fake_api.agent_turns()[0].prompt == "say hello"


def test_skill_tool_use_is_launched_by_the_cli(fake_api, run_claude, tmp_path):
    fake_api.script([R.skill("pdf-tools"), "finished"])
    run = run_claude("convert my pdf", _workspace(tmp_path), ISOLATED, NO_BUNDLED)
    assert run.returncode == 0, run.stderr
    assert [u["input"] for u in run.tool_uses("Skill")] == [{"skill": "pdf-tools"}]
    launched = [
        block["content"]
        for event in run.of_type("user")
        for block in event["message"]["content"]
        if block.get("type") == "tool_result"
    ]
    assert launched == ["Launching skill: pdf-tools"]
    first, second = fake_api.agent_turns()
    assert set(first.skill_listing) == {"pdf-tools", "csv-report"}
    assert first.cwd == str(tmp_path / "ws")
    assert second.tool_results[0]["text"] == "Launching skill: pdf-tools"
    assert "PDF-SKILL-ACTIVE" in str(second.messages[-1])


def test_overloaded_api_fails_the_run(fake_api, run_claude):
    fake_api.script([R.error(529)])
    run = run_claude("anything")
    assert run.returncode == 1
    assert run.result["is_error"] is True
    assert run.result["api_error_status"] == 529


def test_delay_holds_the_reply_back(fake_api, run_claude):
    fake_api.script([R.text("late", delay_s=0.5)])
    run = run_claude("wait for it")
    assert run.result["result"] == "late"
    (turn,) = fake_api.agent_turns()
    assert turn.ended - turn.started >= 0.5  # measured on the server, not a timing bound


def test_write_with_cwd_template_under_accept_edits(fake_api, run_claude, tmp_path):
    fake_api.script([R.tool_use("Write", {"file_path": "{{cwd}}/out.txt", "content": "hi\n"})])
    workspace = tmp_path / "ws"
    run = run_claude("write it", workspace, ["--permission-mode", "acceptEdits"])
    assert run.returncode == 0, run.stderr
    assert (workspace / "out.txt").read_text() == "hi\n"


def test_parallel_clis_get_their_own_session_scripts(fake_api, run_claude):
    sessions = [str(uuid.uuid4()) for _ in range(3)]
    all_arrived = threading.Barrier(3, timeout=60)  # each reply waits for the other runs

    def reply_for(index: int):
        def router(request):
            all_arrived.wait()
            return f"reply for run {index}"

        return router

    for index, session in enumerate(sessions):
        fake_api.script(reply_for(index), session=session)

    def run(index: int):
        return run_claude(f"run {index}", extra_args=["--session-id", sessions[index]])

    with ThreadPoolExecutor(3) as pool:
        runs = list(pool.map(run, range(3)))
    assert [r.result["result"] for r in runs] == [f"reply for run {i}" for i in range(3)]
    for session in sessions:
        assert len(fake_api.agent_turns(session)) == 1
    assert fake_api.max_concurrency() == 3
