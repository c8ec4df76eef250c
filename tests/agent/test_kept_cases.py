"""Kept logs matched to a run's cases (harness.agent.kept_cases): a folder's files chosen by case id, a
JSON report's cases found for each file, by the names the runners give their logs. Files named as the
runners name them, in a folder on disk; what `show` prints of them is in tests/commands/test_show.py."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.agent import log_path
from harness.agent.kept_cases import belongs, case_of, cases_of, chosen_files, labelled, leg_of, logs_of
from harness.agent.logs import LogFile, log_file
from harness.errors import UsageError

# What a behavioral case with a judge keeps, and a routing case run three times with the canary first.
BEHAVIORAL = [
    "report-writer-pass.agent.jsonl",
    "report-writer-pass.judge-1.jsonl",
    "report-writer-pass.judge.txt",
]
SAMPLED = [
    "alpha-pos-1-1.jsonl",
    "alpha-pos-1-2.jsonl",
    "alpha-pos-1-3.jsonl",
    "skillscope-canary-wren.jsonl",
]


def folder(tmp_path: Path, *names: str) -> Path:
    logs = tmp_path / "logs"
    for name in names:
        (logs / name).parent.mkdir(parents=True, exist_ok=True)
        (logs / name).write_text("{}\n", encoding="utf-8")
    return logs


def labels(chosen: list[tuple[str, LogFile]]) -> list[str]:
    return [label for label, _ in chosen]


def test_a_case_not_in_the_folder_names_the_cases_that_are(tmp_path):
    logs = folder(tmp_path, *BEHAVIORAL)
    with pytest.raises(UsageError) as raised:
        chosen_files(logs, "logs", ["report-writer-pass", "report-writer-typo"])
    assert str(raised.value) == "no log of case `report-writer-typo` in logs; its cases: report-writer-pass"


def test_the_cases_named_in_the_message_stop_at_twenty(tmp_path):
    logs = folder(tmp_path, *(f"case-{n:02}.jsonl" for n in range(23)))
    with pytest.raises(UsageError) as raised:
        chosen_files(logs, "logs", ["typo"])
    assert str(raised.value).endswith(", case-19 and 3 more")


@pytest.mark.parametrize(
    ("made", "message"),
    [
        (
            None,
            "nothing: no such folder or file; pass the folder a run was given as --keep-logs, "
            "or the run's JSON report",
        ),
        (
            "folder",
            "nothing holds no agent logs: routing, behavioral, compare and cost keep them "
            "there when run with --keep-logs nothing",
        ),
    ],
)
def test_a_logs_path_with_nothing_to_show_says_how_logs_are_kept(tmp_path, made, message):
    if made:
        (tmp_path / "nothing").mkdir()
        (tmp_path / "nothing" / "notes.md").write_text("# not a log\n")
    with pytest.raises(UsageError) as raised:
        chosen_files(tmp_path / "nothing", "nothing", [])
    assert str(raised.value) == message


def test_a_case_chooses_each_of_its_files_and_every_sample(tmp_path):
    logs = folder(tmp_path, *BEHAVIORAL, *SAMPLED)
    assert labels(chosen_files(logs, "logs", [])) == sorted(BEHAVIORAL + SAMPLED)
    assert labels(chosen_files(logs, "logs", ["report-writer-pass"])) == sorted(BEHAVIORAL)
    assert labels(chosen_files(logs, "logs", ["alpha-pos-1"])) == SAMPLED[:3]
    assert labels(chosen_files(logs, "logs", ["alpha-pos-1-2"])) == ["alpha-pos-1-2.jsonl"]
    with pytest.raises(UsageError):  # a prefix of an id is not the id
        chosen_files(logs, "logs", ["alpha-pos"])


def test_one_file_given_is_chosen_whatever_its_name(tmp_path):
    logs = folder(tmp_path, "report-writer-pass.judge-1.jsonl", "notes.md")
    [(label, found)] = chosen_files(logs / "notes.md", "logs/notes.md", ["ignored"])
    assert (label, found.stem, found.role) == ("notes.md", "notes", "run")
    [(label, found)] = chosen_files(logs / "report-writer-pass.judge-1.jsonl", "given", [])
    assert (found.stem, found.role) == ("report-writer-pass", "judge attempt 1")


def test_each_agents_logs_are_labelled_by_their_folder(tmp_path):
    logs = folder(tmp_path, "codex/alpha-pos-1.jsonl", "claude/alpha-pos-1.jsonl", "claude/notes.md")
    assert labels(labelled(logs)) == ["claude/alpha-pos-1.jsonl", "codex/alpha-pos-1.jsonl"]
    assert labels(chosen_files(logs, "logs", ["alpha-pos-1"])) == labels(labelled(logs))


# --- a report's cases ----------------------------------------------------------------------------


def found(tmp_path: Path, name: str) -> LogFile:
    return chosen_files(folder(tmp_path, name) / name, name, [])[0][1]


def test_a_routing_reports_cases_and_its_canary_are_found_for_their_logs(tmp_path):
    canary = {"skill": "skillscope-canary-wren", "status": "activated", "prompt": "p", "sentence": None}
    report = {"command": "routing", "meta": {"canary": canary}, "cases": [{"id": "alpha-pos-1"}]}
    cases = cases_of(report)
    assert case_of(found(tmp_path, "alpha-pos-1-2.jsonl"), cases) == {"id": "alpha-pos-1"}
    assert case_of(found(tmp_path, "skillscope-canary-wren.jsonl"), cases) == {
        "id": "skillscope-canary-wren",
        "status": "canary activated",
        "prompt": "p",
        "observed": None,
        "error": None,
    }
    assert case_of(found(tmp_path, "beta-pos-1.jsonl"), cases) is None


def test_a_matrix_heads_each_agents_log_with_that_agents_case(tmp_path):
    report = {
        "command": "routing-matrix",
        "cases": [{"id": "alpha-pos-1", "status": "fail"}],  # the matrix's own row, for logs of no leg
        "runs": [
            {"meta": {"agent": "claude"}, "cases": [{"id": "alpha-pos-1", "status": "pass"}]},
            {"meta": {"agent": "codex"}, "cases": [{"id": "alpha-pos-1", "status": "fail"}]},
            "not a run",
        ],
    }
    cases = cases_of(report)
    claude, codex = (
        found(tmp_path / "1", "claude/alpha-pos-1.jsonl"),
        found(tmp_path / "2", "codex/alpha-pos-1.jsonl"),
    )
    assert [case_of(f, cases) for f in (claude, codex)] == [
        {"id": "alpha-pos-1", "status": "pass"},
        {"id": "alpha-pos-1", "status": "fail"},
    ]
    assert [leg_of(f"{f.path.parent.name}/x", f, report) for f in (claude, codex)] == ["claude", "codex"]
    assert leg_of("claude/x", claude, {"command": "routing"}) == leg_of("claude/x", claude, None) == ""
    compare = found(tmp_path / "3", "model-a/before/alpha-pos-1.jsonl")
    assert leg_of("model-a/before/alpha-pos-1.jsonl", compare, {"command": "compare-matrix"}) == "model-a"


def test_a_report_ignores_cases_without_an_id(tmp_path):
    report = {"cases": [1, {"id": 3}, {"id": "segfault"}], "runs": "x", "meta": {"canary": "y"}}
    assert cases_of(report) == {"segfault": {"id": "segfault"}}


@pytest.mark.parametrize(
    ("report", "message"),
    [
        (
            {"command": "routing", "settings": {"values": {"keep-logs": None}}},
            "run.json: this routing run kept no agent logs; run it again with --keep-logs DIR; "
            "`skillscope show run.json --format text` (or --html PAGE) prints the report itself",
        ),
        (
            {"command": "cost", "repo": "/nowhere", "settings": {"values": {"keep-logs": "gone"}}},
            "run.json: the logs this run kept in gone are gone (looked in {cwd}/gone and /nowhere/gone); "
            "pass the folder itself if it moved",
        ),
    ],
)
def test_a_report_that_leads_to_no_logs_says_why(tmp_path, report, message):
    with pytest.raises(UsageError) as raised:
        logs_of(report, "run.json", tmp_path)
    assert str(raised.value) == message.format(cwd=tmp_path)
    assert logs_of(report, "run.json", tmp_path, required=False) is None


def test_a_reports_logs_are_found_from_here_or_from_its_repo(tmp_path):
    report = {"repo": str(tmp_path / "repo"), "settings": {"values": {"keep-logs": "logs"}}}
    (tmp_path / "repo" / "logs").mkdir(parents=True)
    assert logs_of(report, "run.json", tmp_path) == tmp_path / "repo" / "logs"
    (tmp_path / "logs").mkdir()
    assert logs_of(report, "run.json", tmp_path) == tmp_path / "logs"


# Ids whose file stem is the id itself (letters, digits, `_.-`, not led by a dot), as datasets write them.
SAFE_IDS = st.text(string.ascii_letters + string.digits + "_.-", min_size=1, max_size=100).filter(
    lambda i: not i.startswith(".")
)


@given(case_id=SAFE_IDS | st.text(min_size=1, max_size=150), sample=st.one_of(st.none(), st.integers(1, 12)))
def test_every_log_a_runner_names_for_a_case_belongs_to_it(case_id, sample):
    """Every sample's file, whatever the id: one the file name had to change (`alpha:pos-1`) included."""
    log = log_file(log_path(Path("logs"), case_id, "jsonl", sample))
    assert log is not None
    assert belongs(log, case_id)
    assert case_of(log, cases_of({"cases": [{"id": case_id}]})) == {"id": case_id}


@given(case_id=st.text(min_size=1, max_size=150))
def test_an_id_the_file_name_had_to_change_still_finds_its_log(case_id):
    log = log_file(log_path(Path("logs"), case_id, "agent.jsonl"))
    assert log is not None
    assert belongs(log, case_id)
    assert case_of(log, cases_of({"cases": [{"id": case_id}]})) == {"id": case_id}
