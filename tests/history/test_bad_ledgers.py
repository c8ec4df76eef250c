"""A ledger folder holding files that are not reports: one sentence each, naming the file, and the
rest read; reports of other commands and of the lexical engine passed over silently."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from harness.history import ledger
from tests.support.helpers import run_cli

HERE = Path(__file__).parent
CORPUS = HERE / "bad_ledger"
EXPECTED = json.loads((HERE / "bad_ledger.expected.json").read_text(encoding="utf-8"))


def test_each_bad_file_is_one_sentence_naming_it_and_no_traceback(tmp_path):
    shutil.copytree(CORPUS, tmp_path / "runs")
    shown = run_cli(["history", "runs"], cwd=tmp_path)
    assert shown.code == 0, shown.stderr
    said = [line.removeprefix("[history] ") for line in shown.stderr.splitlines()]
    assert said[:-1] == [f"runs/{sentence}" for _, sentence in sorted(EXPECTED.items())]
    assert said[-1].startswith("no graded run in runs: routing (agent engine) and behavioral write")
    assert "Traceback" not in shown.stderr
    for other in ("structural", "sweep", "tune", "compare-matrix"):  # reports of other commands
        assert f"{other}.json" not in shown.stderr + shown.stdout
    assert shown.stdout.startswith("history: 0 case(s) over 0 run(s)")


def test_warnings_go_to_stderr_alone_and_a_saved_report_shows_them_again(tmp_path):
    shutil.copytree(CORPUS, tmp_path / "runs")
    shown = run_cli(["history", "runs"], cwd=tmp_path)
    assert shown.code == 0, shown.stderr
    assert "[history] runs/archive.json: cannot be read" in shown.stderr
    assert "archive.json" not in shown.stdout and "warning" not in shown.stdout
    saved = run_cli(["history", "runs", "--format", "json"], cwd=tmp_path)
    (tmp_path / "history.json").write_text(saved.stdout, encoding="utf-8")
    again = run_cli(["show", "history.json", "--format", "text"], cwd=tmp_path)
    assert again.code == 0, again.stderr
    assert "warning: runs/archive.json: cannot be read" in again.stdout  # the report is all it has


def test_every_command_that_writes_a_report_is_read_or_passed_over_by_name():
    """A report command history knows neither way would be called no skillscope report at all."""
    schemas = Path(ledger.__file__).parents[1] / "schema"
    commands = set()
    for path in schemas.glob("*.schema.json"):
        command = json.loads(path.read_text(encoding="utf-8")).get("properties", {}).get("command", {})
        commands.update([command["const"]] if "const" in command else command.get("enum", []))
    assert commands and commands <= {*ledger.LEDGER_COMMANDS, *ledger.OTHER_COMMANDS}


def test_an_empty_ledger_says_so_and_exits_0_a_missing_path_is_a_usage_error(tmp_path):
    (tmp_path / ".git").mkdir()
    empty = run_cli(["history", "--repo", str(tmp_path)], cwd=tmp_path)
    assert empty.code == 0
    assert "no graded run in .skillscope/runs" in empty.stderr
    missing = run_cli(["history", "nowhere"], cwd=tmp_path)
    assert missing.code == 2
    assert "REPORTS nowhere: no such file or folder" in missing.stderr


def test_a_date_that_is_not_one_is_a_usage_error(tmp_path):
    shown = run_cli(["history", "--since", "last week"], cwd=tmp_path)
    assert shown.code == 2 and "give a date as YYYY-MM-DD" in shown.stderr


def test_the_markdown_report_is_appended_to_the_step_summary(tmp_path):
    (tmp_path / "runs").mkdir()
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    shown = run_cli(["history", "runs"], cwd=tmp_path, environ={"GITHUB_STEP_SUMMARY": str(summary)})
    assert shown.code == 0
    text = summary.read_text()
    assert text.startswith("earlier step\n## skillscope history: 0 case(s) over 0 run(s)")
    assert "No case was graded." in text


def test_a_lexical_report_and_its_latest_copy_count_once(tmp_path):
    # Every run writes its report twice (its own name and latest-<command>.json): two lexical runs
    # are two reports passed over, not three, and a headline with no case names no states.
    shutil.copytree(HERE / "lexical_copies", tmp_path / "runs")
    for _ in range(2):  # the second answer comes from the index history keeps
        shown = run_cli(["history", "runs", "--format", "json"], cwd=tmp_path)
        assert shown.code == 0, shown.stderr
        document = json.loads(shown.stdout)
        assert document["headline"] == "0 case(s) over 0 run(s); 2 lexical report(s) not counted"
        assert sorted(document["lexical"]) == [
            "runs/routing-20261201-100000.json",
            "runs/routing-20261202-100000.json",
        ]  # each named by its own file, not by the copy the next run replaces
