"""Acceptance: every folder under select/ is a repo; expected.json beside it says what select plans.

expected.json: {"args": [...], "stdin"?: "...", "exit": N, "plan"?: {...}, "stderr_contains"?: "...",
"note": "..."}. The test adds --repo, runs from the scenario folder with SKILLSCOPE_VERSION=v-acceptance,
and compares the whole plan. Adding a case is adding a folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.select import assert_valid_plan, select, without_envelope

SCENARIOS = Path(__file__).parent / "select"
ENVIRON = {"SKILLSCOPE_VERSION": "v-acceptance"}


def scenario_names() -> list[str]:
    return sorted(p.name for p in SCENARIOS.iterdir() if (p / "expected.json").is_file())


@pytest.mark.parametrize("name", scenario_names())
def test_select_plans_what_the_scenario_expects(name: str) -> None:
    root = SCENARIOS / name
    expected = json.loads((root / "expected.json").read_text(encoding="utf-8"))

    run = select(root, *expected["args"], stdin=expected.get("stdin", ""), environ=ENVIRON)

    assert run.code == expected["exit"], f"{name}: exit {run.code}, stderr: {run.stderr}"
    if "plan" in expected:
        assert run.stdout.count("\n") == 1, run.stdout
        plan = json.loads(run.stdout)
        assert_valid_plan(plan)
        assert without_envelope(plan) == expected["plan"], f"{name}: {expected['note']}"
        assert plan["counts"]["total"] == len(plan["skills"])
        assert (plan["command"], plan["status"], plan["repo"]) == ("select", "pass", str(root))
    else:
        assert run.stdout == ""
    if "stderr_contains" in expected:
        assert expected["stderr_contains"] in run.stderr, run.stderr
    elif expected["exit"] == 0:
        assert run.stderr == ""


def test_every_scenario_has_an_expected_file_with_a_note() -> None:
    folders = [p for p in SCENARIOS.iterdir() if p.is_dir()]
    assert folders
    for folder in folders:
        expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
        assert expected.get("note"), folder.name
        assert ("plan" in expected) == (expected["exit"] == 0), folder.name
