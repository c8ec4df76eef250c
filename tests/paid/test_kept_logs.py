"""What a report records of the logs its run kept, and how a kept file is judged against that record."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import pytest

from harness.errors import UsageError
from harness.paid.kept_logs import KeptFolder, WithKeptLogs, recorded, written_by_run


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_only_the_files_a_run_wrote_are_recorded(tmp_path):
    logs = tmp_path / "logs"
    (logs / "claude").mkdir(parents=True)
    (logs / "untouched.jsonl").write_text("earlier run\n")
    (logs / "rewritten.jsonl").write_text("earlier run\n")
    folder = KeptFolder.before_run(logs)

    (logs / "rewritten.jsonl").write_text("this run, longer\n")
    (logs / "claude" / "new.jsonl").write_text("this run\n")
    assert folder.written() == {
        "claude/new.jsonl": digest("this run\n"),
        "rewritten.jsonl": digest("this run, longer\n"),
    }


def test_a_folder_made_by_the_run_is_recorded_whole(tmp_path):
    folder = KeptFolder.before_run(tmp_path / "logs")  # not there yet: the run makes it
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.jsonl").write_text("x")
    assert folder.written() == {"a.jsonl": digest("x")}


def test_a_link_is_never_recorded(tmp_path):
    (tmp_path / "elsewhere.jsonl").write_text("x")
    folder = KeptFolder.before_run(tmp_path / "logs")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    assert folder.written() == {}


@dataclass
class Plain:
    command: str = "routing"
    passed: bool = True

    def to_json(self) -> dict:
        return {"command": self.command}


def test_the_report_carries_the_record_and_the_results_own_schema():
    wrapped = WithKeptLogs(Plain(), {"a.jsonl": digest("x")})
    assert (wrapped.command, wrapped.passed, wrapped.schema) == ("routing", True, "routing-report")
    assert wrapped.to_json() == {"command": "routing", "kept_logs": {"a.jsonl": digest("x")}}
    assert recorded(wrapped.to_json()) == {"a.jsonl": digest("x")}
    assert recorded({"command": "routing"}) is None  # a report from before the record


def test_a_kept_file_is_the_runs_only_while_it_matches_the_record(tmp_path):
    log = tmp_path / "a.jsonl"
    log.write_text("this run\n")
    kept = {"a.jsonl": digest("this run\n")}
    assert written_by_run("a.jsonl", log, kept, "run.json")
    assert not written_by_run("b.jsonl", tmp_path / "b.jsonl", kept, "run.json")  # another run's name

    log.write_text("a later run\n")
    with pytest.raises(UsageError) as refused:
        written_by_run("a.jsonl", log, kept, "run.json")
    assert str(refused.value).startswith(
        f"{log}: another run has written over this log since the run of run.json"
    )
    assert "give each run a --keep-logs folder of its own" in str(refused.value)
