"""reusable.yml's results table tells the truth: each grader job records its real outcome, and the
results job reads it, so a failed optional grader shows `optional | failure` and warns.

The scripts are taken from the workflow file and run with bash, their env resolved the way the runner
would: each leg's `Record the outcome` step writes its output, the legs' outputs are combined as GitHub
combines a matrix's (a value a leg did not write never replaces another leg's), and the job result is what
step-level continue-on-error makes of it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.support.yamlfiles import WORKFLOWS, load

REUSABLE = next(p for p in WORKFLOWS if p.name == "reusable.yml")
GRADERS = ("structural", "routing", "behavioral")
REFERENCE = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


def job(name: str) -> dict:
    return load(REUSABLE)["jobs"][name]


def step(job_name: str, name: str) -> dict:
    return next(s for s in job(job_name)["steps"] if s.get("name") == name)


def resolve(env: dict[str, str], context: dict[str, str]) -> dict[str, str]:
    """Each env value must be one plain context reference; a missing value is '' as on GitHub."""
    resolved = {}
    for variable, expression in env.items():
        match = REFERENCE.fullmatch(str(expression))
        assert match, f"{variable}: keep the logic in the script, pass it plain values ({expression})"
        resolved[variable] = context.get(match.group(1), "")
    return resolved


def bash(script: str, env: dict[str, str], tmp_path: Path) -> tuple[subprocess.CompletedProcess, str, str]:
    """Run a step's script; returns the process, its GITHUB_OUTPUT and its GITHUB_STEP_SUMMARY."""
    output, summary = tmp_path / "output", tmp_path / "summary"
    output.write_text("")
    summary.write_text("")
    env = {"PATH": "/usr/bin:/bin", **env, "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary)}
    done = subprocess.run(["bash", "-e", "-c", script], env=env, capture_output=True, text=True)
    return done, output.read_text(), summary.read_text()


def record(grader: str, key: str, grade: str, tmp_path: Path) -> dict[str, str]:
    """One leg's `Record the outcome` step, given the outcomes of its key check and graded step."""
    recorder = step(grader, "Record the outcome")
    done, output, _ = bash(
        recorder["run"],
        resolve(recorder["env"], {"steps.key.outcome": key, "steps.grade.outcome": grade}),
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    return dict(line.split("=", 1) for line in output.splitlines())


def grader_job(grader: str, mode: str, legs: list[str], tmp_path: Path) -> tuple[str, dict[str, str]]:
    """(result, outputs) of a grader job whose legs' graded steps ended as `legs` say."""
    if mode == "off" or not legs:
        return "skipped", {}
    combined: dict[str, str] = {}
    for outcome in legs:
        values = record(grader, "success", outcome, tmp_path)
        combined.update({k: v for k, v in values.items() if v})
        assert set(job(grader)["outputs"]) >= set(values)
    failed = "failure" in legs and mode == "required"  # continue-on-error hides an optional failure
    return ("failure" if failed else "success"), combined


def results(context: dict[str, str], tmp_path: Path) -> tuple[subprocess.CompletedProcess, str]:
    checker = step("results", "Required graders must pass")
    done, _, summary = bash(checker["run"], resolve(checker["env"], context), tmp_path)
    return done, summary


def run_pipeline(
    modes: dict[str, str], legs: dict[str, list[str]], tmp_path: Path, compare: dict[str, str] | None = None
):
    context = {"needs.discover.result": "success", **(compare or {})}
    for grader in GRADERS:
        result, outputs = grader_job(grader, modes[grader], legs[grader], tmp_path)
        context[f"inputs.{grader}"] = modes[grader]
        context[f"needs.{grader}.result"] = result
        context.update({f"needs.{grader}.outputs.{k}": v for k, v in outputs.items()})
    return results(context, tmp_path)


LEGS = {"success": ["success", "success"], "failure": ["success", "failure"], "skipped": []}


@pytest.mark.parametrize("grader", GRADERS)
@pytest.mark.parametrize("mode", ["required", "optional"])
@pytest.mark.parametrize("outcome", ["success", "failure", "skipped"])
def test_the_results_table_shows_each_graders_real_outcome(grader, mode, outcome, tmp_path):
    modes = dict.fromkeys(GRADERS, "required") | {grader: mode}
    legs = dict.fromkeys(GRADERS, ["success"]) | {grader: LEGS[outcome]}
    done, summary = run_pipeline(modes, legs, tmp_path)

    assert f"| {grader} | {mode} | {outcome} |" in summary.splitlines()
    errors = [line for line in done.stdout.splitlines() if line.startswith("::error")]
    warnings = [line for line in done.stdout.splitlines() if line.startswith("::warning")]
    if mode == "required" and outcome == "failure":
        assert done.returncode == 1
        assert errors == [
            f"::error title={grader} failure::{grader} is required and its result is failure; "
            "see that job's log and report."
        ]
    else:
        assert done.returncode == 0, done.stdout + done.stderr
        assert errors == []
        assert "All required graders passed." in done.stdout
    if mode == "optional" and outcome == "failure":
        assert len(warnings) == 1 and warnings[0].startswith(f"::warning title={grader} (optional) failure::")
    else:
        assert warnings == []


def test_an_off_grader_is_listed_as_skipped_and_judged_by_nobody(tmp_path):
    modes = dict.fromkeys(GRADERS, "required") | {"behavioral": "off"}
    legs = dict.fromkeys(GRADERS, ["success"])
    done, summary = run_pipeline(modes, legs, tmp_path)
    assert done.returncode == 0 and "| behavioral | off | skipped |" in summary


@pytest.mark.parametrize("grader", ["routing", "behavioral"])
@pytest.mark.parametrize(
    ("key", "grade", "recorded"),
    [
        ("success", "success", {}),
        ("success", "failure", {"outcome": "failure"}),
        ("failure", "skipped", {"outcome": "failure"}),  # no key: the graded step never ran
        ("success", "cancelled", {}),
    ],
)
def test_a_leg_records_a_failure_of_its_key_check_or_its_grade(grader, key, grade, recorded, tmp_path):
    assert record(grader, key, grade, tmp_path) == recorded


@pytest.mark.parametrize("grader", GRADERS)
def test_every_grader_job_exposes_its_recorded_outcome(grader):
    spec = job(grader)
    assert spec["outputs"]["outcome"] == "${{ steps.outcome.outputs.outcome }}"
    recorder = step(grader, "Record the outcome")
    assert recorder["id"] == "outcome" and recorder["if"] == "always()"
    assert spec["steps"][-1]["uses"].startswith("actions/upload-artifact@"), "record before uploading"
    graded = next(s for s in spec["steps"] if s.get("id") == "grade")
    assert "continue-on-error" in graded, "the case this output exists for"
    env = step("results", "Required graders must pass")["env"]
    assert f"${{{{ needs.{grader}.outputs.outcome }}}}" in env.values()


@pytest.mark.parametrize(
    ("enabled", "result", "outcome", "row", "code"),
    [
        ("true", "success", "", "| compare | required | success |", 0),
        ("true", "failure", "failure", "| compare | required | failure |", 1),
        ("true", "skipped", "", "| compare | required | skipped |", 0),  # a push: no pull request to compare
        ("false", "skipped", "", "| compare | off | skipped |", 0),
    ],
)
def test_compare_is_required_when_asked_for(enabled, result, outcome, row, code, tmp_path):
    modes, legs = dict.fromkeys(GRADERS, "required"), dict.fromkeys(GRADERS, ["success"])
    context = {
        "inputs.compare": enabled,
        "needs.compare.result": result,
        "needs.compare.outputs.outcome": outcome,
    }
    done, summary = run_pipeline(modes, legs, tmp_path, context)
    assert row in summary.splitlines() and done.returncode == code, done.stdout


def test_the_compare_job_records_a_failed_key_check_or_compare(tmp_path):
    assert record("compare", "failure", "skipped", tmp_path) == {"outcome": "failure"}
    assert record("compare", "skipped", "skipped", tmp_path) == {}  # no changed skill: nothing ran
    assert record("compare", "success", "failure", tmp_path) == {"outcome": "failure"}
