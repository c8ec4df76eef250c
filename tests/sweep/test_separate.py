"""The clustering hint from evidence: agent routing reports' confusion says which skills take each
other's prompts, and the sweep suggests scopes that keep each such pair apart; a lexical report is
refused, since lexical likeness does not predict what an agent mixes up."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from harness.sweep import separate
from tests.support.helpers import run_cli

CATALOG = Path(__file__).resolve().parent / "clause_cut"


def report(path: Path, confusion: dict, engine: str = "agent") -> str:
    path.write_text(json.dumps({"command": "routing", "engine": engine, "confusion": confusion}))
    return path.name


def test_skills_taking_each_others_prompts_are_put_in_different_scopes():
    first = {"a": {"a": 8, "b": 2}, "b": {"b": 7, "a": 3}, "c": {"c": 10, "a": 0}, "d": {"d": 9, "(none)": 1}}
    second = {"c": {"c": 6, "b": 4}, "b": {"b": 10}}
    found = separate.pairs([first, second])
    assert [(p.first, p.second, p.first_to_second, p.second_to_first) for p in found] == [
        ("a", "b", 2, 3),
        ("b", "c", 0, 4),
    ]
    assert separate.scopes(found) == [["b"], ["a", "c"]]


def test_one_misroute_or_a_small_share_is_no_evidence():
    assert separate.pairs([{"a": {"a": 9, "b": 1}, "b": {"b": 10}}]) == []
    assert separate.pairs([{"a": {"a": 90, "b": 5}, "b": {"b": 100, "a": 5}}]) == []


def test_the_sweep_reports_the_hint_and_refuses_a_lexical_report(tmp_path: Path):
    repo = Path(shutil.copytree(CATALOG, tmp_path / "repo"))
    confusion = {
        "cloud-change-review": {"cloud-change-review": 3, "platform-change-review": 2},
        "platform-change-review": {"platform-change-review": 1, "cloud-change-review": 2},
    }
    given = report(tmp_path / "agent.json", confusion)
    output = tmp_path / "sweep.json"
    base = ["sweep", "--repo", str(repo), "--skills-dir", "skills/*", "--warn", "description-collision"]
    base += ["--sizes", "3,10", "--repeat", "1", "--agent", "codex", "--output", str(output)]
    run = run_cli([*base, "--confusion", given, "--format", "markdown"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    hint = json.loads(output.read_text())["separate"]
    assert hint["pairs"][0]["skills"] == ["cloud-change-review", "platform-change-review"]
    assert hint["scopes"] == [["cloud-change-review"], ["platform-change-review"]]
    assert "Put them in separate plugins or subagents" in run.stdout
    lexical = report(tmp_path / "lexical.json", confusion, engine="lexical")
    refused = run_cli([*base, "--confusion", lexical], cwd=tmp_path)
    assert refused.code == 2 and "lexical likeness does not predict" in refused.stderr
