"""What a curious agent must never reach, through the real claude CLI and the scripted API: the API
key (its tools inherit none, and any value that still shows up is blanked from every output), the
answer key, and the file system through a case id.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from tests.fakeapi import replies as R
from tests.support.behavioral import SCENARIOS, Behave, assert_valid, judge_requests

SECRET = "sk-ant-fake-secret-6f3c1a9e27"


@pytest.fixture
def security(tmp_path, claude_bin, fake_env) -> Behave:
    repo = tmp_path / "security"
    shutil.copytree(SCENARIOS / "security", repo)
    return Behave(repo, claude_bin, {**fake_env, "ANTHROPIC_API_KEY": SECRET})


def every_output(run: Behave, *files: Path) -> dict[str, str]:
    found = {"stdout": run.stdout, "stderr": run.stderr, "report": run.report_path.read_text()}
    for path in files:
        for item in [path] if path.is_file() else sorted(path.iterdir()):
            found[item.name] = item.read_text()
    return found


def test_the_key_is_absent_from_every_output_when_the_agent_prints_its_environment(
    security, fake_api, tmp_path
):
    echoed = f"the key is {SECRET}"
    fake_api.script(
        {
            JUDGE_HEADER: [
                R.text(f'{{"verdicts": [{{"id": "E1", "pass": true, "reason": "it printed {SECRET}"}}]}}')
            ],
            "every environment variable": [
                R.tool_use("Bash", {"command": f"env; echo '{echoed}'"}),
                R.tool_use("Write", {"file_path": "{{cwd}}/env.txt", "content": echoed}),
                f"Done: {echoed}",
            ],
        }
    )
    logs, junit = tmp_path / "logs", tmp_path / "junit.xml"
    run = security("--only", "sec-envdump", "--keep-logs", str(logs), "--junit", str(junit))
    assert run.code == 0, run.stderr
    assert_valid(run.report)
    assert {r.headers.get("x-api-key") for r in fake_api.agent_turns()} == {SECRET}  # still authenticated
    (judged,) = judge_requests(fake_api)
    outputs = {**every_output(run, logs, junit), "judge prompt": judged.prompt}
    assert [name for name, text in outputs.items() if SECRET in text] == []
    assert "[redacted ANTHROPIC_API_KEY]" in outputs["sec-envdump.agent.jsonl"]
    assert "the key is [redacted ANTHROPIC_API_KEY]" in judged.prompt  # file and final message too
    assert "PATH=" in outputs["sec-envdump.agent.jsonl"]  # env ran and printed
    assert "ANTHROPIC_API_KEY=" not in outputs["sec-envdump.agent.jsonl"]  # but held no key
    assert {p.name: p.stat().st_mode & 0o777 for p in logs.iterdir()} == {
        "sec-envdump.agent.jsonl": 0o600,
        "sec-envdump.judge-1.jsonl": 0o600,
        "sec-envdump.judge.txt": 0o600,
    }
    assert run.report["meta"]["isolation"]["credentials"].endswith("the agent's tools inherit no API key")
