"""A skill-creator evals.json run by the real claude CLI against the scripted API, read in place: the
eval's input file and a folder named in its `files` are in the agent's workspace, its expectations are
judged, and the report points into the user's own file. One run for the module; each test reads one
fact of it."""

from __future__ import annotations

import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R
from tests.support.routing import routing_env
from tests.support.temp_dirs import temp_under

pytestmark = pytest.mark.xdist_group("skill-creator-in-place")
NATIVE = Path(__file__).parents[1] / "acceptance" / "structural" / "skill-creator-native" / "pdf-tools"
FILES = '"files": ["evals/files/report.pdf"],'
WITH_A_FOLDER = '"files": ["evals/files/report.pdf", "evals/files/pages/"],'  # on the same line


def model(request):
    """The agent reads the input file and the folder's file it was handed; the judge passes every
    statement it is shown."""
    if request.prompt.startswith(JUDGE_HEADER):
        shown = [
            line.split("]")[0].lstrip("[") for line in request.prompt.splitlines() if line.startswith("[E")
        ]
        ids = shown or ["E1", "E2", "E3"]
        return R.text(json.dumps({"verdicts": [{"id": i, "pass": True, "reason": "seen"} for i in ids]}))
    if not request.tool_results:
        return R.tool_use("Bash", {"command": "cat report.pdf pages/deep/two.txt"})
    return "Done: wrote the CSV."


@dataclass(frozen=True)
class InPlace:
    case: dict  # the eval's case in the report
    tool_results: list[dict]  # what the agent's tools returned to it


@pytest.fixture(scope="module")
def in_place(claude_bin, tmp_path_factory) -> InPlace:
    tmp = tmp_path_factory.mktemp("in-place")
    repo = tmp / "repo"
    shutil.copytree(NATIVE, repo / "pdf-tools")
    pages = repo / "pdf-tools" / "evals" / "files" / "pages"
    (pages / "deep").mkdir(parents=True)
    (pages / "deep" / "two.txt").write_text("page two of the folder\n")
    evals = repo / "pdf-tools" / "evals" / "evals.json"
    assert FILES in evals.read_text()
    evals.write_text(evals.read_text().replace(FILES, WITH_A_FOLDER))
    output = tmp / "behavioral.json"
    with FakeAPI(model) as api, temp_under(tmp / "temp"):
        env = routing_env(api.base_url, claude_bin, tmp / "home")
        ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
        argv = ["behavioral", "--repo", str(repo), "--skills-dir", "*", "--skip-preflight", "--no-cache"]
        main([*argv, "--model", "claude-fake-1", "--only", "pdf-tools-1", "--output", str(output)], ctx)
        results = [r for req in api.agent_turns() for r in req.tool_results]
    report = json.loads(output.read_text())
    assert [e.message for e in schemas.validator("behavioral-report").iter_errors(report)] == []
    return InPlace(next(c for c in report["cases"] if c["id"] == "pdf-tools-1"), results)


def test_an_eval_read_in_place_runs_with_its_input_file_and_points_into_the_file(in_place):
    case = in_place.case
    assert (case["source"], case["line"]) == ("pdf-tools/evals/evals.json", 4)
    assert case["status"] == "pass", case
    assert [c["expectation"] for c in case["checks"]] == [  # expected_output, then each expectation
        "A CSV file holding the table's rows",
        "The output is a CSV file",
        "Every row of the table is present",
    ]
    assert any("%PDF-1.4 fake" in r["text"] for r in in_place.tool_results), in_place.tool_results


def test_a_folder_named_in_files_reaches_the_agent_whole(in_place):
    assert in_place.case["status"] == "pass", in_place.case
    assert any("page two of the folder" in r["text"] for r in in_place.tool_results), in_place.tool_results
