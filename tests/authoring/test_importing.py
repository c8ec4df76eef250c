"""harness.authoring.importing: the other tool's files read, and their faults said as they were named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.authoring import importing
from harness.errors import HarnessError, UsageError


def convert(tmp_path: Path, source: str, evals: str | None, triggers: str | None = None):
    return importing.converted(
        source,
        "pdf",
        evals,
        triggers,
        cwd=tmp_path,
        skill_dir=tmp_path / "skills" / "pdf",
        root=tmp_path,
        stage_files=False,
    )


def test_a_trigger_set_becomes_routing_cases(tmp_path: Path):
    (tmp_path / "triggers.json").write_text(json.dumps([{"query": "fill this form", "should_trigger": True}]))
    out = convert(tmp_path, "skill-creator", None, "triggers.json")
    assert [case["skill_should_trigger"] for case in out.dataset["evaluations"]] == [True]


def test_a_file_of_the_wrong_shape_is_named_as_given(tmp_path: Path):
    (tmp_path / "cases.json").write_text(json.dumps(["not", "a", "case", "file"]))
    with pytest.raises(HarnessError, match=r"^cases\.json is not an addyosmani case file"):
        convert(tmp_path, "addyosmani", "cases.json")


def test_of_skill_creators_two_files_the_wrong_one_is_named(tmp_path: Path):
    """The evals file's fault names --evals and the trigger set's names --triggers, whatever words the
    sentence holds."""
    (tmp_path / "evals.json").write_text(json.dumps({"evals": []}))
    (tmp_path / "triggers.json").write_text(json.dumps([]))
    (tmp_path / "odd.json").write_text(json.dumps({"trigger": "not a list"}))
    with pytest.raises(HarnessError, match=r"^odd\.json is not a skill-creator evals file"):
        convert(tmp_path, "skill-creator", "odd.json", "triggers.json")
    with pytest.raises(HarnessError, match=r"^odd\.json is not a skill-creator trigger eval set"):
        convert(tmp_path, "skill-creator", "evals.json", "odd.json")


def test_a_missing_file_is_a_usage_error_and_bad_json_asks_for_a_fix(tmp_path: Path):
    with pytest.raises(UsageError, match="cannot be read"):
        convert(tmp_path, "skill-creator", "missing.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(HarnessError, match="fix the file and run again"):
        convert(tmp_path, "skill-creator", "broken.json")
