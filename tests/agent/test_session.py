"""harness.agent.session: the one log path per case id, the shared settings, and Trace.failure."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent import AgentSettings, ClaudeEvents, log_path
from harness.agent.trace import Trace
from tests.support.examples import examples
from tests.support.tracing import finished as ended

FOLDER = Path("/logs/run")


@settings(max_examples=examples(400), derandomize=True)
@given(st.text(min_size=1, max_size=300), st.sampled_from(["jsonl", "agent.jsonl", "judge.txt", ""]))
def test_every_case_id_becomes_one_file_inside_the_folder(case_id: str, suffix: str):
    path = log_path(FOLDER, case_id, suffix)
    assert path.parent == FOLDER  # never a sub-folder, never outside
    assert path.name not in ("", ".", "..") and not path.name.startswith(".")
    assert all(c.isascii() and (c.isalnum() or c in "_.-") for c in path.name)


@settings(max_examples=examples(300), derandomize=True)
@given(st.text(min_size=1, max_size=60), st.text(min_size=1, max_size=60))
def test_two_ids_never_share_a_log(first: str, second: str):
    if first != second:
        assert log_path(FOLDER, first, "jsonl") != log_path(FOLDER, second, "jsonl")


@settings(max_examples=examples(300), derandomize=True)
@given(st.text(min_size=1, max_size=300), st.integers(1, 50), st.integers(1, 50))
def test_two_samples_of_a_case_never_share_a_log(case_id: str, first: int, second: int):
    """A sample number is never cut off with a long id, nor folded into its hash."""
    if first != second:
        assert log_path(FOLDER, case_id, "jsonl", first) != log_path(FOLDER, case_id, "jsonl", second)


def test_a_plain_id_keeps_its_name_and_a_traversal_stays_home():
    assert log_path(FOLDER, "pdf-merge-1", "jsonl") == FOLDER / "pdf-merge-1.jsonl"
    assert log_path(FOLDER, "pdf-merge-1", "jsonl", 2) == FOLDER / "pdf-merge-1-2.jsonl"
    escaped = log_path(FOLDER, "../../../../tmp/pwned", "jsonl")
    assert escaped.parent == FOLDER and escaped.name.startswith("_.._.._.._tmp_pwned-")


def test_settings_keep_no_log_without_a_folder(tmp_path: Path):
    assert AgentSettings().log_path("a", "jsonl") is None
    assert AgentSettings(keep_logs=tmp_path).log_path("a/b", "jsonl").parent == tmp_path


def finished(*events: dict, stop_reason: str = "result", exit_code: int = 0, timeout_s: float = 5) -> Trace:
    reader = ClaudeEvents({})
    for event in events:
        reader.feed(json.dumps(event))
    return ended(reader, exit_code=exit_code, stop_reason=stop_reason, timeout_s=timeout_s)


RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "done"}


def test_a_finished_run_or_a_stop_asked_for_is_no_failure():
    assert finished(RESULT).failure is None
    assert finished(stop_reason="activation", exit_code=-15).failure is None
    assert finished(stop_reason="tool_budget", exit_code=-15).failure is None


def test_an_error_result_a_crash_and_a_timeout_are_failures():
    turns = {**RESULT, "subtype": "error_max_turns", "is_error": True, "errors": ["too many turns"]}
    assert finished(turns).failure == "the agent ended the run with an error (too many turns)"
    assert "exited 3" in finished(stop_reason="completed", exit_code=3).failure
    timed_out = finished(stop_reason="timeout", exit_code=-9)
    assert timed_out.failure == "timed out after 5 s before claude finished"
