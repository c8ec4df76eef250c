"""What a curious agent must never reach, through the real claude CLI and the scripted API: the API
key (its tools inherit none, and any value that still shows up is blanked from every output), the
answer key, and the file system through a case id.
"""

from __future__ import annotations

import base64
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.secrets import encodings
from tests.fakeapi import replies as R
from tests.support.behavioral import SCENARIOS, Behave, assert_valid, judge_requests
from tests.support.helpers import make_skill
from tests.support.routing import route
from tests.support.sandbox import path_without

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
    # The CLI's key variable holds the run's stand-in token, never the key.
    assert "ANTHROPIC_API_KEY=skillscope-run-" in outputs["sec-envdump.agent.jsonl"]
    assert {p.name: p.stat().st_mode & 0o777 for p in logs.iterdir()} == {
        "sec-envdump.agent.jsonl": 0o600,
        "sec-envdump.judge-1.jsonl": 0o600,
        "sec-envdump.judge.txt": 0o600,
    }
    assert_key_claim(run)


def assert_key_claim(run: Behave) -> None:
    """The report claims the key is out of the tools' reach only where it is: as root (which reads
    any process's memory) the run says up front that it is not, and the report says the same."""
    credentials = run.report["meta"]["isolation"]["credentials"]
    if os.geteuid() == 0:
        assert "the agent's tools run as root" in credentials and "could read the key" in credentials
        assert "the model key is not out of the agent's reach" in run.stderr.split("[1/")[0]
    else:
        assert credentials.endswith("the agent's tools inherit no API key")
        assert "not out of the agent's reach" not in run.stderr


# What an agent hunting for the key tries in its shell: every file of its CLI's config folder (the key
# helper's file lived there), its environment encoded, and every other process's environment.
HUNT = (
    'find "$CLAUDE_CONFIG_DIR" "$HOME" -type f -exec cat {} + ; '
    'cat "$CLAUDE_CONFIG_DIR"/credential ; env | base64 -w0 ; echo ; env | base64 ; '
    "env | grep ^CLAUDE_CONFIG_DIR= | base64 -w0 ; echo ; "
    "env | xxd -p ; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null | "
    "grep -i -e key -e token | base64 -w0"
)


def test_without_the_sandbox_the_agents_shell_finds_no_key_in_any_form(security, fake_api, tmp_path):
    security.env = {
        **security.env,
        "PATH": str(path_without("bwrap", security.env["PATH"], tmp_path / "bin")),
    }
    fake_api.script(
        {
            JUDGE_HEADER: [R.text('{"verdicts": [{"id": "E1", "pass": true, "reason": "it looked"}]}')],
            "every environment variable": [R.tool_use("Bash", {"command": HUNT}), "Looked everywhere."],
        }
    )
    logs = tmp_path / "logs"
    run = security("--only", "sec-envdump", "--keep-logs", str(logs), "--sandbox")
    assert run.code == 0, run.stderr
    assert run.report["meta"]["sandbox"]["status"] == "unavailable"  # a stock runner: no bubblewrap
    assert {r.headers.get("x-api-key") for r in fake_api.agent_turns()} == {SECRET}
    (hunted,) = [r for turn in fake_api.agent_turns() for r in turn.tool_results]
    assert "firstStartVersion" in hunted["text"]  # the config folder's files were read
    assert base64.b64encode(b"CLAUDE_CONFIG_DIR=").decode()[:20] in hunted["text"]  # and env encoded
    encoded = encodings(SECRET)  # as is, base64 at every alignment, hex, percent-encoded
    sent_back = [form for form in encoded if form in hunted["text"]]
    outputs = {**every_output(run, logs), "judge prompt": judge_requests(fake_api)[0].prompt}
    kept = [(name, form) for name, text in outputs.items() for form in encoded if form in text]
    assert sent_back == [] and kept == []
    assert_key_claim(run)


# --- a case id built to escape -----------------------------------------------------------------

ESCAPING_IDS = ["../../../../escaped-by-id", "/tmp/skillscope-escaped-absolute-id", "nested/escaped/../../id"]


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def traversal(tmp_path) -> Path:
    """The scenario four folders deep, so that `../../../..` from its logs folder still lands in tmp_path."""
    repo = tmp_path / "a" / "b" / "c" / "traversal"
    shutil.copytree(SCENARIOS / "traversal", repo)
    return repo


def assert_contained(tmp_path: Path, before: set[Path], allowed: list[Path], logs: Path) -> None:
    new = files_under(tmp_path) - before
    strays = [p for p in new if not any(p.is_relative_to(folder) for folder in allowed)]
    assert strays == []
    assert all(p.parent == logs for p in new if p.is_relative_to(logs))  # never a sub-folder
    assert not [p for p in Path("/tmp").glob("skillscope-escaped-*")]


def test_behavioral_given_escaping_case_ids_keeps_every_log_and_report_in_its_folder(
    traversal, tmp_path, claude_bin, fake_env, fake_api
):
    run = Behave(traversal, claude_bin, fake_env)
    out = tmp_path / "a" / "b" / "c" / "out"
    logs, junit = out / "logs", out / "junit.xml"
    run.report_path = out / "report.json"
    before = files_under(tmp_path)
    # The dataset schema refuses these ids; demoting the rule is how they could still reach a run.
    run(
        "--warn",
        "dataset-schema",
        "--keep-logs",
        str(logs),
        "--junit",
        str(junit),
        "--no-cache",
        "--no-sandbox",
    )
    assert run.code == 0, run.stderr
    assert_valid(run.report)
    assert [c["id"] for c in run.report["cases"]] == ESCAPING_IDS  # reported as written
    assert {c["status"] for c in run.report["cases"]} == {"pass"}
    assert_contained(tmp_path, before, [out, traversal / ".skillscope", tmp_path / "env"], logs)
    kept = sorted(p.name for p in logs.iterdir())
    assert len(kept) == 3 and all(name.endswith(".agent.jsonl") and "/" not in name for name in kept)
    assert {c.get("name") for c in ET.parse(junit).getroot().iter("testcase")} == set(ESCAPING_IDS)


def test_routing_given_escaping_case_ids_keeps_every_log_and_report_in_its_folder(
    traversal, tmp_path, claude_bin, fake_api, env
):
    out = tmp_path / "a" / "b" / "c" / "out"
    logs, junit = out / "logs", out / "junit.xml"
    before = files_under(tmp_path)
    routed = route(
        traversal,
        env,
        "--warn",
        "dataset-schema",
        "--keep-logs",
        str(logs),
        "--junit",
        str(junit),
        "--no-cache",
        "--no-builtin-negatives",  # the escaping ids are the dataset's own
        "--skip-preflight",
        "--model",
        "claude-fake-1",
        output=out / "routing.json",
    )
    assert routed.output.exists(), routed.stderr
    ids = {c["id"] for c in routed.report["cases"]}
    assert {*ESCAPING_IDS, ".."} <= ids
    assert_contained(tmp_path, before, [out, traversal / ".skillscope", tmp_path / "home"], logs)
    assert all(p.parent == logs for p in logs.rglob("*"))
    assert len(list(logs.iterdir())) == len(ids) + 1  # and the canary's


# --- the answer key on the disk ------------------------------------------------------------------


def test_an_agent_hunting_the_answer_key_on_the_disk_is_blocked_and_never_judged(security, fake_api):
    dataset = security.repo / "sec-probe" / "evals" / "evals.json"
    hunt = [
        R.tool_use("Bash", {"command": "find / -maxdepth 1 -name evals.json 2>/dev/null"}),
        R.tool_use("Bash", {"command": f"cat {dataset}"}),
        "The answers mention SENTINEL-ANSWER-KEY-31337.",
    ]
    fake_api.script({JUDGE_HEADER: [R.text("{}")], "grading answers": hunt + hunt})
    run = security("--only", "sec-answer-key")
    assert run.code == 1, run.stderr
    assert_valid(run.report)
    case = run.report["cases"][0]
    assert (case["status"], case["blocked"], case["checks"]) == ("blocked", "outside-workspace", [])
    for attempt in case["attempts"]:
        named = {(o["kind"], o["path"]) for o in attempt["isolation"]}
        assert {("command", "/"), ("command", str(dataset))} <= named
    assert judge_requests(fake_api) == []  # what it found never reaches a grader


UNSAFE_IDS = ["alpha-\x1b[31m-red", "alpha-bell-\x07", "alpha-\u202eevil", "alpha-zero-\u200bwidth"]
RAW = ("\x1b", "\x07", "\u202e", "\u200b")


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_case_ids_reach_the_terminal_escaped_in_progress_and_in_the_report(tmp_path, scripted, fmt):
    """Every line a person's terminal gets from a routing run, stderr's progress included. What is
    written is the harness's, so the runtime is scripted (its model answers every case itself); the
    escaping case ids reaching the real CLI's runs and logs are the traversal tests above."""
    root = tmp_path / "repo"
    cases = [
        {"id": i, "skill_should_trigger": False, "prompt": f"Do the alpha job, variant {n}."}
        for n, i in enumerate(UNSAFE_IDS)
    ]
    make_skill(root, "alpha", evals={"evaluations": cases})
    (root / ".git").mkdir()
    routed = route(
        root,
        scripted.env,
        *("--warn", "dataset-schema,tier0-behavior", "--no-cache", "--format", fmt, "--min-accuracy", "0"),
        *("--no-builtin-negatives", "--no-canary"),  # the unsafe ids are the dataset's own
    )
    assert routed.code == 0, routed.stderr
    assert "[4/4]" in routed.stderr  # a progress line was written for each case
    for stream in (routed.stderr, routed.stdout):
        assert not [raw for raw in RAW if raw in stream]
    assert "\\u202e" in routed.stderr
