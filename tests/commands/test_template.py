"""`skillscope template`: a dataset to start from that itself clears Tier 0 and the schema."""

from __future__ import annotations

import json
from pathlib import Path

from harness import schemas
from tests.support.helpers import make_skill, run_cli, structural


def template(tmp_path: Path) -> str:
    run = run_cli(["template"], cwd=tmp_path)
    assert run.code == 0 and run.stderr == ""
    return run.stdout


def test_the_template_is_json_that_validates_against_the_evals_schema(tmp_path: Path) -> None:
    data = json.loads(template(tmp_path))
    assert list(schemas.validator("evals").iter_errors(data)) == []


def test_the_template_has_tier_0s_shape_but_every_placeholder_is_a_leftover(tmp_path: Path) -> None:
    make_skill(tmp_path / "repo", "my-skill", evals=template(tmp_path))
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    cases = json.loads(template(tmp_path))["evaluations"]
    assert report["totals"]["cases"] == len(cases)
    assert run.code == 1 and {f["rule"] for f in report["findings"]} == {"template-leftover"}
    assert {f["line"] for f in report["findings"]} == {f["line"] for f in report["findings"] if f["line"]}
    assert len({f["line"] for f in report["findings"]}) == len(cases)  # every case names its own line


def test_the_template_filled_in_passes_structural(tmp_path: Path) -> None:
    data = json.loads(template(tmp_path))
    for n, case in enumerate(data["evaluations"]):
        case["prompt"] = f"Tidy the quarterly export, variant {n}."
        case.pop("note", None)
        for key in ("expected_behavior", "unexpected_behavior", "logs_contain"):
            if key in case:
                case[key] = [f"{key} written for this skill"]
    make_skill(tmp_path / "repo", "my-skill", evals=data)
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert (run.code, report["findings"]) == (0, [])


def test_the_template_shows_every_expectation_kind_on_a_true_case(tmp_path: Path) -> None:
    cases = json.loads(template(tmp_path))["evaluations"]
    keys = {key for case in cases if case["skill_should_trigger"] for key in case}
    assert {"expected_behavior", "unexpected_behavior", "logs_contain", "files_exist"} <= keys
