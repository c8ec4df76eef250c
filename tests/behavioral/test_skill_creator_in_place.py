"""A skill-creator evals.json run by the real claude CLI against the scripted API, read in place: the
eval's input file is in the agent's workspace, its expectations are judged, and the report points into
the user's own file."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support.routing import routing_env

pytestmark = pytest.mark.usefixtures("private_temp")
NATIVE = Path(__file__).parents[1] / "acceptance" / "structural" / "skill-creator-native" / "pdf-tools"


def model(request):
    """The agent reads the input file it was handed; the judge passes every statement it is shown."""
    if request.prompt.startswith(JUDGE_HEADER):
        shown = [
            line.split("]")[0].lstrip("[") for line in request.prompt.splitlines() if line.startswith("[E")
        ]
        ids = shown or ["E1", "E2", "E3"]
        return R.text(json.dumps({"verdicts": [{"id": i, "pass": True, "reason": "seen"} for i in ids]}))
    if not request.tool_results:
        return R.tool_use("Bash", {"command": "cat report.pdf"})
    return "Done: wrote the CSV."


def test_an_eval_read_in_place_runs_with_its_input_file_and_points_into_the_file(
    fake_api, claude_bin, tmp_path
):
    repo = tmp_path / "repo"
    shutil.copytree(NATIVE, repo / "pdf-tools")
    fake_api.script(model)
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    output = tmp_path / "behavioral.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = [
        "behavioral",
        "--repo",
        str(repo),
        "--skills-dir",
        "*",
        "--skip-preflight",
        "--no-cache",
        "--model",
        "claude-fake-1",
        "--only",
        "pdf-tools-1",
        "--output",
        str(output),
    ]
    main(argv, ctx)
    report = json.loads(output.read_text())
    assert [e.message for e in schemas.validator("behavioral-report").iter_errors(report)] == []
    case = next(c for c in report["cases"] if c["id"] == "pdf-tools-1")
    assert (case["source"], case["line"]) == ("pdf-tools/evals/evals.json", 4)
    assert case["status"] == "pass", case
    assert [c["expectation"] for c in case["checks"]] == [  # expected_output, then each expectation
        "A CSV file holding the table's rows",
        "The output is a CSV file",
        "Every row of the table is present",
    ]
    agent_results = [r for req in fake_api.agent_turns() for r in req.tool_results]
    assert any("%PDF-1.4 fake" in r["text"] for r in agent_results), agent_results


def test_a_folder_named_in_files_reaches_the_agent_whole(fake_api, claude_bin, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(NATIVE, repo / "pdf-tools")
    pages = repo / "pdf-tools" / "evals" / "files" / "pages"
    (pages / "deep").mkdir(parents=True)
    (pages / "deep" / "two.txt").write_text("page two of the folder\n")
    evals = repo / "pdf-tools" / "evals" / "evals.json"
    data = json.loads(evals.read_text())
    data["evals"][0]["files"] = ["evals/files/pages/"]
    data["evals"][0]["prompt"] = "Summarise every page under pages/"
    evals.write_text(json.dumps(data, indent=2))

    def reads_the_folder(request):
        if request.prompt.startswith(JUDGE_HEADER):
            return model(request)
        if not request.tool_results:
            return R.tool_use("Bash", {"command": "cat pages/deep/two.txt"})
        return "Done."

    fake_api.script(reads_the_folder)
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    output = tmp_path / "behavioral.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), "--skills-dir", "*", "--skip-preflight", "--no-cache"]
    main([*argv, "--model", "claude-fake-1", "--only", "pdf-tools-1", "--output", str(output)], ctx)
    case = next(c for c in json.loads(output.read_text())["cases"] if c["id"] == "pdf-tools-1")
    assert case["status"] == "pass", case
    agent_results = [r for req in fake_api.agent_turns() for r in req.tool_results]
    assert any("page two of the folder" in r["text"] for r in agent_results), agent_results
