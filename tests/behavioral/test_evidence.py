"""The evidence of what the agent did never holds the installed skill's own text, on any runtime: each
of the five CLIs, driven for real against the fake API, loads the skill and then reads its SKILL.md
with its own read tool, and a literal found only there must not pass `logs_contain`."""

from __future__ import annotations

import pytest

from harness.agent import RunSpec
from harness.behavioral import judge
from harness.behavioral.evidence import passages
from harness.behavioral.scorers import logs_contain
from harness.behavioral.snapshot import Changes
from tests.fakeapi import replies as R
from tests.fakeapi import write_skill
from tests.fakeapi.runtimes import MODEL
from tests.support.agents import connect_fake

NEEDLE = "QUILL-7731"
PROMPT = "please convert my pdf"
SKILL_MD = "{{cwd}}/%s/pdf-tools/SKILL.md"
# Each runtime's own tool for reading a file, with the input key naming the file.
READS = {
    "claude": ("Read", "file_path"),
    "copilot": ("view", "path"),
    "gemini": ("read_file", "file_path"),
    "opencode": ("read", "filePath"),
}


def read_skill_md(runtime: str, skills_folder: str) -> R.Reply:
    path = SKILL_MD % skills_folder
    if runtime == "codex":  # no read tool: its model prints the file with its shell tool
        return R.tool_use("exec_command", {"cmd": f"sed -n 1,80p {path}"})
    tool, key = READS[runtime]
    return R.tool_use(tool, {key: path})


@pytest.mark.parametrize("runtime", ["claude", "copilot", "codex", "gemini", "opencode"])
def test_the_agents_read_of_the_installed_skill_md_is_not_evidence(
    runtime, fake_api, claude_bin, tmp_path, copilot_cache
):
    agent = connect_fake(runtime, fake_api.base_url, claude_bin, tmp_path, copilot_cache)
    body = f"# PDF\nAlways stamp {NEEDLE} on the first page.\n"
    room = {"pdf-tools": write_skill(tmp_path / "repo", "pdf-tools", "Work with PDF files.", body)}
    fake_api.script(
        {PROMPT: [R.skill_for(runtime, "pdf-tools"), read_skill_md(runtime, agent.skills_folder), "Done."]}
    )
    with agent.workspace(room) as workspace:
        model = MODEL if runtime != "gemini" else None  # gemini's own default skips its router
        spec = RunSpec(PROMPT, workspace, model=model, permission_mode="acceptEdits", timeout_s=300)
        trace = agent.run(spec)
        assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
        reads = [c for c in trace.tool_calls if c.read and c.read.endswith("pdf-tools/SKILL.md")]
        assert reads, trace.tool_calls  # the read was made, and its reader named what it read
        # Gemini CLI leaves a read's output out of its stream; the others print the file's text.
        assert (NEEDLE in (reads[-1].result_text or "")) == (runtime != "gemini")
        did = passages(trace, workspace, agent.skills_folder)
        (check,) = logs_contain([NEEDLE], did, trace.injected_skill_text)
        evidence = judge.evidence(trace, workspace, Changes(), agent.skills_folder)
    assert not check.passed, check.detail
    assert NEEDLE not in evidence and "(the installed skill's own files; omitted)" in evidence
