"""logs_contain searches what the agent did; files_exist credits only what the run produced."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.behavioral.evidence import passages
from harness.behavioral.scorers import files_exist, logs_contain, segment_match
from harness.behavioral.snapshot import Changes
from tests.support.tracing import call, trace

WS = Path("/srv/ws")
SKILLS = ".claude/skills"


def did(*calls, final=None):
    return passages(trace(*calls, final=final), WS, SKILLS)


def test_logs_contain_is_a_case_insensitive_search_of_inputs_outputs_and_the_final_message():
    found_in = did(
        call("Bash", {"command": 'python profile_csv.py --strict "a b"'}, "ROWS: 12"), final="All Done"
    )
    checks = logs_contain(['profile_csv.py --strict "a b"', "rows: 12", "all done", "absent"], found_in, [])
    assert [c.passed for c in checks] == [True, True, True, False]
    assert [c.detail for c in checks[:3]] == [
        "found in the Bash input (call 1)",
        "found in the Bash output (call 1)",
        "found in the final message",
    ]
    assert checks[3].detail == "not found in what the agent did (1 tool call(s) and the final message)"


def test_a_literal_only_in_the_injected_skill_text_fails_and_says_why():
    injected = ("Base directory for this skill: /srv/ws/.claude/skills/s\n\nAlways use QUILL-7731.",)
    found_in = passages(
        trace(call("Skill", {"skill": "s"}, "Launching skill: s"), final="ok", injected=injected), WS, SKILLS
    )
    (check,) = logs_contain(["quill-7731"], found_in, list(injected))
    assert not check.passed and check.detail.startswith("appears only in the skill's own text")


def test_reading_the_installed_skill_does_not_count_but_running_its_script_does():
    skill_md = "Always use QUILL-7731 and run scripts/go.sh"
    found_in = did(
        call("Read", {"file_path": "/srv/ws/.claude/skills/s/SKILL.md"}, skill_md),
        call("Grep", {"pattern": "QUILL", "path": ".claude/skills/s"}, skill_md),
        call("Bash", {"command": "bash .claude/skills/s/scripts/go.sh"}, "went"),
    )
    checks = logs_contain(["QUILL-7731", "scripts/go.sh", "went"], found_in, [])
    assert [c.passed for c in checks] == [False, True, True]


@pytest.mark.parametrize(
    ("path", "pattern", "matches"),
    [
        ("plan.md", "plan.md", True),
        ("examples/plan.md", "plan.md", True),
        ("analyze_plan.md", "plan.md", False),
        ("run-1/out/report.md", "out/report.md", True),
        ("about/report.md", "out/report.md", False),
        ("plan.md", "", False),
    ],
)
def test_segment_match(path, pattern, matches):
    assert segment_match(path, pattern) is matches


def test_files_exist_credits_created_and_changed_files_and_normalises_patterns():
    changes = Changes(created=["docs/plan.md"], changed=["data/out.csv"], untouched=["README.md"])
    checks = files_exist(["plan.md", ".\\data\\out.csv", "/docs/plan.md"], changes)
    assert all(c.passed for c in checks)
    assert checks[0].detail == "found at docs/plan.md (created)"
    assert checks[1].detail == "found at data/out.csv (changed)"


def test_files_exist_explains_each_way_of_missing():
    changes = Changes(created=["notes.md"], untouched=["plan.md"], directories=["report"])
    fixture, directory, absent = files_exist(["plan.md", "report", "summary.md"], changes)
    assert "already in the workspace and the run left it unchanged" in fixture.detail
    assert directory.detail == "only a directory matches report; files_exist names files"
    assert absent.detail == "not among the files the run created or changed: notes.md"
    (empty,) = files_exist(["x.md"], Changes(untouched=["a.md", "b.md"]))
    assert empty.detail == "the run created or changed no file; the workspace holds: a.md, b.md"
